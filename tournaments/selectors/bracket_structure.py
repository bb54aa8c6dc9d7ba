"""The structure of a bracket: the engine's matches and slots, rebuilt from the bracket's options
(pure, so cached). Read only; the services and the summaries both start from it."""

from __future__ import annotations

from functools import lru_cache

from core.errors import DomainError
from tournaments.domain.brackets import Structure
from tournaments.domain.elimination import double_elimination, single_elimination
from tournaments.domain.round_robin import pools_knockout, round_robin
from tournaments.models import Bracket


@lru_cache(maxsize=64)
def structure_from_options(
    kind: str,
    team_count: int,
    third_place: bool,
    grand_final_reset: bool,
    cycles: int,
    pool_count: int = 0,
    advancing_per_pool: int = 0,
) -> Structure | None:
    if kind == Bracket.Kind.SWISS:
        return None  # paired one round at a time
    if kind == Bracket.Kind.POOLS:
        return pools_knockout(
            team_count,
            pool_count=pool_count,
            advancing_per_pool=advancing_per_pool,
            third_place=third_place,
            cycles=cycles,
        )
    if kind == Bracket.Kind.SINGLE:
        return single_elimination(team_count, third_place=third_place)
    if kind == Bracket.Kind.DOUBLE:
        return double_elimination(team_count, grand_final_reset=grand_final_reset)
    if kind == Bracket.Kind.ROUND_ROBIN:
        return round_robin(team_count, cycles=cycles)
    raise DomainError(
        f"{Bracket.Kind(kind).label} brackets cannot be built here yet: choose single or double "
        "elimination or a round robin.",
        field="kind",
    )


def bracket_structure(bracket: Bracket, team_count: int | None = None) -> Structure | None:
    """The engine's structure of ``bracket`` (its entries are counted unless ``team_count``);
    ``None`` for Swiss rounds, which are paired one at a time."""
    if team_count is None:
        team_count = bracket.entries.count()
    return structure_from_options(
        bracket.kind,
        team_count,
        bracket.third_place,
        bracket.grand_final_reset,
        bracket.cycles,
        bracket.pool_count,
        bracket.advancing_per_pool,
    )
