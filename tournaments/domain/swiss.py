"""Swiss pairing: one round at a time, as a maximum-weight matching.

Words used here (see also ``brackets.py``):

- **standings**: the teams in ranking order, best first, each with its **score** (matches won, a
  bye counting as a win), the **opponents** it has met and how many **byes** it has had. The
  ranking, tie-breaks included, comes from the standings engine.
- **score group**: the teams on the same score.
- **float**: pairing a team with one from another score group, when its own group cannot be paired
  (an odd number of teams, or rematches in the way).
- **rematch**: a pairing of two teams that have already met. Never allowed: if no pairing of the
  whole round avoids every rematch, the round cannot be paired and a ``DomainError`` says so.
- **bye**: with an odd number of teams, one team sits out and scores a win. It goes to the
  lowest-ranked team that has not had one, unless that leaves the others with no rematch-free
  pairing, in which case the next lowest-ranked team without a bye gets it, and so on; only when
  no team without a bye will do does it go to one that has had fewest byes (lowest-ranked first).

How a round is paired (the modern engines' way, per ``BRACKETS.md``: a greedy "top team takes the
next available opponent" can be forced into a rematch that a better pairing avoids):

1. The bye, as above.
2. A maximum-weight matching (the blossom algorithm, ``networkx.max_weight_matching``, with
   maximum cardinality) over the pairs that are not rematches. The weights rank pairings, in
   this order of importance: the smallest sum of squared score differences over the pairs (pair
   within score groups; float as few teams and as short a way as possible); then, within a score
   group, the top half against the bottom half (1st v (g/2 + 1)th …, the "slide" of FIDE's Dutch
   system); for a float, the lowest-ranked team of the higher group against the highest-ranked of
   the lower group. Each level's weight outweighs every possible total of the levels below it.

Pure Python: no Django import here.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

import networkx as nx

from core.errors import DomainError


@dataclass(frozen=True)
class SwissEntry:
    """A team in the standings: its score (wins, byes included), past opponents and byes."""

    team: Hashable
    score: int
    opponents: frozenset = field(default=frozenset())
    byes: int = 0


@dataclass(frozen=True)
class SwissPairing:
    """Two teams to play; ``first`` is the higher-ranked."""

    first: Hashable
    second: Hashable


@dataclass(frozen=True)
class SwissRound:
    """A paired round: its pairings, best-ranked first, and the team with the bye (if any)."""

    pairings: tuple[SwissPairing, ...]
    bye: Hashable | None = None


def swiss_pairings(standings: Sequence[SwissEntry]) -> SwissRound:
    """Pair the next round for ``standings`` (best first). See the module docstring."""
    teams = [entry.team for entry in standings]
    if len(set(teams)) != len(teams):
        raise DomainError("Each team must appear once in the standings.", field="standings")
    if len(standings) < 2:
        raise DomainError("A Swiss round needs at least 2 teams.", field="standings")
    if any(above.score < below.score for above, below in itertools.pairwise(standings)):
        raise DomainError(
            "The standings must be in ranking order, highest score first.", field="standings"
        )
    if len(standings) % 2 == 0:
        pairings = _pair(list(standings))
        if pairings is None:
            raise _no_pairing(len(standings))
        return SwissRound(pairings=pairings)
    for candidate in bye_candidates(standings):
        rest = [entry for entry in standings if entry is not candidate]
        pairings = _pair(rest)
        if pairings is not None:
            return SwissRound(pairings=pairings, bye=candidate.team)
    raise _no_pairing(len(standings))


def bye_candidates(standings: Sequence[SwissEntry]) -> list[SwissEntry]:
    """The teams in the order they are offered the bye: fewest byes, then lowest-ranked first."""
    ranked = list(enumerate(standings))
    ranked.sort(key=lambda ranked_entry: (ranked_entry[1].byes, -ranked_entry[0]))
    return [entry for _, entry in ranked]


def _pair(standings: list[SwissEntry]) -> tuple[SwissPairing, ...] | None:
    """The best rematch-free pairing of all of ``standings``, or ``None`` if there is none."""
    count = len(standings)
    if count == 0:
        return ()
    scores = [entry.score for entry in standings]
    spread = (max(scores) - min(scores)) ** 2
    secondary_scale = count * count + 1
    base = secondary_scale * (spread + 1) + count + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(count))
    group_index = _group_positions(standings)
    for upper in range(count):
        for lower in range(upper + 1, count):
            if standings[lower].team in standings[upper].opponents:
                continue
            if standings[upper].team in standings[lower].opponents:
                continue
            primary, secondary = _cost(standings, group_index, upper, lower)
            graph.add_edge(upper, lower, weight=base - secondary_scale * primary - secondary)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != count:
        return None
    pairs = sorted(tuple(sorted(pair)) for pair in matching)
    return tuple(
        SwissPairing(first=standings[upper].team, second=standings[lower].team)
        for upper, lower in pairs
    )


def _group_positions(standings: list[SwissEntry]) -> list[tuple[int, int]]:
    """For each team: its place within its score group (from 0) and the group's size."""
    members: dict[int, list[int]] = {}
    for index, entry in enumerate(standings):
        members.setdefault(entry.score, []).append(index)
    return [
        (members[entry.score].index(index), len(members[entry.score]))
        for index, entry in enumerate(standings)
    ]


def _cost(
    standings: list[SwissEntry], groups: list[tuple[int, int]], upper: int, lower: int
) -> tuple[int, int]:
    """The cost of pairing ``standings[upper]`` with ``standings[lower]`` (``upper < lower``).

    First the squared score difference, then the departure from the ideal partner: within a score
    group of ``g`` teams, the team ``g // 2`` places below; for a float, the lowest of the higher
    group against the highest of the lower group (counted in places away from those two).
    """
    high, low = standings[upper], standings[lower]
    (high_place, high_size), (low_place, _) = groups[upper], groups[lower]
    if high.score == low.score:
        return 0, abs(low_place - high_place - high_size // 2)
    return (high.score - low.score) ** 2, (high_size - 1 - high_place) + low_place


def _no_pairing(count: int) -> DomainError:
    return DomainError(
        f"No pairing of these {count} teams avoids a rematch: every way of pairing them "
        "(whoever has the bye) repeats a match already played. Play fewer Swiss rounds, or end "
        "the event with a knockout.",
        field="standings",
        code="no_pairing",
    )
