"""The round clock: a round's time limit, kept by the server.

Pure Python, no Django. Words:

round clock
    The time limit of one started round: of a rotation night (the night and the round's number)
    or of a bracket (the bracket and its round's number). It has a *start* (an instant the
    server wrote), a *length* in whole minutes, and maybe a *stop*.
length
    How long the round lasts: the season rulebook's minutes when its games are played against
    the clock, else the minutes the organiser typed. *Extending* adds whole minutes to it.
stop
    The organiser calling time early: the clock ends at that instant instead of at the end of
    its length (it never ends later than its length says).
end
    The start plus the length, or the stop when it came first. *Time!* is called at the end.
remaining
    Whole seconds from *now* to the end, never below zero. Every display is sent the end and the
    server's *now* in the same answer and counts down from there locally, so phones whose own
    clocks are wrong still agree with the server (``static/js/round-clock.js``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from core.errors import DomainError
from league.domain.rules import Rulebook

MINUTES_MIN = 1
MINUTES_MAX = 240
"""A round of euchre lasts minutes, not hours: four hours is beyond any bar's night."""

EXTEND_MAX = 60
"""One extension adds at most an hour (a typo of 500 minutes is refused, not obeyed)."""


def clock_minutes(value: object, *, field: str = "minutes") -> int:
    """A round's length as typed: a whole number of minutes, 1 to 240."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise DomainError("say how many minutes the round lasts, as a whole number", field=field)
    if not MINUTES_MIN <= value <= MINUTES_MAX:
        raise DomainError(
            f"a round lasts {MINUTES_MIN} to {MINUTES_MAX} minutes, not {value}", field=field
        )
    return value


def extension_minutes(value: object, *, length: int) -> int:
    """Minutes to add to a clock of ``length`` minutes: 1 to 60, and the new length at most 240."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise DomainError("say how many minutes to add, as a whole number", field="minutes")
    if not 1 <= value <= EXTEND_MAX:
        raise DomainError(f"add 1 to {EXTEND_MAX} minutes at a time, not {value}", field="minutes")
    if length + value > MINUTES_MAX:
        raise DomainError(
            f"a round lasts at most {MINUTES_MAX} minutes: it has {length} already",
            field="minutes",
        )
    return value


@dataclass(frozen=True)
class ClockReading:
    """A clock read at ``now``: when it ends, the whole seconds left, and whether time is up."""

    ends_at: datetime
    now: datetime
    remaining_seconds: int
    is_over: bool
    is_stopped: bool


def clock_read(
    *, started_at: datetime, minutes: int, stopped_at: datetime | None, now: datetime
) -> ClockReading:
    """Read a clock at ``now`` (see the module's words). Remaining seconds are rounded up, so
    "0:00" is shown only once time is really up."""
    ends_at = started_at + timedelta(minutes=minutes)
    if stopped_at is not None and stopped_at < ends_at:
        ends_at = stopped_at
    left = (ends_at - now).total_seconds()
    remaining = max(math.ceil(left), 0)
    return ClockReading(
        ends_at=ends_at,
        now=now,
        remaining_seconds=remaining,
        is_over=remaining == 0,
        is_stopped=stopped_at is not None,
    )


def remaining_text(seconds: int) -> str:
    """Seconds left as the displays show them: "mm:ss", "Time!" at zero."""
    if seconds <= 0:
        return "Time!"
    minutes, rest = divmod(seconds, 60)
    return f"{minutes:02d}:{rest:02d}"


def rulebook_minutes(rules: Rulebook) -> int | None:
    """A round's length by the rulebook: its games' time limit in minutes ("to N points or M
    minutes", "M minutes"), else ``None`` (the organiser types one)."""
    return rules.time_limit_minutes
