"""Fresh meetings for short nights: a conflict-directed tabu search over who shares a table.

Within the social-golfer bound (at most (N - 1) // 3 rounds) a night can often give everyone new
table-mates every round. Rounds cut from a whist chart keep partners and opponents in bounds but
repeat some meetings; this search regroups the tables of each round until nobody meets anyone
twice, or its budget of moves runs out. It follows Dotú and Van Hentenryck's local search for
the social golfer problem ("Scheduling social golfers locally", CPAIOR 2005): pick a player who
meets someone twice, try every swap with a player at another table of that round, take the best
swap that is not tabu, and make the swapped players tabu in that round for a few moves; after a
long run without progress, shake a few tables at random.

Only the grouping changes: every round keeps its sit-outs, and a player in ``immovable`` (fixed
to a table together with someone) never moves. Seats inside a table are left to the seat search
and the seating pass. Deterministic for a given ``random.Random``; the budget is counted in moves,
never in seconds.

Before any search, the night takes rounds that are fresh by construction where a design is known
(``rotation_designs``); within their length it needs no search at all.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

from tournaments.domain.rotation_chart import Round

WEIGHT_KEPT_APART = 20
"""A kept-apart pair at one table: worse than many repeated meetings."""

WEIGHT_SEPARATED = 1_000
"""A pair fixed to different tables at one table: never acceptable."""


def fresh_meeting_rounds(
    rounds: Sequence[Round],
    player_count: int,
    *,
    generator: random.Random,
    moves: int,
    base_meetings: Sequence[int] | None = None,
    keep_apart: Collection[tuple[int, int]] = (),
    separated: Collection[tuple[int, int]] = (),
    immovable: Collection[int] = (),
) -> tuple[list[Round], int]:
    """Regroup ``rounds`` (players ``0..player_count-1``) so that as few pairs as possible meet
    twice; returns the rounds and their repeated meetings (0 when everyone's table-mates are new
    every round). ``base_meetings`` (flat ``x * player_count + y``) are meetings of rounds
    already played."""
    search = _FreshSearch(rounds, player_count, base_meetings, keep_apart, separated, immovable)
    search.run(generator, moves)
    return search.best_rounds(), search.best_repeats


class _FreshSearch:
    def __init__(
        self,
        rounds: Sequence[Round],
        size: int,
        base_meetings: Sequence[int] | None,
        keep_apart: Collection[tuple[int, int]],
        separated: Collection[tuple[int, int]],
        immovable: Collection[int],
    ) -> None:
        self.size = size
        self.byes = [round_.byes for round_ in rounds]
        self.groups = [[list(table) for table in round_.tables] for round_ in rounds]
        self.table_of = []
        for groups in self.groups:
            where = [-1] * size
            for number, group in enumerate(groups):
                for player in group:
                    where[player] = number
            self.table_of.append(where)
        self.weight = [0] * (size * size)
        for pairs, weight in ((keep_apart, WEIGHT_KEPT_APART), (separated, WEIGHT_SEPARATED)):
            for x, y in pairs:
                self.weight[x * size + y] = self.weight[y * size + x] = weight
        self.fixed = set(immovable)
        self.base = list(base_meetings) if base_meetings else [0] * (size * size)
        self.meetings = list(self.base)
        self.conflicts: list[int] = []
        self.slot: dict[int, int] = {}
        for x in range(size):
            for y in range(x + 1, size):
                if self.meetings[x * size + y] > (0 if self.weight[x * size + y] else 1):
                    self._mark(x * size + y, True)
        for groups in self.groups:
            for group in groups:
                self._count(group, 1)
        self.cost = sum(self._pair_cost(x, y) for x in range(size) for y in range(x + 1, size))
        self.tenure = 4
        self.patience = 500
        self.best_cost = self.cost
        self.best_groups = [[list(g) for g in groups] for groups in self.groups]

    @property
    def best_repeats(self) -> int:
        """Meetings beyond the first, over the played rounds and the best grouping found."""
        size = self.size
        meetings = list(self.base)
        for groups in self.best_groups:
            for group in groups:
                for i, x in enumerate(group):
                    for y in group[i + 1 :]:
                        meetings[min(x, y) * size + max(x, y)] += 1
        return sum(
            meetings[x * size + y] - 1
            for x in range(size)
            for y in range(x + 1, size)
            if meetings[x * size + y] > 1
        )

    def _count(self, group: Sequence[int], change: int) -> None:
        size, meetings, weight = self.size, self.meetings, self.weight
        for i, x in enumerate(group):
            for y in group[i + 1 :]:
                low, high = (x, y) if x < y else (y, x)
                index = low * size + high
                before = meetings[index]
                after = before + change
                meetings[index] = after
                meetings[high * size + low] = after
                limit = 0 if weight[index] else 1
                if (before > limit) != (after > limit):
                    self._mark(index, after > limit)

    def _mark(self, pair: int, conflicted: bool) -> None:
        """Keep ``conflicts`` (a list, for drawing at random) and ``slot`` (its index) current."""
        if conflicted:
            self.slot[pair] = len(self.conflicts)
            self.conflicts.append(pair)
        else:
            position = self.slot.pop(pair)
            last = self.conflicts.pop()
            if last != pair:
                self.conflicts[position] = last
                self.slot[last] = position

    def _pair_cost(self, x: int, y: int) -> int:
        index = x * self.size + y
        count = self.meetings[index]
        return (count - 1 if count > 1 else 0) + self.weight[index] * count

    def _swap_delta(self, first: list[int], p: int, second: list[int], q: int) -> int:
        """The change of cost when ``p`` (in ``first``) and ``q`` (in ``second``) swap tables."""
        size, meetings, weight = self.size, self.meetings, self.weight
        delta = 0
        for leaving, joining, stay, arrive in ((p, q, first, second), (q, p, second, first)):
            row = leaving * size
            for y in stay:
                if y != leaving:
                    index = row + y
                    delta -= (1 if meetings[index] > 1 else 0) + weight[index]
            for y in arrive:
                if y != joining:
                    index = row + y
                    delta += (1 if meetings[index] > 0 else 0) + weight[index]
        return delta

    def _swap(self, round_index: int, p: int, q: int) -> None:
        where = self.table_of[round_index]
        groups = self.groups[round_index]
        first, second = groups[where[p]], groups[where[q]]
        self._count(first, -1)
        self._count(second, -1)
        first[first.index(p)] = q
        second[second.index(q)] = p
        where[p], where[q] = where[q], where[p]
        self._count(first, 1)
        self._count(second, 1)

    def run(self, generator: random.Random, moves: int) -> None:
        if not self.groups or self.cost == 0:
            return
        size = self.size
        tabu: dict[tuple[int, int], int] = {}
        since_best = 0
        conflicts = self.conflicts
        for move in range(moves):
            if self.cost == 0 or not conflicts:
                break
            pair = conflicts[generator.randrange(len(conflicts))]
            x, y = divmod(pair, size)
            shared = [r for r, where in enumerate(self.table_of) if where[x] == where[y] >= 0]
            if not shared:
                continue  # (a pair conflicted by meetings of rounds already played)
            round_index = shared[generator.randrange(len(shared))]
            where = self.table_of[round_index]
            groups = self.groups[round_index]
            best_delta, choices = None, []
            for p in (x, y):
                if p in self.fixed:
                    continue
                first = groups[where[p]]
                for number, second in enumerate(groups):
                    if number == where[p]:
                        continue
                    for q in second:
                        if q in self.fixed:
                            continue
                        delta = self._swap_delta(first, p, second, q)
                        if (
                            tabu.get((round_index, q), -1) >= move
                            or tabu.get((round_index, p), -1) >= move
                        ) and self.cost + delta >= self.best_cost:
                            continue
                        if best_delta is None or delta < best_delta:
                            best_delta, choices = delta, [(p, q)]
                        elif delta == best_delta:
                            choices.append((p, q))
            if best_delta is None:
                continue
            p, q = choices[generator.randrange(len(choices))]
            self._swap(round_index, p, q)
            self.cost += best_delta
            tenure = self.tenure + generator.randrange(self.tenure)
            tabu[(round_index, p)] = tabu[(round_index, q)] = move + tenure
            if self.cost < self.best_cost:
                self.best_cost = self.cost
                self.best_groups = [[list(g) for g in groups] for groups in self.groups]
                since_best = 0
            else:
                since_best += 1
                if since_best > self.patience:
                    self._shake(generator)
                    since_best = 0

    def _shake(self, generator: random.Random) -> None:
        """A few random swaps, to leave a plateau."""
        for _ in range(max(2, len(self.groups) // 2)):
            round_index = generator.randrange(len(self.groups))
            groups = self.groups[round_index]
            if len(groups) < 2:
                continue
            a, b = generator.sample(range(len(groups)), 2)
            p = groups[a][generator.randrange(len(groups[a]))]
            q = groups[b][generator.randrange(len(groups[b]))]
            if p in self.fixed or q in self.fixed:
                continue
            self.cost += self._swap_delta(groups[a], p, groups[b], q)
            self._swap(round_index, p, q)

    def best_rounds(self) -> list[Round]:
        return [
            Round(tables=tuple(tuple(group) for group in groups), byes=byes)
            for groups, byes in zip(self.best_groups, self.byes, strict=True)
        ]
