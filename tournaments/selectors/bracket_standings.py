"""Standings over a bracket's matches (the standings engine, read only):

- *pool table*: a pool's standings, from its decided matches, by ``compute_standings`` with
  ``POOL_TIEBREAKS`` (wins, then point difference, then head-to-head). A pool whose matches are
  all decided is *finished*: its ranking fills the knockout's "2nd in pool A" slots.
- *Swiss record*: a team's wins (a bye counts as one), its opponents and byes, ranked with
  ``SWISS_TIEBREAKS``.

Entrants are seeds. A match's points are those of its counting finished games, added up."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.games.models import Game
from scoring.standings.domain.standings import (
    Bye,
    GameRecord,
    SeasonRules,
    Standings,
    compute_standings,
)
from tournaments.domain.brackets import Structure
from tournaments.models import BracketMatch, BracketMatchGame

POOL_TIEBREAKS = ("wins", "point_diff", "head_to_head")
"""How a pool ranks its teams (the coin flip ends every chain)."""
POOL_RULES = SeasonRules(tiebreaks=POOL_TIEBREAKS)
SWISS_TIEBREAKS = ("wins", "buchholz", "point_diff", "head_to_head")
"""Swiss records: wins (byes included), then opponents' strength, the usual Swiss tie-break."""
SWISS_RULES = SeasonRules(
    tiebreaks=SWISS_TIEBREAKS, bye_value="fixed", bye_points=0, bye_counts_as_win=True
)


def match_points(matches: Sequence[BracketMatch]) -> dict[int, tuple[int, int]]:
    """Points of each match's counting finished games, added up: (first team's, second's)."""
    points: dict[int, tuple[int, int]] = {}
    for row in BracketMatchGame.objects.filter(
        match__in=[match.pk for match in matches],
        status=BracketMatchGame.Status.COUNTING,
        game__status=Game.Status.FINISHED,
    ).values("match_id", "game__score_a", "game__score_b"):
        first, second = points.get(row["match_id"], (0, 0))
        points[row["match_id"]] = (first + row["game__score_a"], second + row["game__score_b"])
    return points


def _match_records(
    pairs: Sequence[tuple[BracketMatch, int, int, int]], points: dict[int, tuple[int, int]]
) -> list[GameRecord]:
    """Standings records of decided matches, each given as (match, first seed, second seed,
    winning seed). A forfeit without a game scores the season's forfeit points."""
    records = []
    for match, first, second, winner in pairs:
        side = "A" if winner == first else "B"
        played = points.get(match.pk)
        forfeit = match.decided_by == BracketMatch.DecidedBy.FORFEIT and played is None
        points_first, points_second = played or (0, 0)
        records.append(
            GameRecord(
                game_id=match.order,
                side_a=(first,),
                side_b=(second,),
                points_a=points_first,
                points_b=points_second,
                winner=None if forfeit else side,
                forfeited_by=("B" if side == "A" else "A") if forfeit else None,
            )
        )
    return records


@dataclass(frozen=True)
class PoolTable:
    """A pool's standings (entrants are seeds) and whether all its matches are decided."""

    name: str
    standings: Standings
    is_finished: bool

    @property
    def ranking(self) -> list[int]:
        return [row.entrant for row in self.standings.rows]


def pool_tables(
    structure: Structure,
    matches: dict[str, BracketMatch],
    results: dict[str, int],
    names: dict[int, str],
    points: dict[int, tuple[int, int]],
) -> list[PoolTable]:
    tables = []
    for pool in structure.pools:
        in_pool = [match for match in structure.real_matches if match.pool == pool.name]
        decided = [
            (matches[match.code], match.first.seed, match.second.seed, results[match.code])
            for match in in_pool
            if match.code in results
        ]
        standings = compute_standings(
            _match_records(decided, points), POOL_RULES, entrants=pool.seeds, names=names
        )
        tables.append(PoolTable(pool.name, standings, len(decided) == len(in_pool)))
    return tables


def finished_pool_rankings(tables: Sequence[PoolTable]) -> dict[str, list[int]]:
    return {table.name: table.ranking for table in tables if table.is_finished}


def swiss_standings(
    matches: Sequence[BracketMatch],
    seed_by_team: dict[int, int],
    names: dict[int, str],
    points: dict[int, tuple[int, int]],
) -> Standings:
    """Every entry's Swiss record (entrants are seeds), ranked by ``SWISS_TIEBREAKS``."""
    decided, byes = [], []
    for match in matches:
        if match.status == BracketMatch.Status.BYE and match.first_team_id:
            byes.append(Bye(entrant=seed_by_team[match.first_team_id]))
        elif match.status == BracketMatch.Status.DECIDED and match.winner_id:
            decided.append(
                (
                    match,
                    seed_by_team[match.first_team_id],
                    seed_by_team[match.second_team_id],
                    seed_by_team[match.winner_id],
                )
            )
    return compute_standings(
        _match_records(decided, points), SWISS_RULES, byes=byes, entrants=names, names=names
    )
