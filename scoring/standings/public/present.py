"""Words and numbers for the public pages, from a season's rules and its snapshot's JSON.

Pure Python, no Django: the views load rows, call these, and render.

- *record*: wins–losses, then draws when there are any ("5–2", "4–2–1"). In a table, every row
  shows its draws ("5–2–0") once any row has one, under a "W–L–D" heading; with none, the
  column stays "W–L" (a phone page stays compact).
- *chain sentence*: the season's tie-break chain in words ("Ranked by win percentage, then
  head-to-head, …, then a coin flip (seed 7).").
- *chance*: a playoff or first-place chance as a percentage. Only a proof says "Clinched" or
  "Out"; a simulated chance never shows 0 % or 100 % (it shows "<1 %" or ">99 %"), since a
  simulation that never saw a result does not prove it cannot happen.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scoring.standings.domain.standings import MEASURE_LABELS, SeasonRules
from scoring.standings.domain.standings.plain import short_reasons
from scoring.standings.domain.stats import AVERAGE, POINTS, STATS_LINE, StatField

DASH = "\N{EN DASH}"


def record(wins: int, losses: int, draws: int = 0, *, with_draws: bool | None = None) -> str:
    """``with_draws``: show the draws even when 0 (a table with a draw in it); by default, only
    when there are some."""
    shown = draws if with_draws is None else with_draws
    return f"{wins}{DASH}{losses}" + (f"{DASH}{draws}" if shown else "")


def has_draws(rows: Iterable[Mapping[str, Any]]) -> bool:
    """Whether any row of a table has a draw (then the table shows a draws column)."""
    return any(row["draws"] for row in rows)


def percent(value: float) -> str:
    return f"{round(value * 100)}%"


def number(value: float | int) -> str:
    """A count as a whole number, anything else to at most two decimals."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def chain_sentence(chain: Iterable[str], seed: int) -> str:
    words = []
    for name in chain:
        label = MEASURE_LABELS.get(name, name)
        words.append(f"a coin flip (seed {seed})" if name == "coin_flip" else label)
    if not words:
        return ""
    return "Ranked by " + ", then ".join(words) + "."


def rules_sentences(rules: SeasonRules) -> list[str]:
    """The season's other standings rules, one sentence each, in the order people ask about."""
    sentences = []
    if rules.count_best_nights:
        nights = "night counts" if rules.count_best_nights == 1 else "nights count"
        order = "wins, then points" if rules.best_nights_by == "wins" else "points, then wins"
        sentences.append(
            f"Only each entrant's best {rules.count_best_nights} {nights} (best by {order})."
        )
    else:
        sentences.append("Every night counts.")
    if rules.min_games:
        games = "game" if rules.min_games == 1 else "games"
        sentences.append(f"At least {rules.min_games} {games} to be ranked.")
    # Byes and forfeits are not recorded as results yet (the rules API refuses their options), so
    # the page says what is true today: a bye is worth nothing.
    sentences.append("A bye is worth nothing.")
    return sentences


def standing_rows(
    rows: Sequence[Mapping[str, Any]], link_of, chain: Sequence[str] = ()
) -> list[dict[str, Any]]:
    """The snapshot's rows with their record, win %, the address of the entrant's page and the
    reason in a few words (``short_reason``, from the season's tie-break ``chain``)."""
    shorts = short_reasons(rows, chain)
    with_draws = has_draws(rows)
    return [
        {
            **row,
            "record": record(row["wins"], row["losses"], row["draws"], with_draws=with_draws),
            "win_percent": percent(row["win_pct"]),
            "points_for_text": number(row["points_for"]),
            "point_diff_text": ("+" if row["point_diff"] > 0 else "") + number(row["point_diff"]),
            "url": link_of(row["entrant"]),
            "short_reason": short,
        }
        for row, short in zip(rows, shorts, strict=True)
    ]


OFF_THE_PAGE = frozenset({"forfeit_wins", "forfeit_losses"})
"""The fields of a stats line (``STATS_LINE``) a page leaves out: forfeits are no games played."""


def _shown(stat: StatField, value: Any) -> str:
    if stat.kind == POINTS:
        return number(value)
    if stat.kind == AVERAGE:
        return f"{value:.2f}"
    return str(value)


def _heading(stats: Sequence[StatField]) -> str:
    """A row's heading: its fields' labels joined, the first one's first word said once
    ("Loners tried / made / marched"); a record's is "Record"."""
    if stats[0].group == "record":
        return "Record"
    first = stats[0].label.split(" ", 1)[0]
    rest = [stat.label.removeprefix(f"{first} ") for stat in stats[1:]]
    return " / ".join([stats[0].label, *rest])


def _value(stats: Sequence[StatField], line: Mapping[str, Any]) -> str:
    """A row's value: its fields' values joined; a record as a record ("5–2"), calls with the
    share made good."""
    values = [line[stat.name] for stat in stats]
    if stats[0].group == "record":
        return record(*values)
    shown = " / ".join(_shown(stat, value) for stat, value in zip(stats, values, strict=True))
    if stats[0].group == "calls":
        calls, made = values
        shown += f" ({percent(made / calls)})" if calls else ""
    return shown


def stat_lines(line: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A player's or team's stats as (label, value) pairs, in the order of the page: the fields
    of the domain's ``STATS_LINE`` in its order (but ``OFF_THE_PAGE``), a group's fields in one
    row."""
    rows: list[list[StatField]] = []
    for stat in STATS_LINE:
        if stat.name in OFF_THE_PAGE:
            continue
        if rows and stat.group and rows[-1][-1].group == stat.group:
            rows[-1].append(stat)
        else:
            rows.append([stat])
    return [(_heading(stats), _value(stats, line)) for stats in rows]


def pair_rows(pairs: Iterable[Mapping[str, Any]], names: Mapping[int, str], link_of) -> list[dict]:
    """Records with each partner or against each opponent, most games first, then by name
    (``has_draws`` on every row when the table shows a draws column)."""
    pairs = list(pairs)
    with_draws = has_draws(pairs)
    rows = [
        {
            "name": names.get(pair["other_id"], f"#{pair['other_id']}"),
            "url": link_of(pair["other_id"]),
            "games": pair["games"],
            "record": record(pair["wins"], pair["losses"], pair["draws"], with_draws=with_draws),
            "has_draws": with_draws,
        }
        for pair in pairs
    ]
    return sorted(rows, key=lambda row: (-row["games"], row["name"]))


CLINCHED = "\N{CHECK MARK} Clinched"
OUT = "Out"


def chance(value: float, *, clinched: bool, eliminated: bool) -> str:
    """A chance for the race columns: the proof's word, or a percentage kept off 0 and 100."""
    if clinched:
        return CLINCHED
    if eliminated:
        return OUT
    if value < 0.01:
        return "<1\N{NO-BREAK SPACE}%"
    if value > 0.99:
        return ">99\N{NO-BREAK SPACE}%"
    return f"{round(value * 100)}\N{NO-BREAK SPACE}%"


def race_is_shown(race: Mapping[str, Any]) -> bool:
    """Whether the standings show the race: from mid-season on (at least as many games played as
    left), or as soon as a team has clinched or is out."""
    if race.get("status") != "ok" or not race.get("lines"):
        return False
    if race["games_played"] >= race["games_left"]:
        return True
    return any(line["clinched"] or line["eliminated"] for line in race["lines"])


def race_columns(race: Mapping[str, Any]) -> dict[int, dict[str, Any]]:
    """Per entrant: the "Playoffs" and "First" cells, whether a proof backs them, and the
    sentence of what the entrant needs."""
    return {
        line["id"]: {
            "playoffs": chance(
                line["playoff_chance"], clinched=line["clinched"], eliminated=line["eliminated"]
            ),
            "first": chance(
                line["first_chance"],
                clinched=line["clinched_first"],
                eliminated=line["eliminated_first"],
            ),
            "state": "clinched" if line["clinched"] else "out" if line["eliminated"] else "open",
            "need": line["need"],
        }
        for line in race["lines"]
    }


def projection_is_shown(race: Mapping[str, Any]) -> bool:
    """Whether the standings show an individual season's projected ranks: whenever they were
    worked out (a range is honest from the first night on: it is wide then)."""
    return race.get("status") == "ok" and bool(race.get("projections"))


def projection_columns(race: Mapping[str, Any]) -> dict[int, dict[str, Any]]:
    """Per player: the "Projected" cell ("3rd–7th"), the median, and the proven range when
    every game left is known."""
    from league.domain.words import ordinal
    from scoring.standings.domain.projection import rank_range_text

    columns = {}
    for line in race["projections"]:
        best, worst = line["best_possible"], line["worst_possible"]
        columns[line["id"]] = {
            "text": line["projected"],
            "median": ordinal(line["projected_median"]),
            "proven": None if best is None else rank_range_text(best, worst),
        }
    return columns
