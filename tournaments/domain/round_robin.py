"""Round robins by Berger tables, and pools that lead to a knockout.

Words used here (see also ``brackets.py`` and ``seeding.py``):

- **round robin**: every team meets every other team; a **cycle** is one such pass, and a double
  round robin plays two, the second with each pairing's order reversed.
- **Berger table**: FIDE's round-robin schedule. For an even number ``n`` of teams it has
  ``n − 1`` rounds; an odd field gets a dummy team and ``n`` rounds, and the team drawn against the
  dummy has a **bye** that round. Each team plays once per round, meets every other team once per
  cycle, and is **listed first** (home, or the side that deals first) in as many rounds as it is
  listed second, give or take one.
- **pairing**: two teams of a round, the one listed first and the one listed second.
- **pools then knockout**: seeds are dealt into pools snake fashion, each pool plays a round
  robin, then the top teams of each pool go into a knockout whose first round has placeholders
  ("1st in pool A", "2nd in pool B"). The knockout seeds every pool's winner first, then every
  pool's runner-up, and so on, arranged so that teams from the same pool meet as late as possible.
  The placeholders are filled when a pool has finished and the caller passes its ranking (from
  the standings engine, where tie-breaks live) to ``brackets.play``.

Pure Python: no Django import here.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from core.errors import DomainError
from tournaments.domain.brackets import (
    BYE_SLOT,
    BracketPart,
    Match,
    Pool,
    Slot,
    Structure,
    StructureKind,
    bye_flags,
    pool_place,
    seed_slot,
)
from tournaments.domain.elimination import knockout_matches
from tournaments.domain.seeding import POOL_NAMES, bracket_size, snake_pools, standard_order

MAX_ROUND_ROBIN_TEAMS = 128
"""A guard rail: 128 teams already make 8,128 matches a cycle."""


@dataclass(frozen=True)
class Pairing:
    """Two teams (seeds) of a round: ``first`` is the one listed first (home)."""

    first: int
    second: int


@dataclass(frozen=True)
class RoundRobinRound:
    """One round of a round robin: its number (from 1), its pairings and the team with a bye."""

    number: int
    pairings: tuple[Pairing, ...]
    bye: int | None = None


def berger_rounds(team_count: int, *, cycles: int = 1) -> tuple[RoundRobinRound, ...]:
    """The rounds of a round robin of seeds ``1..team_count`` by FIDE's Berger tables.

    With ``m`` the even number of lines (``team_count``, plus a dummy if odd), seed ``m`` meets
    in round ``r`` the seed ``p = (r − 1)·m/2 mod (m − 1) + 1``, listed second in odd rounds and
    first in even ones; the other seeds pair as ``(p + j, p − j)`` (counted round ``1..m − 1``),
    ``p + j`` first. 4 teams: ``1-4, 2-3``; ``4-3, 1-2``; ``2-4, 3-1``. A second cycle repeats the
    first with every pairing reversed.
    """
    _check_round_robin(team_count, cycles)
    lines = team_count + team_count % 2
    first_cycle = []
    for round_number in range(1, lines):
        anchor = (round_number - 1) * (lines // 2) % (lines - 1) + 1
        pairs = [(anchor, lines) if round_number % 2 else (lines, anchor)]
        for step in range(1, lines // 2):
            pairs.append(
                ((anchor - 1 + step) % (lines - 1) + 1, (anchor - 1 - step) % (lines - 1) + 1)
            )
        bye = None
        if lines > team_count:
            bye = anchor
            pairs = pairs[1:]
        first_cycle.append(
            RoundRobinRound(
                number=round_number,
                pairings=tuple(Pairing(first, second) for first, second in pairs),
                bye=bye,
            )
        )
    rounds = list(first_cycle)
    for cycle in range(1, cycles):
        for played in first_cycle:
            pairings = played.pairings
            if cycle % 2:
                pairings = tuple(Pairing(pair.second, pair.first) for pair in pairings)
            rounds.append(
                RoundRobinRound(
                    number=played.number + cycle * len(first_cycle),
                    pairings=pairings,
                    bye=played.bye,
                )
            )
    return tuple(rounds)


def round_robin(team_count: int, *, cycles: int = 1) -> Structure:
    """A round robin of seeds ``1..team_count`` as a structure: ``R{round}-{index}`` matches.

    An odd field's bye is a bye match (the round's last), so a printed sheet shows who sits out.
    """
    return Structure(
        kind=StructureKind.ROUND_ROBIN,
        team_count=team_count,
        matches=bye_flags(
            _round_robin_matches(berger_rounds(team_count, cycles=cycles), prefix="R")
        ),
        cycles=cycles,
    )


def pools_knockout(
    team_count: int,
    *,
    pool_count: int,
    advancing_per_pool: int,
    double: bool = False,
    third_place: bool = False,
    grand_final_reset: bool = False,
    cycles: int = 1,
) -> Structure:
    """Pools by snake seeding, a round robin in each, then a knockout of the top teams.

    Pool matches are coded ``{pool}{round}-{index}`` (``B2-1``), knockout matches as in
    ``elimination.py``. The knockout is single elimination unless ``double``; its placings cover
    the knockout's teams only (the others are ranked by their pools' standings).
    """
    pools = tuple(
        Pool(name=POOL_NAMES[index], seeds=seeds)
        for index, seeds in enumerate(snake_pools(team_count, pool_count))
    )
    smallest = min(len(pool.seeds) for pool in pools)
    if not 1 <= advancing_per_pool <= smallest:
        raise DomainError(
            f"Between 1 and {smallest} teams per pool can go through to the knockout.",
            field="advancing_per_pool",
        )
    if pool_count * advancing_per_pool < 2:
        raise DomainError(
            "At least 2 teams must go through to the knockout.", field="advancing_per_pool"
        )
    matches: list[Match] = []
    for pool in pools:
        local = berger_rounds(len(pool.seeds), cycles=cycles)
        for match in _round_robin_matches(local, prefix=pool.name):
            matches.append(
                Match(
                    code=match.code,
                    bracket=BracketPart.POOL,
                    round=match.round,
                    first=_pool_seed(match.first, pool),
                    second=_pool_seed(match.second, pool),
                    pool=pool.name,
                )
            )
    entries = knockout_entries([pool.name for pool in pools], advancing_per_pool)
    knockout = knockout_matches(
        entries, double=double, third_place=third_place, grand_final_reset=grand_final_reset
    )
    return Structure(
        kind=StructureKind.POOLS,
        team_count=team_count,
        matches=bye_flags(matches) + knockout,
        third_place=third_place and not double and len(entries) >= 4,
        grand_final_reset=grand_final_reset and double,
        cycles=cycles,
        pools=pools,
    )


def knockout_entries(pool_names: list[str], advancing_per_pool: int) -> list[Slot]:
    """The knockout's entries in knockout-seed order: every pool's 1st, then every 2nd, …

    Winners are seeded in pool order (pool A holds seed 1). Each later tier is arranged so that
    teams from the same pool meet as late as possible in the knockout: among the orders of the
    pools tried (every order for up to 6 pools, else rotations of the pools and their reverses),
    the one whose same-pool meetings, listed earliest first, come latest; on a tie, the earlier
    candidate, starting with the reverse pool order. 2 pools of 2: 1st A v 2nd B, 1st B v 2nd A.
    """
    entry_count = len(pool_names) * advancing_per_pool
    size = bracket_size(entry_count)
    line_of_seed = {seed: line for line, seed in enumerate(standard_order(size))}
    if len(pool_names) <= 6:
        candidates = [list(order) for order in itertools.permutations(reversed(pool_names))]
    else:
        rotations = [pool_names[shift:] + pool_names[:shift] for shift in range(len(pool_names))]
        candidates = [list(reversed(order)) for order in rotations] + rotations
    entries: list[tuple[str, int]] = [(name, 1) for name in pool_names]

    def meetings(arranged: list[tuple[str, int]]) -> list[int]:
        """The knockout round in which each pair of same-pool entries would meet, earliest first."""
        rounds = []
        for seed_a, seed_b in itertools.combinations(range(1, len(arranged) + 1), 2):
            if arranged[seed_a - 1][0] == arranged[seed_b - 1][0]:
                rounds.append((line_of_seed[seed_a] ^ line_of_seed[seed_b]).bit_length())
        return sorted(rounds)

    for place in range(2, advancing_per_pool + 1):
        ranked = [
            (meetings(entries + [(name, place) for name in order]), -position, order)
            for position, order in enumerate(candidates)
        ]
        best = max(ranked, key=lambda candidate: candidate[:2])[2]
        entries += [(name, place) for name in best]
    return [pool_place(name, place) for name, place in entries]


def _pool_seed(slot: Slot, pool: Pool) -> Slot:
    """Turn a pool-local seed (1 = the pool's best) into the competition's seed."""
    if slot.seed is None:
        return slot
    return seed_slot(pool.seeds[slot.seed - 1])


def _round_robin_matches(rounds: tuple[RoundRobinRound, ...], *, prefix: str) -> list[Match]:
    bracket = BracketPart.ROUND_ROBIN if prefix == "R" else BracketPart.POOL
    matches = []
    for played in rounds:
        sides = [(seed_slot(pair.first), seed_slot(pair.second)) for pair in played.pairings]
        if played.bye is not None:
            sides.append((seed_slot(played.bye), BYE_SLOT))
        for index, (first, second) in enumerate(sides, start=1):
            matches.append(
                Match(
                    code=f"{prefix}{played.number}-{index}",
                    bracket=bracket,
                    round=played.number,
                    first=first,
                    second=second,
                )
            )
    return matches


def _check_round_robin(team_count: int, cycles: int) -> None:
    if team_count < 2:
        raise DomainError("A round robin needs at least 2 teams.", field="teams")
    if team_count > MAX_ROUND_ROBIN_TEAMS:
        raise DomainError(
            f"A round robin can have at most {MAX_ROUND_ROBIN_TEAMS} teams.", field="teams"
        )
    if cycles not in (1, 2):
        raise DomainError("A round robin is played once or twice (1 or 2 cycles).", field="cycles")
