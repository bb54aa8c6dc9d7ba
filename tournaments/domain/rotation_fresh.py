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

Before any search, ``design_rounds`` looks for rounds that are fresh by construction: a
transversal design for 4g players (g a prime power, with AG(2, 4) rows for 64), a stored
1-rotational design (24, 28, 36, 40, 48, 52, 60), and the same designs one player short or up to
three players over. Within their length the night needs no search at all.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from functools import cache

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


_IRREDUCIBLE = {
    4: (2, (1, 1, 1)),
    8: (2, (1, 1, 0, 1)),
    9: (3, (1, 0, 1)),
    16: (2, (1, 1, 0, 0, 1)),
}
"""Fields GF(q) for the prime powers q that are not primes, up to 16 tables: the characteristic
and the coefficients (lowest first) of an irreducible polynomial of degree k."""


def _field(order: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """Addition and multiplication tables of GF(order), elements numbered 0..order-1 (as
    base-p digits of polynomial coefficients, lowest first), or ``None`` if order is not a prime
    power handled here."""
    if order in _IRREDUCIBLE:
        prime, modulus = _IRREDUCIBLE[order]
    elif order >= 2 and all(order % d for d in range(2, int(order**0.5) + 1)):
        prime, modulus = order, (0, 1)
    else:
        return None
    degree = len(modulus) - 1

    def digits(x: int) -> list[int]:
        return [(x // prime**k) % prime for k in range(degree)]

    def number(coefficients: Sequence[int]) -> int:
        return sum((c % prime) * prime**k for k, c in enumerate(coefficients))

    def times(x: int, y: int) -> int:
        product = [0] * (2 * degree - 1)
        for i, a in enumerate(digits(x)):
            for j, b in enumerate(digits(y)):
                product[i + j] += a * b
        for k in range(len(product) - 1, degree - 1, -1):
            carry = product[k] % prime
            product[k] = 0
            for j in range(degree):
                product[k - degree + j] -= carry * modulus[j]
        return number(product[:degree])

    plus = [
        [number([a + b for a, b in zip(digits(x), digits(y), strict=True)]) for y in range(order)]
        for x in range(order)
    ]
    return plus, [[times(x, y) for y in range(order)] for x in range(order)]


def transversal_rounds(player_count: int) -> tuple[Round, ...]:
    """Rounds in which nobody meets anyone twice, by construction, for N = 4g players when g is a
    prime power of at least 4 (16, 20, 28, 32, 36, 44, 52 and 64 players); empty otherwise.

    The players are ``(i, x)`` for a row ``i`` in 0..3 and ``x`` in the field GF(g). Round ``m``
    (for each ``m`` in GF(g)) seats ``(0, c), (1, c + m), (2, c + 2m), (3, c + 3m)`` at table
    ``c``, with 2 and 3 the field's elements numbered so: two players of different rows meet
    exactly when ``x - y = m (i - j)``, in one round only, and players of one row never meet. That
    is g rounds of a resolvable transversal design.

    When g is a multiple of 4, more rounds seat each row at tables of its own. If GF(g) contains
    GF(4) (g = 4 or 16) a row is an affine space over GF(4) and its lines in one direction are a
    round: ``(g - 1) / 3`` rounds in which no two players of a row meet twice, so 5 rounds for 16
    players and 21 for 64, the social-golfer bound (4g - 1) // 3 (for 64 this is the affine space
    AG(3, 4)). Otherwise (g = 8) one round of consecutive elements.
    """
    if player_count % 4:
        return ()
    order = player_count // 4
    field = _field(order) if order >= 4 else None
    if field is None:
        return ()
    plus, times = field
    row_elements = (0, 1, 2, 3)
    rounds = []
    for slope in range(order):
        tables = []
        for offset in range(order):
            tables.append(
                tuple(
                    row * order + plus[offset][times[slope][row_elements[row]]] for row in range(4)
                )
            )
        rounds.append(Round(tables=tuple(tables)))
    for lines in _row_parallel_classes(order, plus, times):
        rounds.append(
            Round(
                tables=tuple(
                    tuple(row * order + x for x in line) for row in range(4) for line in lines
                )
            )
        )
    return tuple(rounds)


def _row_parallel_classes(
    order: int, plus: list[list[int]], times: list[list[int]]
) -> list[list[tuple[int, ...]]]:
    """Ways to seat the ``order`` elements of one row at tables of four with no two elements at
    one table twice: the parallel classes of lines over the subfield GF(4) when there is one, one
    class of consecutive elements when only 4 divides ``order``, none otherwise."""
    if order % 4:
        return []
    cube = [times[x][times[x][x]] for x in range(order)]
    subfield = [x for x in range(order) if x == 0 or cube[x] == 1]
    if len(subfield) != 4:
        return [[tuple(range(start, start + 4)) for start in range(0, order, 4)]]
    classes = []
    covered: set[int] = set()
    for direction in range(1, order):
        if direction in covered:
            continue
        span = [times[t][direction] for t in subfield]
        covered.update(span[1:])
        lines, seated = [], set()
        for x in range(order):
            if x not in seated:
                line = tuple(sorted(plus[x][y] for y in span))
                seated.update(line)
                lines.append(line)
        classes.append(lines)
    return classes


RESOLVABLE_BASE_CLASSES: dict[int, tuple[tuple[tuple[int, int], ...], ...]] = {
    24: (
        ((3, 0), (1, 1), (1, 2)),
        ((1, 0), (2, 1), (0, 2)),
        ((6, 0), (5, 1), (2, 2)),
        ((0, 0), (0, 1), (4, 0), (5, 0)),
        ((2, 0), (3, 2), (4, 2), (6, 2)),
        ((3, 1), (4, 1), (5, 2), (6, 1)),
    ),
    28: (
        ((0, 0), (3, 1), (7, 2)),
        ((0, 1), (2, 1), (4, 0), (6, 1)),
        ((0, 2), (4, 1), (5, 0), (5, 2)),
        ((1, 0), (2, 2), (5, 1), (8, 0)),
        ((1, 1), (1, 2), (3, 2), (4, 2)),
        ((2, 0), (3, 0), (6, 0), (8, 2)),
        ((6, 2), (7, 0), (7, 1), (8, 1)),
    ),
    36: (
        ((2, 0), (9, 1), (1, 2)),
        ((2, 1), (9, 2), (1, 0)),
        ((2, 2), (9, 0), (1, 1)),
        ((0, 0), (5, 1), (7, 0), (10, 0)),
        ((0, 1), (5, 2), (7, 1), (10, 1)),
        ((0, 2), (5, 0), (7, 2), (10, 2)),
        ((3, 0), (4, 2), (6, 2), (8, 0)),
        ((3, 1), (4, 0), (6, 0), (8, 1)),
        ((3, 2), (4, 1), (6, 1), (8, 2)),
    ),
    40: (
        ((0, 0), (0, 1), (0, 2)),
        ((1, 0), (2, 0), (6, 0), (12, 2)),
        ((1, 1), (3, 0), (4, 2), (8, 1)),
        ((2, 1), (8, 2), (10, 2), (11, 1)),
        ((3, 1), (5, 1), (6, 1), (10, 0)),
        ((3, 2), (9, 1), (11, 2), (12, 0)),
        ((4, 0), (6, 2), (7, 2), (11, 0)),
        ((2, 2), (4, 1), (5, 2), (9, 2)),
        ((1, 2), (7, 0), (9, 0), (10, 1)),
        ((5, 0), (7, 1), (8, 0), (12, 1)),
    ),
    48: (
        ((10, 0), (6, 1), (12, 2)),
        ((10, 1), (6, 2), (12, 0)),
        ((10, 2), (6, 0), (12, 1)),
        ((0, 0), (3, 0), (4, 1), (14, 0)),
        ((0, 1), (3, 1), (4, 2), (14, 1)),
        ((0, 2), (3, 2), (4, 0), (14, 2)),
        ((1, 0), (2, 2), (7, 2), (9, 2)),
        ((1, 1), (2, 0), (7, 0), (9, 0)),
        ((1, 2), (2, 1), (7, 1), (9, 1)),
        ((5, 0), (8, 2), (11, 0), (13, 1)),
        ((5, 1), (8, 0), (11, 1), (13, 2)),
        ((5, 2), (8, 1), (11, 2), (13, 0)),
    ),
    52: (
        ((0, 0), (0, 1), (0, 2)),
        ((1, 0), (4, 1), (13, 1), (16, 0)),
        ((1, 1), (4, 2), (13, 2), (16, 1)),
        ((1, 2), (4, 0), (13, 0), (16, 2)),
        ((2, 0), (8, 2), (9, 2), (15, 0)),
        ((2, 1), (8, 0), (9, 0), (15, 1)),
        ((2, 2), (8, 1), (9, 1), (15, 2)),
        ((3, 0), (5, 2), (12, 2), (14, 0)),
        ((3, 1), (5, 0), (12, 0), (14, 1)),
        ((3, 2), (5, 1), (12, 1), (14, 2)),
        ((6, 0), (7, 2), (10, 2), (11, 0)),
        ((6, 1), (7, 0), (10, 0), (11, 1)),
        ((6, 2), (7, 1), (10, 1), (11, 2)),
    ),
    60: (
        ((18, 0), (13, 1), (0, 2)),
        ((18, 1), (13, 2), (0, 0)),
        ((18, 2), (13, 0), (0, 1)),
        ((1, 0), (5, 1), (7, 2), (16, 1)),
        ((1, 1), (5, 2), (7, 0), (16, 2)),
        ((1, 2), (5, 0), (7, 1), (16, 0)),
        ((2, 0), (4, 2), (9, 0), (12, 0)),
        ((2, 1), (4, 0), (9, 1), (12, 1)),
        ((2, 2), (4, 1), (9, 2), (12, 2)),
        ((3, 0), (6, 2), (10, 2), (11, 2)),
        ((3, 1), (6, 0), (10, 0), (11, 0)),
        ((3, 2), (6, 1), (10, 1), (11, 1)),
        ((8, 0), (14, 0), (15, 1), (17, 1)),
        ((8, 1), (14, 1), (15, 2), (17, 2)),
        ((8, 2), (14, 2), (15, 0), (17, 0)),
    ),
}
"""Base rounds of 1-rotational designs for short nights, found offline by
``find_resolvable_base_class``. Players are ``(x, i)`` for ``x`` in Z_m and a level ``i`` in 0..2,
and k fixed players, the *infinities*; a table of three is an infinity's (the j-th such table is
infinity j's), listing its table-mates. N = 3m + k.

- 28, 40, 52 (k = 1): resolvable designs, every two players meet exactly once in m rounds. For
  40 one invariant under ``(x, i) -> (3x, i + 1)``, for 52 one invariant under
  ``(x, i) -> (-x, i + 1)``, which leaves three or four tables to choose.
- 24, 36, 48, 60 (k = 3, m = 7, 11, 15, 19): every two players meet at most once in m rounds
  (the infinities never meet one another), the social-golfer bound. From 36 up, invariant under
  ``(x, i) -> (x, i + 1)`` with the infinities' tables taken round too (the three infinity tables
  given, seed 0).
"""


def find_resolvable_base_class(
    player_count: int,
    *,
    multiplier: int = 1,
    level_shift: int = 0,
    symmetry: int = 1,
    infinity_mates: Sequence[tuple[tuple[int, int], ...]] = (((0, 0), (0, 1), (0, 2)),),
    seed: int = 0,
    max_nodes: int = 200_000,
) -> tuple[tuple[tuple[int, int], ...], ...] | None:
    """The offline search behind ``RESOLVABLE_BASE_CLASSES``: a base round on ``(x, i)``, ``x`` in
    Z_m, ``i`` in 0..2, plus k infinities (N = 3m + k), whose m shifts repeat no meeting.

    The infinities' table-mates are given (one per level each; for 24 players they came from an
    earlier run of a variant that chose them too). The other tables are chosen depth
    first, each time for the first player not yet seated, among the players whose differences
    to the table so far are all unused; with ``symmetry`` > 1 each table brings its images under
    ``(x, i) -> (multiplier * x, i + level_shift)`` too, which shrinks the search (40 players:
    ``multiplier=3, level_shift=1, symmetry=3``; 52: ``multiplier=-1, level_shift=1,
    symmetry=6``). ``None`` when ``max_nodes`` tables were tried without a result.
    """
    size = (player_count - len(infinity_mates)) // 3
    generator = random.Random(seed)

    def image(point: tuple[int, int], times: int) -> tuple[int, int]:
        x, level = point
        for _ in range(times):
            x, level = (multiplier * x) % size, (level + level_shift) % 3
        return x, level

    def differences(p: tuple[int, int], q: tuple[int, int]) -> list[tuple[int, int, int]]:
        return [(p[1], q[1], (q[0] - p[0]) % size), (q[1], p[1], (p[0] - q[0]) % size)]

    seated = {p for mates in infinity_mates for p in mates}
    used = {
        d
        for mates in infinity_mates
        for p in mates
        for q in mates
        if p < q
        for d in differences(p, q)
    }
    tables: list[tuple[tuple[int, int], ...]] = [tuple(mates) for mates in infinity_mates]
    everyone = [(x, level) for x in range(size) for level in range(3)]
    nodes = 0

    def fresh(p: tuple[int, int], q: tuple[int, int], taken: set) -> bool:
        return all(
            d not in taken and (d[0] != d[1] or (2 * d[2]) % size) for d in differences(p, q)
        )

    def orbit(table: list[tuple[int, int]]) -> list[tuple[tuple[int, int], ...]] | None:
        images: list[tuple[tuple[int, int], ...]] = []
        for times in range(symmetry):
            moved = tuple(sorted(image(p, times) for p in table))
            if moved not in images:
                images.append(moved)
        points = [p for moved in images for p in moved]
        if len(set(points)) != len(points) or seated.intersection(points):
            return None
        return images

    def place() -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes:
            return False
        first = next((p for p in everyone if p not in seated), None)
        if first is None:
            return True
        return extend([first])

    def extend(table: list[tuple[int, int]]) -> bool:
        if len(table) == 4:
            images = orbit(table)
            if images is None:
                return False
            added: set[tuple[int, int, int]] = set()
            for moved in images:
                for a in range(4):
                    for b in range(a + 1, 4):
                        for d in differences(moved[a], moved[b]):
                            if d in used or d in added or (d[0] == d[1] and not (2 * d[2]) % size):
                                return False
                            added.add(d)
            used.update(added)
            tables.extend(images)
            seated.update(p for moved in images for p in moved)
            if place():
                return True
            del tables[len(tables) - len(images) :]
            seated.difference_update(p for moved in images for p in moved)
            used.difference_update(added)
            return False
        options = [
            q
            for q in everyone
            if q not in seated and q > table[-1] and all(fresh(p, q, used) for p in table)
        ]
        generator.shuffle(options)
        for q in options:
            if extend([*table, q]):
                return True
            if nodes > max_nodes:
                break
        return False

    return tuple(tables) if place() else None


def resolvable_rounds(player_count: int) -> tuple[Round, ...]:
    """The m rounds of a stored 1-rotational design (``RESOLVABLE_BASE_CLASSES``), in which
    nobody meets anyone twice: the social-golfer bound, reached. Empty for other sizes.

    Round ``t`` adds ``t`` (mod m) to the ``x`` of every player in the base round; infinities
    stay. The base round uses every difference ``y - x`` between two levels (and every non-zero
    difference within a level, both signs) at most once, and each infinity's table-mates are on
    three different levels, so each pair meets in one round at most. Players are numbered
    ``i * m + x``, infinity j ``3m + j``.
    """
    base = RESOLVABLE_BASE_CLASSES.get(player_count)
    return () if base is None else develop_base_class(base, player_count)


def develop_base_class(
    base: Sequence[Sequence[tuple[int, int]]], player_count: int
) -> tuple[Round, ...]:
    """The rounds of a base round as ``resolvable_rounds`` describes them."""
    infinities = sum(1 for block in base if len(block) == 3)
    size = (player_count - infinities) // 3
    rounds = []
    for shift in range(size):
        tables = []
        infinity = 3 * size
        for block in base:
            seats = [level * size + (x + shift) % size for x, level in block]
            if len(seats) == 3:
                seats.insert(0, infinity)
                infinity += 1
            tables.append(tuple(seats))
        rounds.append(Round(tables=tuple(tables)))
    return tuple(rounds)


EXTRA_PLAYER_NODES = 20_000
"""Seats tried, at most, when fitting players beyond a design's size (``_with_extra_players``)."""

EXTRA_PLAYER_TRIES = 5
"""Fresh starts those seats are shared among: a depth-first search stuck deep in one order of
seats is often free in another."""


@cache
def design_rounds(player_count: int) -> tuple[Round, ...]:
    """The longest run of rounds, known by construction, in which nobody meets anyone twice:
    a resolvable design where one is stored, else a transversal design (possibly empty).

    One player fewer than a design's size (63, 51, 43, 39, 35, 31, 27 players) takes that design
    without its last player: that player's three table-mates sit out instead. They are new
    people every round, because nobody meets anyone twice, so nobody sits out twice.

    One to three players more than a design's size (17 to 19 from 16, 29 to 31 from 28, 41 to 43
    from 40, 53 to 55 from 52, and so on) take the design with each newcomer sitting in, round by
    round, for someone who sits out instead (``_with_extra_players``).
    """
    candidates = [_own_design(player_count)]
    bigger = _own_design(player_count + 1)
    if player_count % 4 == 3 and bigger:
        candidates.append(_without_last_player(bigger, player_count))
    for extra in (1, 2, 3):
        smaller = _own_design(player_count - extra)
        if len(smaller) > max(len(c) for c in candidates):
            candidates.append(_with_extra_players(smaller, player_count - extra, extra))
    return max(candidates, key=len)


def _own_design(player_count: int) -> tuple[Round, ...]:
    if player_count < 4:
        return ()
    return max(resolvable_rounds(player_count), transversal_rounds(player_count), key=len)


def _without_last_player(rounds: Sequence[Round], player_count: int) -> tuple[Round, ...]:
    result = []
    for round_ in rounds:
        tables = tuple(table for table in round_.tables if player_count not in table)
        byes = next(table for table in round_.tables if player_count in table)
        result.append(
            Round(tables=tables, byes=tuple(p for p in byes if p != player_count) + round_.byes)
        )
    return tuple(result)


def _with_extra_players(rounds: Sequence[Round], size: int, extra: int) -> tuple[Round, ...]:
    """The design's rounds for ``size + extra`` players, as many rounds as could be fitted.

    In each round each newcomer ``size + k`` takes the seat of a player who sits out instead.
    A depth-first search (rounds in order, newcomers in order, seats in a seeded order) keeps
    the rules of a fresh night: a newcomer's table-mates are new to them every round (another
    newcomer included), and nobody sits out twice. Stops at ``EXTRA_PLAYER_NODES`` seats tried,
    returning the most rounds it managed.
    """
    generator = random.Random(size * 4 + extra)
    best: tuple[Round, ...] = ()
    for _ in range(EXTRA_PLAYER_TRIES):
        found = _fit_extra_players(rounds, size, extra, generator)
        if len(found) > len(best):
            best = found
        if len(best) == len(rounds):
            break
    return best


def _fit_extra_players(
    rounds: Sequence[Round], size: int, extra: int, generator: random.Random
) -> tuple[Round, ...]:
    """One depth-first try of ``_with_extra_players``."""
    newcomers = list(range(size, size + extra))
    met: dict[int, set[int]] = {n: set() for n in newcomers}
    sat_out: set[int] = set()
    chosen: list[list[int]] = []
    best: list[list[int]] = []
    nodes = 0

    def seat_of(round_index: int) -> dict[int, int]:
        return {p: t for t, table in enumerate(rounds[round_index].tables) for p in table}

    tables_of = [seat_of(r) for r in range(len(rounds))]

    def place(round_index: int, placed: list[int]) -> bool:
        nonlocal nodes, best
        if len(placed) == extra:
            chosen.append(list(placed))
            if len(chosen) > len(best):
                best = [list(c) for c in chosen]
            if round_index + 1 == len(rounds) or place(round_index + 1, []):
                return True
            chosen.pop()
            return False
        newcomer = newcomers[len(placed)]
        round_ = rounds[round_index]
        seats = [p for table in round_.tables for p in table if p not in sat_out]
        generator.shuffle(seats)
        for displaced in seats:
            nodes += 1
            if nodes > EXTRA_PLAYER_NODES // EXTRA_PLAYER_TRIES:
                return False
            table = round_.tables[tables_of[round_index][displaced]]
            mates = [
                newcomers[placed.index(p)] if p in placed else p
                for p in (q for q in table if q != displaced)
            ]
            if any(m in met[newcomer] for m in mates):
                continue
            met[newcomer].update(mates)
            for m in mates:
                if m in met:
                    met[m].add(newcomer)
            sat_out.add(displaced)
            if place(round_index, [*placed, displaced]):
                return True
            sat_out.discard(displaced)
            met[newcomer].difference_update(mates)
            for m in mates:
                if m in met:
                    met[m].discard(newcomer)
        return False

    place(0, [])
    result = []
    for round_, displaced in zip(rounds, best, strict=False):
        swap = dict(zip(displaced, newcomers, strict=True))
        tables = tuple(tuple(swap.get(p, p) for p in table) for table in round_.tables)
        result.append(Round(tables=tables, byes=tuple(displaced) + round_.byes))
    return tuple(result)
