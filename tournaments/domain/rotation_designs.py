"""Short nights fresh by construction: designs in which nobody meets anyone twice.

``design_rounds`` gives, for a number of players, the longest run of such rounds known: a
transversal design for 4g players (g a prime power, with AG(2, 4) rows for 64), a stored
1-rotational design (24, 28, 36, 40, 48, 52, 60), and the same designs one player short or up to
three players over. Within that length a short night needs no search; beyond it the night falls
back to the fresh-meeting search (``rotation_fresh``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from tournaments.domain.rotation_chart import Round

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

    tables_of = [{p: t for t, table in enumerate(r.tables) for p in table} for r in rounds]

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
