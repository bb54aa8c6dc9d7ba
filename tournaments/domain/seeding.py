"""Seeding: where each team starts in a knockout, and which pool it plays in.

Words used here:

- **seed**: a team's rank going into a competition, 1 being the strongest. Engines speak of seeds
  only; the caller maps seeds to teams (from the standings, or set by hand).
- **field size**: the number of teams entered, ``n``.
- **bracket size**: the smallest power of two that holds the field, ``P``; the ``P − n`` lines left
  over are **byes**. A team drawn against a bye goes through without playing.
- **standard order**: the order of the ``P`` lines of a knockout's first round, built recursively
  from ``[1, 2]`` by replacing each seed ``p`` with the pair ``(p, size + 1 − p)`` at each
  doubling. If every favourite wins, seed 1 meets seed 4 in the semi-finals and seed 2 in the
  final. Byes are the seeds above ``n``, so they fall to the top seeds (``BRACKETS.md``).
- **pool**: a group of teams that play a round robin among themselves, named ``A``, ``B``, …
- **snake (serpentine) seeding**: seeds are dealt into pools left to right, then right to left,
  so every pool gets a similar share of strong and weak teams.

Pure Python: no Django import here.
"""

from __future__ import annotations

from core.errors import DomainError

POOL_NAMES = "ABCDEFGHIJK"
"""Pools are named with single letters, which start their matches' codes (``B2-1``); they stop
before ``L`` and ``W``, the letters of the knockout's own codes."""

MAX_POOLS = len(POOL_NAMES)


def bracket_size(team_count: int) -> int:
    """The smallest power of two that is at least ``team_count`` (and at least 2)."""
    size = 2
    while size < team_count:
        size *= 2
    return size


def standard_order(size: int) -> tuple[int, ...]:
    """The first-round lines of a knockout of ``size`` (a power of two), as seeds.

    Consecutive pairs are the first-round matches: ``standard_order(8)`` is
    ``(1, 8, 4, 5, 2, 7, 3, 6)``, i.e. 1-8, 4-5, 2-7, 3-6.
    """
    if size < 2 or size & (size - 1):
        raise ValueError(f"a knockout's size must be a power of two, not {size}")
    order = [1, 2]
    while len(order) < size:
        doubled = 2 * len(order)
        order = [line for seed in order for line in (seed, doubled + 1 - seed)]
    return tuple(order)


def first_round_pairs(team_count: int) -> tuple[tuple[int, int | None], ...]:
    """The first-round matches of a knockout of ``team_count`` teams, byes shown as ``None``.

    The better seed is listed first. 12 teams: ``(1, None), (8, 9), (4, None), (5, 12), (2, None),
    (7, 10), (3, None), (6, 11)``: seeds 1–4 have byes.
    """
    order = standard_order(bracket_size(team_count))
    return tuple(
        (order[line], order[line + 1] if order[line + 1] <= team_count else None)
        for line in range(0, len(order), 2)
    )


def snake_pools(team_count: int, pool_count: int) -> tuple[tuple[int, ...], ...]:
    """Deal seeds ``1..team_count`` into ``pool_count`` pools, snake fashion.

    10 teams in 3 pools: A = (1, 6, 7), B = (2, 5, 8), C = (3, 4, 9, 10). Pool sizes differ by at
    most one; each pool lists its seeds best first.
    """
    if pool_count < 1:
        raise DomainError("There must be at least one pool.", field="pool_count")
    if pool_count > MAX_POOLS:
        raise DomainError(f"At most {MAX_POOLS} pools are supported.", field="pool_count")
    if team_count < 2 * pool_count:
        raise DomainError(
            f"{team_count} teams cannot fill {pool_count} pools of at least 2 teams each.",
            field="pool_count",
        )
    pools: list[list[int]] = [[] for _ in range(pool_count)]
    for seed in range(1, team_count + 1):
        row, column = divmod(seed - 1, pool_count)
        pools[column if row % 2 == 0 else pool_count - 1 - column].append(seed)
    return tuple(tuple(pool) for pool in pools)
