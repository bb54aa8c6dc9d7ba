"""Lists an organiser pastes into the workspace instead of filling one form per row.

Words used here:

- *pasted line*: one line of the text as pasted, numbered from 1. Blank lines are skipped but
  still counted, so a problem's line number is the line the organiser sees in the box.
- *roster paste*: one player a line: a name, or a name and an email separated by a tab (two
  cells copied from a spreadsheet). It becomes the same ``(line, name, email)`` rows a CSV file
  does, for the one roster import (``league.services.roster_import``).
- *team paste*: one team a line: two players' names joined by ``&`` (or ``+``, ``/``, a comma, a
  tab or the word ``and``), optionally after the team's name and a colon:
  ``Bowers of Power: Ann Baker & Bob Carter``. Without a team name the team is called after its
  players (``Ann Baker & Bob Carter``).
- *recurring nights*: the dates of a series of nights: a first date on or after a start, on one
  weekday, every N weeks, a number of them; skipped dates (a holiday) do not count, the series
  runs on past them.

Pure Python: no Django import here.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from core.errors import DomainError

PAIR_SEPARATOR = re.compile(r"\s*(?:&|\+|/|,|\t)\s*|\s+and\s+", re.IGNORECASE)
"""What joins the two players of a pasted team."""

MAX_PASTED_LINES = 2000
"""The most lines one paste may hold (the CSV import's limit of rows)."""

MAX_RECURRING_NIGHTS = 60
"""The most nights one series may plan: more than a year of weekly nights."""

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _lines(text: str):
    lines = (text or "").splitlines()
    if len(lines) > MAX_PASTED_LINES:
        raise DomainError(f"at most {MAX_PASTED_LINES} lines at a time", field="names")
    for number, line in enumerate(lines, start=1):
        if line.strip():
            yield number, line


def pasted_names(text: str) -> list[tuple[int, str, str]]:
    """The ``(line, name, email)`` rows of a roster paste (blank lines skipped)."""
    rows = []
    for number, line in _lines(text):
        name, _tab, email = line.partition("\t")
        rows.append((number, name.strip(), email.strip()))
    return rows


@dataclass(frozen=True)
class PastedTeam:
    """One line of a team paste: the team's name (as written or made from its players) and its
    two players' names, whitespace runs made one space."""

    line: int
    name: str
    first: str
    second: str


def _tidy(name: str) -> str:
    return " ".join(name.split())


def pasted_teams(text: str) -> tuple[list[PastedTeam], list[tuple[int, str]]]:
    """The teams of a team paste, and the ``(line, reason)`` of each line that is not one."""
    teams: list[PastedTeam] = []
    problems: list[tuple[int, str]] = []
    for number, line in _lines(text):
        team_name, colon, players = line.partition(":")
        if not colon:
            team_name, players = "", line
        names = [_tidy(name) for name in PAIR_SEPARATOR.split(players.strip())]
        if len(names) != 2 or not all(names):
            problems.append(
                (number, "write two players joined by &, e.g. “Ann Baker & Bob Carter”")
            )
            continue
        first, second = names
        teams.append(PastedTeam(number, _tidy(team_name) or f"{first} & {second}", first, second))
    return teams, problems


def recurring_dates(
    *,
    start: datetime.date,
    weekday: int,
    count: int,
    every_weeks: int = 1,
    skip: frozenset[datetime.date] | set[datetime.date] = frozenset(),
) -> tuple[list[datetime.date], list[datetime.date]]:
    """``count`` dates on ``weekday`` (0 is Monday), the first on or after ``start``, then every
    ``every_weeks`` weeks; a date in ``skip`` is passed over and does not count. Returns the dates
    and the skipped dates the series passed over (a skipped date off the series is ignored)."""
    if not 0 <= weekday <= 6:
        raise DomainError("choose a day of the week", field="weekday")
    if every_weeks < 1 or every_weeks > 52:
        raise DomainError("every 1 to 52 weeks", field="every_weeks")
    if count < 1:
        raise DomainError("plan at least one night", field="count")
    if count > MAX_RECURRING_NIGHTS:
        raise DomainError(f"at most {MAX_RECURRING_NIGHTS} nights at a time", field="count")
    date = start + datetime.timedelta(days=(weekday - start.weekday()) % 7)
    dates: list[datetime.date] = []
    passed_over: list[datetime.date] = []
    step = datetime.timedelta(weeks=every_weeks)
    while len(dates) < count:
        (passed_over if date in skip else dates).append(date)
        date += step
    return dates, passed_over
