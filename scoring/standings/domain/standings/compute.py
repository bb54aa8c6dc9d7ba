"""The standings' entry point: :func:`compute_standings` folds each entrant's record, ranks the
qualified entrants by the chain, lists the unqualified ones after them, and builds every row with
its reason. The words are defined in :mod:`scoring.standings.domain.standings`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from scoring.standings.domain.standings.games import Bye, GameRecord
from scoring.standings.domain.standings.records import (
    EntrantRecord,
    entrant_entries,
    record_of_entries,
)
from scoring.standings.domain.standings.rows import StandingRow, Standings
from scoring.standings.domain.standings.rules import SeasonRules
from scoring.standings.domain.standings.tiebreaks import Ranker


def compute_standings(
    games: Iterable[GameRecord],
    rules: SeasonRules,
    *,
    byes: Iterable[Bye] = (),
    entrants: Iterable[int] = (),
    names: Mapping[int, str] | None = None,
) -> Standings:
    """Rank every entrant of the season and explain each place.

    ``entrants`` adds entrants with no games or byes yet (the roster), so they are listed too.
    ``names`` maps entrant ids to the names reasons use. The result does not depend on the order
    of ``games``, ``byes`` or ``entrants``.
    """
    entries = entrant_entries(games, byes, rules)
    for entrant in entrants:
        entries.setdefault(entrant, [])
    records = {
        entrant: record_of_entries(entry_list, rules) for entrant, entry_list in entries.items()
    }
    return _rank(Ranker(records, rules, names or {}), rules)


def rank_records(
    records: dict[int, EntrantRecord],
    rules: SeasonRules,
    *,
    names: Mapping[int, str],
    buchholz: Mapping[int, float],
    results_against: Callable[[int], Mapping[int, list[int]]],
) -> Standings:
    """Rank entrants whose records are already folded (by running totals, which keep each
    entrant's Buchholz and results against each opponent rather than its meetings), exactly as
    :func:`compute_standings` ranks the games they were folded from."""
    ranker = Ranker(records, rules, names, buchholz=buchholz, results_against=results_against)
    return _rank(ranker, rules)


def _rank(ranker: Ranker, rules: SeasonRules) -> Standings:
    records = ranker.records

    qualified = sorted(e for e, r in records.items() if _ranks(r, rules))
    unqualified = sorted(e for e, r in records.items() if not _ranks(r, rules))
    placed = ranker.order(qualified) if qualified else []
    rows: list[StandingRow] = []
    for index, (entrant, decision) in enumerate(placed):
        if decision is not None:
            reason, decided_by = ranker.reason(decision), decision.measure
        elif len(placed) > 1:
            below = placed[1][1]
            reason, decided_by = ranker.reason(below, ahead_of=placed[1][0]), below.measure
        else:
            reason, decided_by = "the only ranked entrant", None
        rows.append(_row(ranker, entrant, index + 1, reason, decided_by))
    for entrant, _ in ranker.order(unqualified) if unqualified else []:
        record = records[entrant]
        reason = (
            f"unranked: {record.games_in_season} of the {rules.min_games} games needed to be ranked"
            if record.games_in_season < rules.min_games
            else "unranked: no game finished yet"
        )
        rows.append(_row(ranker, entrant, None, reason, None))
    return Standings(
        rows=tuple(rows),
        tiebreaks=rules.chain,
        coin_flip_seed=rules.coin_flip_seed,
        min_games=rules.min_games,
    )


def _ranks(record, rules: SeasonRules) -> bool:
    """Ranked: at least the season's ``min_games``, and a result to rank by (a game or a bye).
    An entrant listed with neither (checked in, or its first game still being played) is shown
    unranked below the others."""
    played = record.games_in_season or record.games or record.byes
    return bool(played) and record.games_in_season >= rules.min_games


def _plain(value: float) -> int | float:
    """Points as shown: an integral float as an int (12.0 reads as 12), else to two decimals.

    Only bye averages (two decimals each) make points fractional, so two decimals are exact.
    """
    if isinstance(value, float):
        value = round(value, 2)
        return int(value) if value.is_integer() else value
    return value


def _row(
    ranker: Ranker, entrant: int, rank: int | None, reason: str, decided_by: str | None
) -> StandingRow:
    record = ranker.records[entrant]
    tiebreaks: dict[str, Any] = {}
    for measure in ranker.chain:
        if measure == "head_to_head":
            tiebreaks[measure] = ranker.head_to_head_shown.get(entrant)
        elif measure in ("head_to_head_points", "head_to_head_diff"):
            value = ranker.group_values[measure].get(entrant)
            tiebreaks[measure] = None if value is None else _plain(value)
        elif measure in ("points_for", "point_diff"):
            tiebreaks[measure] = _plain(ranker.values[measure][entrant])
        else:
            tiebreaks[measure] = ranker.values[measure][entrant]
    return StandingRow(
        rank=rank,
        entrant=entrant,
        name=ranker.name(entrant),
        qualified=rank is not None,
        games=record.games,
        wins=record.wins,
        losses=record.losses,
        draws=record.draws,
        points_for=_plain(record.points_for),
        points_against=_plain(record.points_against),
        point_diff=_plain(record.points_for - record.points_against),
        win_pct=record.win_pct,
        byes=record.byes,
        forfeit_wins=record.forfeit_wins,
        forfeit_losses=record.forfeit_losses,
        marches=record.marches,
        loners_made=record.loners_made,
        euchres_inflicted=record.euchres_inflicted,
        buchholz=float(ranker.buchholz[entrant]),
        coin_flip_draw=ranker.values["coin_flip"][entrant],
        games_in_season=record.games_in_season,
        nights_counted=record.nights_counted,
        nights_dropped=record.nights_dropped,
        tiebreaks=tiebreaks,
        decided_by=decided_by,
        reason=reason,
    )
