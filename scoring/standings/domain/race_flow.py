"""The search parts of the playoff race's proofs (:mod:`scoring.standings.domain.race`): the sets of
rivals worth trying, quick greedy witnesses that settle most questions without a flow, and the
max-flow itself (Dinic's algorithm on small integer networks). Pure Python, no Django."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


def covering_sets(items: Sequence[int], sizes: Sequence[int], count: int, shortfall: int):
    """Every set of ``count`` items whose sizes add up to at least ``shortfall``, the items given
    largest size first; branches that cannot reach the shortfall are cut."""
    prefix = [0]
    for size in sizes:
        prefix.append(prefix[-1] + size)

    def extend(start: int, left: int, total: int, chosen: tuple[int, ...]):
        if left == 0:
            if total >= shortfall:
                yield chosen
            return
        for position in range(start, len(items) - left + 1):
            if total + prefix[position + left] - prefix[position] < shortfall:
                return
            yield from extend(
                position + 1, left - 1, total + sizes[position], (*chosen, items[position])
            )

    yield from extend(0, count, 0, ())


def greedy_fits(
    games: Sequence[tuple[int, int]], capacities: Mapping[int, int | None], unit: int
) -> bool:
    """A quick witness: True if handing each unit to the side with more room fits every cap.
    False proves nothing (the max-flow decides then)."""
    room = {
        entrant: math.inf if capacities.get(entrant) is None else capacities[entrant]
        for game in games
        for entrant in game
    }
    for first, second in sorted(games, key=lambda game: min(room[game[0]], room[game[1]])):
        for _ in range(unit):
            taker = first if room[first] >= room[second] else second
            if room[taker] <= 0:
                return False
            room[taker] -= 1
    return True


def greedy_meets(
    games: Sequence[tuple[int, int]],
    lost_to: Sequence[int],
    loss_units: int,
    demand: Mapping[int, int],
    unit: int,
) -> bool:
    """A quick witness: True if handing each unit to the demanding side that still needs more
    meets every demand. False proves nothing (the max-flow decides then)."""
    need = dict(demand)
    for first, second in games:
        for _ in range(unit):
            taker = max(
                (entrant for entrant in (first, second) if entrant in need),
                key=lambda entrant: need[entrant],
                default=None,
            )
            if taker is None:
                break
            need[taker] -= 1
    for rival in sorted(lost_to, key=lambda rival: -need[rival]):
        give = min(unit, loss_units, max(need[rival], 0))
        need[rival] -= give
        loss_units -= give
    return all(value <= 0 for value in need.values())


SOURCE, SINK = 0, 1
"""The source and sink of every flow network below (its other nodes are numbered from 2)."""


def max_flow(nodes: int, edges: Sequence[tuple[int, int, int]]) -> tuple[int, list[bool]]:
    """The maximum flow from node 0 to node 1 of a network of ``nodes`` nodes and ``edges``
    ``(from, to, capacity)``, by Dinic's algorithm; and which nodes the source still reaches
    in the residual network (the source side of a minimum cut).

    The race's networks are small (a node per pair of rivals that still meet, one per rival)
    and are built and solved many times, so plain lists beat a general graph library here."""
    head: list[list[int]] = [[] for _ in range(nodes)]
    target: list[int] = []
    room: list[int] = []
    for start, end, capacity in edges:
        head[start].append(len(target))
        target.append(end)
        room.append(capacity)
        head[end].append(len(target))
        target.append(start)
        room.append(0)
    depth = [-1] * nodes
    cursor = [0] * nodes

    def push(node: int, limit: int) -> int:
        """Send up to ``limit`` along one path of the level graph; what was sent."""
        if node == SINK:
            return limit
        out = head[node]
        while cursor[node] < len(out):
            edge = out[cursor[node]]
            following = target[edge]
            if room[edge] and depth[following] == depth[node] + 1:
                sent = push(following, min(limit, room[edge]))
                if sent:
                    room[edge] -= sent
                    room[edge ^ 1] += sent
                    return sent
            cursor[node] += 1
        return 0

    total = 0
    while True:
        depth[:] = [-1] * nodes
        depth[SOURCE] = 0
        queue = [SOURCE]
        for node in queue:
            for edge in head[node]:
                if room[edge] and depth[target[edge]] < 0:
                    depth[target[edge]] = depth[node] + 1
                    queue.append(target[edge])
        if depth[SINK] < 0:
            return total, [level >= 0 for level in depth]
        cursor[:] = [0] * nodes
        limit = sum(room[edge] for edge in head[SOURCE])
        while sent := push(SOURCE, limit):
            total += sent
