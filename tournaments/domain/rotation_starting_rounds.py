"""Cyclic whist charts: starting rounds, the group that turns them, and the offline search.

Words (see ``tournaments.domain.rotation`` for the rest of the vocabulary):

- *group*: the abelian group ``Z_m1 x Z_m2 x ...`` whose elements label the players of a cyclic
  chart. An element is stored as one integer in mixed radix (the last modulus varies fastest).
- *infinity*: for 4n players the chart turns 4n - 1 players through the group and keeps one
  player, *infinity* (stored as ``-1``), fixed; every table's other seats move.
- *starting round*: one round of tables over the group's elements (and infinity). Adding a group
  element ``g`` to every seat gives round ``g``; the rounds for all ``g`` make the full cycle.
- *difference*: for two seated elements ``x`` and ``y`` the group element ``y - x``. A starting
  round gives a perfect chart exactly when every non-zero difference occurs once between partners
  and twice between opponents (each unordered pair counted in both directions), because a pair
  ``{u, u + d}`` meets in round ``g`` exactly when the starting round seats ``u - g`` and
  ``u + d - g`` that way.

The shapes stored, for N players (see ``/shared/ROTATIONS.md`` for why these are the bounds):

- N = 4n: group of order N - 1 plus infinity; the three table-mates of infinity are spread evenly
  round the group where the search allowed it, and infinity's partner ``c`` with its opponents
  ``b`` and ``d`` satisfies ``2c != b + d``. Deleting infinity then gives the chart for
  N - 1 = 4n - 1 players: the three table-mates of infinity sit out, each player sits out three
  times, misses two partners, and the 2(N - 1) pairs with differences ``c - b`` and ``c - d``
  oppose once, everyone else twice.
- N = 4n + 1: group of order N, the element 0 sits out (so each player sits out once).
- N = 4n + 2: the cyclic group of order N; 0 and ``second_bye`` (N/2 when N = 2 (mod 8), else 2)
  sit out. Every difference but the element of order two occurs once between partners (so each
  player misses exactly the partner N/2 away); between opponents the element of order two occurs
  in one pair, one other difference pair ``±e`` once and all others twice, so exactly N pairs
  oppose once.

``find_starting_round`` (simulated annealing over the seats of the starting round) and
``find_starting_round_by_matching`` (a random starter, then a depth-first matching of its pairs
into tables) are the offline searches that produced ``tournaments.domain.whist_bases``; run
``python -m tournaments.domain.rotation_starting_rounds 4 64`` to search again (the second one;
slow in pure Python from about 40 players). At run time nothing is searched here: charts are
generated from the stored data.
"""

from __future__ import annotations

import math
import random
import sys
from dataclasses import dataclass

INFINITY = -1
"""The fixed player of a chart for 4n players, in stored starting rounds."""


@dataclass(frozen=True)
class Group:
    """The abelian group ``Z_m1 x Z_m2 x ...`` with elements numbered 0..order-1."""

    moduli: tuple[int, ...]

    @property
    def order(self) -> int:
        return math.prod(self.moduli)

    def digits(self, element: int) -> tuple[int, ...]:
        """The coordinates of an element, one per modulus."""
        coordinates = []
        for modulus in reversed(self.moduli):
            coordinates.append(element % modulus)
            element //= modulus
        return tuple(reversed(coordinates))

    def element(self, digits: tuple[int, ...]) -> int:
        """The element with the given coordinates."""
        value = 0
        for digit, modulus in zip(digits, self.moduli, strict=True):
            value = value * modulus + digit % modulus
        return value

    def add(self, left: int, right: int) -> int:
        return self.element(
            tuple(a + b for a, b in zip(self.digits(left), self.digits(right), strict=True))
        )

    def subtract(self, left: int, right: int) -> int:
        return self.element(
            tuple(a - b for a, b in zip(self.digits(left), self.digits(right), strict=True))
        )

    def addition_table(self) -> list[list[int]]:
        return [[self.add(x, y) for y in range(self.order)] for x in range(self.order)]

    def subtraction_table(self) -> list[list[int]]:
        return [[self.subtract(x, y) for y in range(self.order)] for x in range(self.order)]

    def element_of_order_two(self) -> int | None:
        """The unique element of order two, when the group has exactly one."""
        candidates = [x for x in range(1, self.order) if self.add(x, x) == 0]
        return candidates[0] if len(candidates) == 1 else None


@dataclass(frozen=True)
class StartingRound:
    """A stored starting round: the group and its tables (clockwise seats, infinity as -1)."""

    moduli: tuple[int, ...]
    tables: tuple[tuple[int, int, int, int], ...]

    @property
    def group(self) -> Group:
        return Group(self.moduli)

    @property
    def has_infinity(self) -> bool:
        return any(INFINITY in table for table in self.tables)

    @property
    def players(self) -> int:
        return self.group.order + (1 if self.has_infinity else 0)

    @property
    def byes(self) -> tuple[int, ...]:
        seated = {seat for table in self.tables for seat in table}
        return tuple(x for x in range(self.group.order) if x not in seated)


PARTNER_SEATS = ((0, 2), (1, 3))
"""Seat pairs of partners at a table listed clockwise ``[a, b, c, d]``."""

OPPONENT_SEATS = ((0, 1), (0, 3), (2, 1), (2, 3))
"""Seat pairs of opponents at a table listed clockwise ``[a, b, c, d]``."""


def difference_counts(start: StartingRound) -> tuple[list[int], list[int]]:
    """How often each group element occurs as a partner and as an opponent difference."""
    group = start.group
    subtraction = group.subtraction_table()
    partner_counts = [0] * group.order
    opponent_counts = [0] * group.order
    for table in start.tables:
        for seat_pairs, counts in (
            (PARTNER_SEATS, partner_counts),
            (OPPONENT_SEATS, opponent_counts),
        ):
            for first, second in seat_pairs:
                x, y = table[first], table[second]
                if x == INFINITY or y == INFINITY:
                    continue
                counts[subtraction[x][y]] += 1
                counts[subtraction[y][x]] += 1
    return partner_counts, opponent_counts


def balanced_positions(order: int, count: int) -> tuple[int, ...]:
    """``count`` elements of Z_order spread as evenly as possible: ``floor(i * order / count)``."""
    return tuple(i * order // count for i in range(count))


@dataclass(frozen=True)
class _SearchShape:
    """What a starting round for N players must look like, for the search."""

    group: Group
    byes: tuple[int, ...]
    pinned_tables: tuple[tuple[int, int, int, int], ...]
    free_elements: tuple[int, ...]
    partner_targets: tuple[int, ...]
    opponent_targets: tuple[int, ...]
    opponent_targets_are_ceilings: tuple[bool, ...]


def _search_shape(players: int, moduli: tuple[int, ...]) -> _SearchShape:
    group = Group(moduli)
    order = group.order
    residue = players % 4
    partner_targets = [1] * order
    opponent_targets = [2] * order
    ceilings = [False] * order
    partner_targets[0] = opponent_targets[0] = 0
    pinned: tuple[tuple[int, int, int, int], ...] = ()
    if residue == 0:
        if order != players - 1:
            raise ValueError("a chart for 4n players turns a group of order 4n - 1")
        if players == 4:
            pinned = ((INFINITY, 0, 1, 2),)
        else:
            b, c, d = _spread_for_infinity(group)
            pinned = ((INFINITY, b, c, d),)
        byes: tuple[int, ...] = ()
    elif residue == 1:
        if order != players:
            raise ValueError("a chart for 4n + 1 players turns a group of order 4n + 1")
        byes = (0,)
    elif residue == 2:
        half = group.element_of_order_two()
        if order != players or half is None:
            raise ValueError("a chart for 4n + 2 players turns a group of order 4n + 2")
        byes = (0, second_bye(group))
        partner_targets[half] = 0
        for element in range(1, order):
            ceilings[element] = element != half
    else:
        raise ValueError("charts for 4n + 3 players come from the chart for 4n + 4")
    seated = {seat for table in pinned for seat in table}
    free = tuple(x for x in range(order) if x not in seated and x not in byes)
    return _SearchShape(
        group=group,
        byes=byes,
        pinned_tables=pinned,
        free_elements=free,
        partner_targets=tuple(partner_targets),
        opponent_targets=tuple(opponent_targets),
        opponent_targets_are_ceilings=tuple(ceilings),
    )


def _spread_for_infinity(group: Group) -> tuple[int, int, int]:
    """Infinity's table-mates b, c (its partner), d: evenly spread and with ``2c != b + d``.

    Evenly spread so that the byes of the 4n - 1 chart made by deleting infinity are balanced
    over any run of consecutive rounds; ``2c != b + d`` so that the pairs who lose an opponent
    meeting there are 2(4n - 1) different pairs.
    """
    order = group.order
    spread = balanced_positions(order, 3) if len(group.moduli) == 1 else None
    candidates = [spread] if spread else []
    candidates += [(0, x, y) for x in range(1, order) for y in range(x + 1, order)]
    for trio in candidates:
        for b, c, d in (
            (trio[0], trio[1], trio[2]),
            (trio[1], trio[0], trio[2]),
            (trio[0], trio[2], trio[1]),
        ):
            if group.add(c, c) != group.add(b, d):
                return b, c, d
    raise ValueError("no table for infinity")


def find_starting_round(
    players: int, moduli: tuple[int, ...], *, seed: int = 0, moves: int = 2_000_000
) -> StartingRound | None:
    """Search for a starting round for ``players`` over ``Z_moduli`` by simulated annealing.

    The state is an arrangement of the free elements in the free seats; a move swaps two seats;
    the cost is how far the partner and opponent difference counts are from their targets. Returns
    ``None`` when ``moves`` swaps did not reach cost zero.
    """
    shape = _search_shape(players, moduli)
    group = shape.group
    subtraction = group.subtraction_table()
    order = group.order
    generator = random.Random(seed)
    free = list(shape.free_elements)
    generator.shuffle(free)
    free_tables = len(free) // 4
    seats = free  # seat 4t + s holds the element at table t, seat s
    partner_counts = [0] * order
    opponent_counts = [0] * order

    def add_pinned() -> None:
        for table in shape.pinned_tables:
            for pairs, counts in (
                (PARTNER_SEATS, partner_counts),
                (OPPONENT_SEATS, opponent_counts),
            ):
                for first, second in pairs:
                    x, y = table[first], table[second]
                    if INFINITY in (x, y):
                        continue
                    counts[subtraction[x][y]] += 1
                    counts[subtraction[y][x]] += 1

    add_pinned()

    def table_differences(table: int) -> tuple[list[int], list[int]]:
        base = 4 * table
        a, b, c, d = seats[base], seats[base + 1], seats[base + 2], seats[base + 3]
        partners = [subtraction[a][c], subtraction[c][a], subtraction[b][d], subtraction[d][b]]
        opponents = [
            subtraction[a][b],
            subtraction[b][a],
            subtraction[a][d],
            subtraction[d][a],
            subtraction[c][b],
            subtraction[b][c],
            subtraction[c][d],
            subtraction[d][c],
        ]
        return partners, opponents

    for table in range(free_tables):
        partners, opponents = table_differences(table)
        for g in partners:
            partner_counts[g] += 1
        for g in opponents:
            opponent_counts[g] += 1

    partner_targets = shape.partner_targets
    opponent_targets = shape.opponent_targets
    ceilings = shape.opponent_targets_are_ceilings

    def partner_penalty(g: int, count: int) -> int:
        return abs(count - partner_targets[g])

    def opponent_penalty(g: int, count: int) -> int:
        if ceilings[g]:
            return max(0, count - opponent_targets[g])
        return abs(count - opponent_targets[g])

    cost = sum(partner_penalty(g, partner_counts[g]) for g in range(1, order)) + sum(
        opponent_penalty(g, opponent_counts[g]) for g in range(1, order)
    )
    temperature_start, temperature_end = 2.0, 0.05
    best_cost = cost
    seat_count = len(seats)
    for move in range(moves):
        if cost == 0:
            break
        temperature = temperature_start * (temperature_end / temperature_start) ** (move / moves)
        first = generator.randrange(seat_count)
        second = generator.randrange(seat_count)
        first_table, second_table = first // 4, second // 4
        if first_table == second_table:
            continue
        touched_partner: dict[int, int] = {}
        touched_opponent: dict[int, int] = {}
        for table in (first_table, second_table):
            partners, opponents = table_differences(table)
            for g in partners:
                touched_partner[g] = touched_partner.get(g, 0) - 1
            for g in opponents:
                touched_opponent[g] = touched_opponent.get(g, 0) - 1
        seats[first], seats[second] = seats[second], seats[first]
        for table in (first_table, second_table):
            partners, opponents = table_differences(table)
            for g in partners:
                touched_partner[g] = touched_partner.get(g, 0) + 1
            for g in opponents:
                touched_opponent[g] = touched_opponent.get(g, 0) + 1
        delta = 0
        for g, change in touched_partner.items():
            if change:
                delta += partner_penalty(g, partner_counts[g] + change) - partner_penalty(
                    g, partner_counts[g]
                )
        for g, change in touched_opponent.items():
            if change:
                delta += opponent_penalty(g, opponent_counts[g] + change) - opponent_penalty(
                    g, opponent_counts[g]
                )
        if delta <= 0 or generator.random() < math.exp(-delta / temperature):
            for g, change in touched_partner.items():
                partner_counts[g] += change
            for g, change in touched_opponent.items():
                opponent_counts[g] += change
            cost += delta
            best_cost = min(best_cost, cost)
        else:
            seats[first], seats[second] = seats[second], seats[first]
    if cost != 0:
        return None
    tables = list(shape.pinned_tables) + [
        (seats[4 * t], seats[4 * t + 1], seats[4 * t + 2], seats[4 * t + 3])
        for t in range(free_tables)
    ]
    return StartingRound(moduli=moduli, tables=tuple(tables))


def _prime_power(value: int) -> tuple[int, int] | None:
    """``(p, k)`` when ``value == p ** k`` for a prime ``p``, else ``None``."""
    for prime in range(2, value + 1):
        if value % prime == 0:
            power, rest = 0, value
            while rest % prime == 0:
                rest //= prime
                power += 1
            return (prime, power) if rest == 1 else None
    return None


def fourth_roots_starting_round(order: int) -> StartingRound | None:
    """The classical starting round for a prime power ``q = 4n + 1`` (Baker; Anderson 1995).

    In the field GF(q) (only ``q = p`` and ``q = p**2`` are handled) take ``i`` of order 4 and a
    representative ``x`` of each coset of ``{1, i, -1, -i}``: the tables ``(x, ix, -x, -ix)``.
    Partners ``x, -x`` differ by ``2x``, so the partner differences are ``2`` times every non-zero
    element, once; the opponent differences are ``(i - 1)`` times every non-zero element, twice.
    The additive group is ``Z_p`` or ``Z_p x Z_p``, elements ``a + b*alpha`` as digits ``(a, b)``
    with ``alpha**2`` a non-square mod ``p``.
    """
    found = _prime_power(order)
    if found is None or order % 4 != 1 or found[1] > 2:
        return None
    prime, power = found
    moduli = (prime,) * power
    group = Group(moduli)
    squares = {(x * x) % prime for x in range(1, prime)}
    non_square = next(x for x in range(2, prime) if x not in squares) if power == 2 else 0

    def multiply(left: int, right: int) -> int:
        if power == 1:
            return (left * right) % prime
        a, b = group.digits(left)
        c, d = group.digits(right)
        return group.element(((a * c + b * d * non_square) % prime, (a * d + b * c) % prime))

    def multiplicative_order(element: int) -> int:
        value, steps = element, 1
        while value != 1:
            value = multiply(value, element)
            steps += 1
        return steps

    one = 1 if power == 1 else group.element((1, 0))
    if power == 2:

        def multiplicative_order(element: int) -> int:
            value, steps = element, 1
            while value != one:
                value = multiply(value, element)
                steps += 1
            return steps

    primitive = next(x for x in range(1, order) if multiplicative_order(x) == order - 1)
    powers = [one]
    for _ in range(order - 2):
        powers.append(multiply(powers[-1], primitive))
    quarter = (order - 1) // 4
    i = powers[quarter]
    minus_one = powers[2 * quarter]
    tables = []
    for representative in powers[:quarter]:
        x = representative
        tables.append(
            (x, multiply(i, x), multiply(minus_one, x), multiply(minus_one, multiply(i, x)))
        )
    return StartingRound(moduli=moduli, tables=tuple(tables))


def binary_field_starting_round(players: int) -> StartingRound | None:
    """A starting round for ``players = 2**k`` (k >= 3) from the field GF(2**k).

    Label the players by the field's elements. Round ``r`` (``r`` non-zero) seats the tables
    ``(x, x + alpha*r, x + r, x + alpha*r + r)``, one per coset ``x`` of the plane spanned by
    ``r`` and ``alpha*r``, with ``alpha`` a primitive element. Partners differ by ``r``, so every
    pair partners exactly once, in the round named by its sum. Opponents differ by ``alpha*r`` or
    ``(alpha + 1)*r``, each pair of that sum once, and as ``r`` runs over the non-zero elements
    each of those runs over them too: every pair opposes exactly twice.

    Multiplying by ``r`` maps round 1 onto round ``r``, so writing every non-zero element as a
    power of ``alpha`` (its exponent mod ``2**k - 1``) and 0 as infinity makes round 1 a cyclic
    starting round over ``Z_(2**k - 1)``. Infinity's partner is 0 (the element 1), and its
    opponents are ``1`` and the exponent of ``alpha + 1``, whose sum is not 0 because
    ``alpha * (alpha + 1) != 1`` outside GF(4): the chart for ``players - 1`` reaches its bound.
    """
    found = _prime_power(players)
    if found is None or found[0] != 2 or found[1] < 3:
        return None
    order = players - 1
    for modulus in range(players + 1, 2 * players, 2):
        exponent_of: dict[int, int] = {}
        element = 1
        for exponent in range(order):
            if element in exponent_of:
                break
            exponent_of[element] = exponent
            element <<= 1
            if element & players:
                element ^= modulus
        if len(exponent_of) == order and element == 1:
            break
    else:  # pragma: no cover - a primitive polynomial of every degree exists
        return None

    def label(element: int) -> int:
        return INFINITY if element == 0 else exponent_of[element]

    alpha = 2  # the class of x: primitive for the polynomial found above
    plane = {0, 1, alpha, alpha ^ 1}
    tables = []
    seen: set[int] = set()
    for x in range(players):
        if x in seen:
            continue
        seen.update(x ^ y for y in plane)
        tables.append((label(x), label(x ^ alpha), label(x ^ 1), label(x ^ alpha ^ 1)))
    return StartingRound(moduli=(order,), tables=tuple(tables))


def second_bye(group: Group) -> int:
    """The element sitting out beside 0 in a chart for 4n + 2 players over ``Z_(4n + 2)``.

    Partner pairs differ by every element but the one of order two, ``m = 2n + 1``, once. A pair
    with an odd difference joins an even and an odd element, so the ``n`` odd differences leave
    the even elements not sitting out to be paired among themselves: there must be an even number
    of them. With 0 and ``m`` sitting out that holds when ``m = 1 (mod 4)``; with 0 and 2 sitting
    out, when ``m = 3 (mod 4)``.
    """
    half = group.element_of_order_two()
    if len(group.moduli) != 1 or half is None:
        raise ValueError("charts for 4n + 2 players turn the cyclic group of order 4n + 2")
    return half if half % 4 == 1 else 2


def find_starting_round_by_matching(
    players: int,
    moduli: tuple[int, ...],
    *,
    seed: int = 0,
    attempts: int = 1_000,
    starter_steps: int = 100_000,
    matching_steps: int = 200_000,
) -> StartingRound | None:
    """Search for a starting round in two steps, each a randomised depth-first search.

    1. A *starter*: partner pairs whose differences are every element once (but the element of
       order two for 4n + 2 players), covering every seated element once. For 4n players 0 is
       infinity's partner; for 4n + 1 players 0 sits out; for 4n + 2 players 0 and
       ``second_bye`` sit out.
    2. A *matching* of those pairs two by two into tables, such that every opponent difference
       occurs twice (for 4n + 2 players: the element of order two once as a pair, one difference
       pair ``+-e`` once, the rest twice). Infinity's table must have ``2c != b + d``.

    Each attempt draws a new starter and gives up after ``matching_steps`` nodes. This is what
    found the entries from 33 players up (a C port of it was used for speed); it returns ``None``
    when ``attempts`` starters gave nothing.
    """
    group = Group(moduli)
    order = group.order
    residue = players % 4
    if residue == 3 or order != (players - 1 if residue == 0 else players):
        raise ValueError("no starting round of this shape")
    subtraction = group.subtraction_table()
    addition = group.addition_table()
    negative = [subtraction[0][x] for x in range(order)]
    class_of = [-1] * order
    representatives: list[int] = []
    for x in range(1, order):
        if class_of[x] < 0:
            class_of[x] = class_of[negative[x]] = len(representatives)
            representatives.append(x)
    half = group.element_of_order_two() if residue == 2 else None
    sitting_out = {0, second_bye(group)} if residue == 2 else {0}
    half_class = class_of[half] if half is not None else -1
    ceiling = [1 if k == half_class else 2 for k in range(len(representatives))]
    generator = random.Random(seed)

    def starter() -> list[tuple[int, int]] | None:
        used = set(sitting_out)
        pairs: list[tuple[int, int]] = [(INFINITY, 0)] if residue == 0 else []
        needed = [x for x in representatives if x != half]
        generator.shuffle(needed)
        steps = 0

        def extend(index: int) -> bool:
            nonlocal steps
            steps += 1
            if steps > starter_steps:
                return False
            if index == len(needed):
                return True
            difference = needed[index]
            starts = [
                x
                for x in range(order)
                if x not in used
                and addition[x][difference] not in used
                and addition[x][difference] != x
            ]
            generator.shuffle(starts)
            for x in starts:
                y = addition[x][difference]
                used.update((x, y))
                pairs.append((x, y))
                if extend(index + 1):
                    return True
                pairs.pop()
                used.difference_update((x, y))
            return False

        return pairs if extend(0) else None

    def opponent_classes(first: tuple[int, int], second: tuple[int, int]) -> list[int] | None:
        (a, c), (b, d) = first, second
        if INFINITY in (b, d):
            (a, c), (b, d) = (b, d), (a, c)
        if INFINITY in (a, c):
            partner = c if a == INFINITY else a
            if addition[partner][partner] == addition[b][d]:
                return None
            return [class_of[subtraction[partner][b]], class_of[subtraction[partner][d]]]
        return [class_of[subtraction[x][y]] for x in (a, c) for y in (b, d)]

    for _ in range(attempts):
        pairs = starter()
        if pairs is None:
            continue
        count = len(pairs)
        hits = [[opponent_classes(pairs[i], pairs[j]) for j in range(count)] for i in range(count)]
        mate = _match_pairs(
            hits, ceiling, generator, matching_steps, exact=residue != 2, exactly_once=half_class
        )
        if mate is None:
            continue
        tables = []
        for i, j in enumerate(mate):
            if i < j:
                (a, c), (b, d) = pairs[i], pairs[j]
                if INFINITY in (b, d):
                    (a, c), (b, d) = (b, d), (a, c)
                if c == INFINITY:
                    a, c = c, a
                tables.append((a, b, c, d))
        found = StartingRound(moduli=moduli, tables=tuple(tables))
        if starting_round_reaches_the_bound(players, found):
            return found
    return None


def _match_pairs(
    hits: list[list[list[int] | None]],
    ceiling: list[int],
    generator: random.Random,
    max_steps: int,
    *,
    exact: bool = True,
    exactly_once: int = -1,
) -> list[int] | None:
    """Pair up partner pairs into tables, depth first: ``hits[i][j]`` are the opponent difference
    classes a table of pairs ``i`` and ``j`` covers (``None``: not allowed); no class may be
    covered more than ``ceiling`` times. Returns each pair's mate, or ``None`` after
    ``max_steps`` nodes.

    ``exact``: every class must end at its ceiling (whist charts); otherwise one class may end
    one short (4n + 2 players), and the class ``exactly_once`` must end at 1.

    Each node branches on what has the fewest ways left: a pair with the fewest possible mates,
    or (when every class must be filled) a class with the fewest tables left that cover it. It
    backtracks as soon as some pair has no mate left or some class can no longer be filled: a
    class still short by ``r`` needs ``2r`` from the best table each unmatched pair could still
    join (every table is counted by both of its pairs). A table tried and failed is barred from
    the rest of its node's branches.
    """
    count = len(hits)
    classes = len(ceiling)
    covered = [0] * classes
    mate = [-1] * count
    barred: set[tuple[int, int]] = set()
    slack = 0 if exact else 1
    steps = 0

    def fits(i: int, j: int) -> bool:
        found = hits[i][j]
        if found is None or mate[j] >= 0 or j == i or (min(i, j), max(i, j)) in barred:
            return False
        return all(covered[k] + found.count(k) <= ceiling[k] for k in set(found))

    def match() -> bool:
        nonlocal steps
        steps += 1
        if steps > max_steps:
            return False
        unmatched = [i for i in range(count) if mate[i] < 0]
        if not unmatched:
            return True
        mates = {i: [j for j in unmatched if fits(i, j)] for i in unmatched}
        reach = [0] * classes
        for i, options in mates.items():
            if not options:
                return False
            best: dict[int, int] = {}
            for j in options:
                found = hits[i][j] or []
                for k in set(found):
                    best[k] = max(best.get(k, 0), found.count(k))
            for k, most in best.items():
                reach[k] += most
        shortfall = 0
        for k in range(classes):
            short = ceiling[k] - covered[k]
            if short > 0 and reach[k] < 2 * short:
                if k == exactly_once:
                    return False
                shortfall += short - reach[k] // 2
                if shortfall > slack:
                    return False
        first = min(unmatched, key=lambda i: len(mates[i]))
        tables = [(first, j) for j in mates[first]]
        if exact:
            covering: dict[int, list[tuple[int, int]]] = {}
            for i, options in mates.items():
                for j in options:
                    if i < j:
                        for k in set(hits[i][j] or []):
                            covering.setdefault(k, []).append((i, j))
            open_classes = [k for k in range(classes) if covered[k] < ceiling[k]]
            scarcest = min(open_classes, key=lambda k: len(covering.get(k, [])))
            if len(covering.get(scarcest, [])) < len(tables):
                tables = covering.get(scarcest, [])
        generator.shuffle(tables)
        tried: list[tuple[int, int]] = []
        found_one = False
        for i, j in tables:
            found = hits[i][j] or []
            for k in found:
                covered[k] += 1
            mate[i], mate[j] = j, i
            if match():
                found_one = True
                break
            mate[i] = mate[j] = -1
            for k in found:
                covered[k] -= 1
            barred.add((min(i, j), max(i, j)))
            tried.append((min(i, j), max(i, j)))
            if steps > max_steps:
                break
        barred.difference_update(tried)
        return found_one

    return mate if match() else None


def starting_round_reaches_the_bound(players: int, start: StartingRound) -> bool:
    """Whether the chart generated from ``start`` reaches the bound for ``players``, by counting
    the differences (see the module notes for why the counts decide it)."""
    group = start.group
    order = group.order
    partner_counts, opponent_counts = difference_counts(start)
    seated = [seat for table in start.tables for seat in table]
    if (
        start.players != players
        or len(seated) != len(set(seated))
        or len(start.tables) != players // 4
        or len(start.byes) != players % 4
    ):
        return False
    if players % 4 in (0, 1):
        if partner_counts[1:] != [1] * (order - 1) or opponent_counts[1:] != [2] * (order - 1):
            return False
        if players % 4 == 1 or players == 4:
            return True  # (no chart for 3 players is ever cut from the one for 4)
        table = next(t for t in start.tables if INFINITY in t)
        at = table.index(INFINITY)
        b, c, d = table[(at + 1) % 4], table[(at + 2) % 4], table[(at + 3) % 4]
        return group.add(c, c) != group.add(b, d)
    half = group.element_of_order_two()
    if half is None:
        return False
    return (
        [partner_counts[x] for x in range(1, order)]
        == [0 if x == half else 1 for x in range(1, order)]
        and opponent_counts[half] == 2
        and sorted(opponent_counts[x] for x in range(1, order) if x != half)
        == [1, 1] + [2] * (order - 4)
    )


def _main(arguments: list[str]) -> None:
    first, last = int(arguments[0]), int(arguments[1])
    for players in range(first, last + 1):
        if players % 4 == 3:
            continue
        order = players - 1 if players % 4 == 0 else players
        found = find_starting_round_by_matching(players, (order,), seed=players)
        if found is None:
            print(f"    # {players}: nothing found over Z_{order}")
            continue
        print(f"    {players}: StartingRound(moduli={found.moduli}, tables={found.tables}),")
        sys.stdout.flush()


if __name__ == "__main__":
    _main(sys.argv[1:])
