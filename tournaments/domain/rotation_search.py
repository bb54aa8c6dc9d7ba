"""Searches behind the rotation engine: choosing rounds from a chart, and improving seats.

Words (the full vocabulary is in ``tournaments.domain.rotation``):

- *repeat partner*: each partnership of a pair beyond its first.
- *opponent excess*: each opposing of a pair beyond its second.
- *repeated meeting*: each meeting of a pair beyond its first (counted as a fault only on short
  nights, where the social-golfer bound lets everyone meet new people every round; on longer
  nights it only breaks ties, in favour of meeting more different people).
- *sit-out*: a round a player does not play, by a bye or by not being there yet (a late arrival).
- *keep apart*: a pair who must never partner and should not share a table.
- *separated*: a pair fixed to two different table numbers, who can never share a table.
- *together*: players fixed to the same table number, who must share it whenever both play.
- *stationary*: a player who keeps one table and seat all night, so never sits out.
- *cost*: the weighted count of all faults above; the searches lower it. The weights rank the
  faults: a broken hard rule, then uneven sit-outs, repeat partners, opponent excess, keep-apart
  meetings, repeated meetings.

Every search is driven by ``random.Random(seed)`` and a fixed number of moves, never by the
clock, so the same input and seed always give the same rotation.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from tournaments.domain.rotation_chart import OPPONENT_SEATS, PARTNER_SEATS, Round

WEIGHT_HARD = 100_000
"""A kept-apart pair as partners, or a fixed-table rule broken: never acceptable."""

WEIGHT_SIT_OUT = 400
"""Per unit of the sum of squared sit-outs: an uneven split costs more than a repeat partner."""

WEIGHT_REPEAT_PARTNER = 300
WEIGHT_OPPONENT_EXCESS = 100
WEIGHT_KEEP_APART_MEETING = 60
WEIGHT_SHORT_NIGHT_MEETING = 40
"""A repeated meeting on a short night (within the social-golfer bound)."""

WEIGHT_MEETING_TIE_BREAK = 1
"""A repeated meeting on a long night: only a tie-break towards meeting more people."""

WEIGHT_NEVER_OPPOSED = 1
"""A pair who never oppose on a long night: with opponents capped at two, fewer such pairs means
fewer pairs who oppose only once."""


@dataclass
class SearchGoal:
    """What a search minimises, for ``player_count`` players numbered ``0..player_count-1``.

    ``base_partners`` and ``base_opponents`` (flat ``x * player_count + y``, symmetric) hold the
    meetings of rounds already played; ``base_sit_outs`` each player's sit-outs so far.
    """

    player_count: int
    short_night: bool
    keep_apart: set[tuple[int, int]] = field(default_factory=set)
    separated: set[tuple[int, int]] = field(default_factory=set)
    together: list[tuple[int, ...]] = field(default_factory=list)
    base_partners: list[int] | None = None
    base_opponents: list[int] | None = None
    base_sit_outs: list[int] | None = None
    stationary: frozenset[int] = frozenset()

    def pair_kinds(self) -> list[int]:
        """Per ordered pair: bit 1 for keep apart, bit 2 for separated."""
        size = self.player_count
        kinds = [0] * (size * size)
        for x, y in self.keep_apart:
            kinds[x * size + y] |= 1
            kinds[y * size + x] |= 1
        for x, y in self.separated:
            kinds[x * size + y] |= 2
            kinds[y * size + x] |= 2
        return kinds


def pair_cost(partners: int, opponents: int, kind: int, short_night: bool) -> int:
    """The cost of one pair who partnered ``partners`` times and opposed ``opponents`` times."""
    meetings = partners + opponents
    cost = 0
    if partners > 1:
        cost += WEIGHT_REPEAT_PARTNER * (partners - 1)
    if opponents > 2:
        cost += WEIGHT_OPPONENT_EXCESS * (opponents - 2)
    if meetings > 1:
        cost += (WEIGHT_SHORT_NIGHT_MEETING if short_night else WEIGHT_MEETING_TIE_BREAK) * (
            meetings - 1
        )
    if not short_night and opponents == 0:
        cost += WEIGHT_NEVER_OPPOSED
    if kind:
        if kind & 1:
            cost += WEIGHT_HARD * partners + WEIGHT_KEEP_APART_MEETING * meetings
        if kind & 2:
            cost += WEIGHT_HARD * meetings
    return cost


class SeatSearch:
    """Simulated annealing over the seats of the rounds that may still change.

    A move swaps two players in one round (two seats, or a seat and a bye). Each round is kept
    as ``seats[r]``: position ``p < 4 * tables`` is table ``p // 4``, seat ``p % 4``; the
    positions after them are the byes.
    """

    def __init__(self, goal: SearchGoal, rounds: Sequence[Round]) -> None:
        self.goal = goal
        size = goal.player_count
        self.size = size
        self.table_count = size // 4
        self.seat_count = 4 * self.table_count
        self.partners = list(goal.base_partners) if goal.base_partners else [0] * (size * size)
        self.opponents = list(goal.base_opponents) if goal.base_opponents else [0] * (size * size)
        self.sit_outs = list(goal.base_sit_outs) if goal.base_sit_outs else [0] * size
        self.kinds = goal.pair_kinds()
        self.together_of: dict[int, tuple[int, ...]] = {}
        for group in goal.together:
            for player in group:
                self.together_of[player] = group
        self.seats: list[list[int]] = []
        self.position: list[list[int]] = []
        for round_ in rounds:
            order = [p for table in round_.tables for p in table] + list(round_.byes)
            if len(order) != size or len(round_.tables) != self.table_count:
                raise ValueError("every searched round seats the same players")
            self.seats.append(order)
            where = [0] * size
            for index, player in enumerate(order):
                where[player] = index
            self.position.append(where)
            for player in round_.byes:
                self.sit_outs[player] += 1
        for order in self.seats:
            self._count_round(order, 1)
        self.mates = [self._mates_of(p) for p in range(size)]
        self.cost = self.total_cost()

    def _mates_of(self, position: int) -> tuple[tuple[int, bool], ...]:
        """The other positions at ``position``'s table, each with whether it is the partner."""
        if position >= self.seat_count:
            return ()
        table, seat = divmod(position, 4)
        return tuple(
            (4 * table + other, (other - seat) % 4 == 2) for other in range(4) if other != seat
        )

    def _count_round(self, order: list[int], change: int) -> None:
        size = self.size
        for table in range(self.table_count):
            seated = order[4 * table : 4 * table + 4]
            for first, second in PARTNER_SEATS:
                x, y = seated[first], seated[second]
                self.partners[x * size + y] += change
                self.partners[y * size + x] += change
            for first, second in OPPONENT_SEATS:
                x, y = seated[first], seated[second]
                self.opponents[x * size + y] += change
                self.opponents[y * size + x] += change

    def total_cost(self) -> int:
        size = self.size
        short_night = self.goal.short_night
        cost = 0
        for x in range(size):
            for y in range(x + 1, size):
                index = x * size + y
                cost += pair_cost(
                    self.partners[index], self.opponents[index], self.kinds[index], short_night
                )
        cost += WEIGHT_SIT_OUT * sum(count * count for count in self.sit_outs)
        for round_index in range(len(self.seats)):
            cost += WEIGHT_HARD * self.apart_from_group(round_index)
        cost += WEIGHT_HARD * self.stationary_byes()
        return cost

    def stationary_byes(self) -> int:
        """Byes of stationary players in the searched rounds (each breaks a hard rule)."""
        stationary = self.goal.stationary
        seat_count = self.seat_count
        return sum(
            1 for order in self.seats for player in order[seat_count:] if player in stationary
        )

    def apart_from_group(self, round_index: int, players: Sequence[int] | None = None) -> int:
        """Pairs fixed to the same table who both play this round at different tables."""
        groups = self.goal.together
        if players is not None:
            groups = list({self.together_of[p] for p in players if p in self.together_of})
        where = self.position[round_index]
        seat_count = self.seat_count
        broken = 0
        for group in groups:
            tables = [where[p] // 4 for p in group if where[p] < seat_count]
            for i in range(len(tables)):
                for j in range(i + 1, len(tables)):
                    if tables[i] != tables[j]:
                        broken += 1
        return broken

    def _swap_changes(self, round_index: int, first: int, second: int) -> dict[int, list[int]]:
        """Partner and opponent count changes, per ordered pair index ``x * size + y`` with
        ``x < y``, if the players at positions ``first`` and ``second`` swap."""
        order = self.seats[round_index]
        size = self.size
        x, y = order[first], order[second]
        changes: dict[int, list[int]] = {}

        def note(a: int, b: int, is_partner: bool, change: int) -> None:
            index = a * size + b if a < b else b * size + a
            entry = changes.get(index)
            if entry is None:
                entry = changes[index] = [0, 0]
            entry[0 if is_partner else 1] += change

        for mover, stayer_position, leaving, arriving in ((x, first, x, y), (y, second, y, x)):
            for mate_position, is_partner in self.mates[stayer_position]:
                mate = order[mate_position]
                if mate in (x, y):
                    continue
                note(leaving, mate, is_partner, -1)
                note(arriving, mate, is_partner, 1)
            del mover
        return changes

    def swap_delta(self, round_index: int, first: int, second: int) -> tuple[int, dict]:
        order = self.seats[round_index]
        x, y = order[first], order[second]
        changes = self._swap_changes(round_index, first, second)
        short_night = self.goal.short_night
        delta = 0
        partners, opponents, kinds = self.partners, self.opponents, self.kinds
        for index, (partner_change, opponent_change) in changes.items():
            if partner_change == 0 and opponent_change == 0:
                continue
            p, o, k = partners[index], opponents[index], kinds[index]
            delta += pair_cost(p + partner_change, o + opponent_change, k, short_night)
            delta -= pair_cost(p, o, k, short_night)
        seat_count = self.seat_count
        first_is_bye, second_is_bye = first >= seat_count, second >= seat_count
        if first_is_bye != second_is_bye:
            leaving_bye, joining_bye = (x, y) if first_is_bye else (y, x)
            delta += WEIGHT_SIT_OUT * (
                2 * self.sit_outs[joining_bye] + 1 - (2 * self.sit_outs[leaving_bye] - 1)
            )
            stationary = self.goal.stationary
            delta += WEIGHT_HARD * ((joining_bye in stationary) - (leaving_bye in stationary))
        if self.together_of and (x in self.together_of or y in self.together_of):
            before = self.apart_from_group(round_index, (x, y))
            self._apply_positions(round_index, first, second)
            after = self.apart_from_group(round_index, (x, y))
            self._apply_positions(round_index, first, second)
            delta += WEIGHT_HARD * (after - before)
        return delta, changes

    def _apply_positions(self, round_index: int, first: int, second: int) -> None:
        order = self.seats[round_index]
        where = self.position[round_index]
        x, y = order[first], order[second]
        order[first], order[second] = y, x
        where[x], where[y] = second, first

    def apply_swap(self, round_index: int, first: int, second: int, changes: dict) -> None:
        size = self.size
        for index, (partner_change, opponent_change) in changes.items():
            x, y = divmod(index, size)
            mirror = y * size + x
            self.partners[index] += partner_change
            self.partners[mirror] += partner_change
            self.opponents[index] += opponent_change
            self.opponents[mirror] += opponent_change
        order = self.seats[round_index]
        seat_count = self.seat_count
        if (first >= seat_count) != (second >= seat_count):
            x, y = order[first], order[second]
            leaving_bye, joining_bye = (x, y) if first >= seat_count else (y, x)
            self.sit_outs[leaving_bye] -= 1
            self.sit_outs[joining_bye] += 1
        self._apply_positions(round_index, first, second)

    def anneal(
        self,
        generator: random.Random,
        moves: int,
        *,
        start_temperature: float,
        end_temperature: float,
        good_enough: int | None = None,
        partnership_share: float = 0.0,
    ) -> None:
        """Run ``moves`` swap attempts and keep the best seats found (stops early at
        ``good_enough``). A ``partnership_share`` of the moves swap two whole partnerships
        between tables, which keeps every partnership (useful when partners are right and
        opponents are not)."""
        if not self.seats:
            return
        size = self.size
        round_count = len(self.seats)
        best_cost = self.cost
        best_seats = [list(order) for order in self.seats]
        ratio = end_temperature / start_temperature
        temperature = start_temperature
        randrange = generator.randrange
        random_unit = generator.random
        seat_count = self.seat_count
        for move in range(moves):
            if good_enough is not None and self.cost <= good_enough:
                break
            if move % 256 == 0:
                temperature = start_temperature * ratio ** (move / moves)
            round_index = randrange(round_count)
            first = randrange(seat_count)
            second = randrange(size)
            if first == second or (
                first // 4 == second // 4 and second < seat_count and (first - second) % 4 == 2
            ):
                continue
            if first >= seat_count and second >= seat_count:
                continue
            delta, changes = self.swap_delta(round_index, first, second)
            moves_partnership = (
                partnership_share
                and second < seat_count
                and first // 4 != second // 4
                and random_unit() < partnership_share
            )
            if moves_partnership:
                # Swap the partners too: the two partnerships change tables, partners stay.
                self.apply_swap(round_index, first, second, changes)
                second_delta, second_changes = self.swap_delta(round_index, first ^ 2, second ^ 2)
                total = delta + second_delta
                if total <= 0 or random_unit() < math.exp(-total / temperature):
                    self.apply_swap(round_index, first ^ 2, second ^ 2, second_changes)
                    self.cost += total
                else:
                    _, undo = self.swap_delta(round_index, first, second)
                    self.apply_swap(round_index, first, second, undo)
                    continue
            elif delta <= 0 or random_unit() < math.exp(-delta / temperature):
                self.apply_swap(round_index, first, second, changes)
                self.cost += delta
            else:
                continue
            if self.cost < best_cost:
                best_cost = self.cost
                best_seats = [list(order) for order in self.seats]
        if self.cost > best_cost:
            self._restore(best_seats)

    def even_sit_outs(self) -> bool:
        """Hand byes from whoever sits out most to whoever sits out least, one swap at a time,
        each the cheapest such swap, while that lowers the cost; returns whether any was made.

        The annealing's random swaps rarely find these when the chart's byes chain the players
        into odd cycles (4n + 2 players with n odd over half the cycle, say): there every single
        swap of one bye costs meetings, and only the count of sit-outs gains.
        """
        size, seat_count = self.size, self.seat_count
        moved = False
        while True:
            movable = [p for p in range(size) if p not in self.goal.stationary]
            if not movable:
                return moved
            most = max(self.sit_outs[p] for p in movable)
            fewest = min(self.sit_outs[p] for p in movable)
            if most - fewest <= 1:
                return moved
            givers = [p for p in movable if self.sit_outs[p] == most]
            takers = [p for p in movable if self.sit_outs[p] == fewest]
            best: tuple[int, int, int, int, dict] | None = None
            for round_index, where in enumerate(self.position):
                for giver in givers:
                    if where[giver] < seat_count:
                        continue
                    for taker in takers:
                        if where[taker] >= seat_count:
                            continue
                        delta, changes = self.swap_delta(round_index, where[giver], where[taker])
                        if best is None or delta < best[0]:
                            best = (delta, round_index, where[giver], where[taker], changes)
            if best is None or best[0] >= 0:
                return moved
            delta, round_index, first, second, changes = best
            self.apply_swap(round_index, first, second, changes)
            self.cost += delta
            moved = True

    def _restore(self, seats: list[list[int]]) -> None:
        goal = self.goal
        size = self.size
        self.partners = list(goal.base_partners) if goal.base_partners else [0] * (size * size)
        self.opponents = list(goal.base_opponents) if goal.base_opponents else [0] * (size * size)
        self.sit_outs = list(goal.base_sit_outs) if goal.base_sit_outs else [0] * size
        self.seats = seats
        self.position = []
        for order in seats:
            where = [0] * size
            for index, player in enumerate(order):
                where[player] = index
            self.position.append(where)
            for player in order[self.seat_count :]:
                self.sit_outs[player] += 1
            self._count_round(order, 1)
        self.cost = self.total_cost()

    def rounds(self) -> list[Round]:
        result = []
        for order in self.seats:
            tables = tuple(tuple(order[4 * t : 4 * t + 4]) for t in range(self.table_count))
            result.append(Round(tables=tables, byes=tuple(sorted(order[self.seat_count :]))))
        return result


def choose_rounds(
    chart: Sequence[Round],
    player_count: int,
    count: int,
    *,
    generator: random.Random,
    base_meetings: Sequence[int] | None = None,
    base_sit_outs: Sequence[int] | None = None,
    moves: int = 3000,
) -> list[int]:
    """Indices of ``count`` rounds of ``chart``, chosen so that sit-outs stay even and pairs
    meet as evenly as possible (the sum of squared meeting counts is least).

    Short nights first look for rounds no two of which share a meeting pair (or, when byes fit,
    a bye), by a clique search; the rest is a local search swapping a chosen round for another.
    """
    total = len(chart)
    if count >= total:
        return list(range(total))
    size = player_count
    pair_lists = []
    for round_ in chart:
        pairs = []
        for table in round_.tables:
            for i in range(4):
                for j in range(i + 1, 4):
                    x, y = table[i], table[j]
                    pairs.append(x * size + y if x < y else y * size + x)
        pair_lists.append(pairs)
    start = _disjoint_rounds(chart, pair_lists, count, generator)
    if len(start) < count:
        others = [r for r in range(total) if r not in start]
        generator.shuffle(others)
        start = start + others[: count - len(start)]
    meetings = list(base_meetings) if base_meetings else [0] * (size * size)
    sit_outs = list(base_sit_outs) if base_sit_outs else [0] * size
    for r in start:
        for index in pair_lists[r]:
            meetings[index] += 1
        for player in chart[r].byes:
            sit_outs[player] += 1

    def cost() -> int:
        return sum(m * m for m in meetings) + WEIGHT_SIT_OUT * sum(s * s for s in sit_outs)

    current = cost()
    chosen = list(start)
    unchosen = [r for r in range(total) if r not in chosen]

    def move(round_index: int, change: int) -> int:
        delta = 0
        for index in pair_lists[round_index]:
            value = meetings[index]
            delta += (value + change) ** 2 - value * value
            meetings[index] = value + change
        for player in chart[round_index].byes:
            value = sit_outs[player]
            delta += WEIGHT_SIT_OUT * ((value + change) ** 2 - value * value)
            sit_outs[player] = value + change
        return delta

    temperature_start, temperature_end = 4.0, 0.2
    best, best_chosen = current, list(chosen)
    for step in range(moves):
        if not unchosen:
            break
        temperature = temperature_start * (temperature_end / temperature_start) ** (step / moves)
        out_slot = generator.randrange(len(chosen))
        in_slot = generator.randrange(len(unchosen))
        leaving, joining = chosen[out_slot], unchosen[in_slot]
        delta = move(leaving, -1) + move(joining, 1)
        if delta <= 0 or generator.random() < math.exp(-delta / temperature):
            chosen[out_slot], unchosen[in_slot] = joining, leaving
            current += delta
            if current < best:
                best, best_chosen = current, list(chosen)
        else:
            move(joining, -1)
            move(leaving, 1)
    return sorted(best_chosen)


def _disjoint_rounds(
    chart: Sequence[Round], pair_lists: list[list[int]], count: int, generator: random.Random
) -> list[int]:
    """As many as ``count`` rounds pairwise without a common meeting pair or bye (a clique
    search over the rounds, with a budget of branches)."""
    total = len(chart)
    masks = []
    for r in range(total):
        mask = 0
        for index in pair_lists[r]:
            mask |= 1 << index
        masks.append(mask)
    bye_sets = [set(round_.byes) for round_ in chart]
    compatible = [0] * total
    for r in range(total):
        for s in range(total):
            if r != s and not masks[r] & masks[s] and not bye_sets[r] & bye_sets[s]:
                compatible[r] |= 1 << s
    order = list(range(total))
    generator.shuffle(order)
    best: list[int] = []
    budget = [20_000]

    def extend(clique: list[int], candidates: int) -> bool:
        nonlocal best
        if len(clique) > len(best):
            best = list(clique)
            if len(best) >= count:
                return True
        budget[0] -= 1
        if budget[0] <= 0 or len(clique) + candidates.bit_count() <= len(best):
            return False
        for r in order:
            if candidates >> r & 1:
                clique.append(r)
                if extend(clique, candidates & compatible[r]):
                    return True
                clique.pop()
                candidates &= ~(1 << r)
                if len(clique) + candidates.bit_count() <= len(best):
                    return False
        return False

    extend([], (1 << total) - 1)
    return best[:count]


class LabelFit:
    """Renaming the players of a plan (a permutation) to fit constraints and played rounds.

    Renaming keeps every count of the plan; it only decides *which* pairs get them. ``chart_of``
    maps each player to the plan's place they take; a move swaps the places of two players.
    """

    def __init__(self, goal: SearchGoal, rounds: Sequence[Round]) -> None:
        size = goal.player_count
        self.goal = goal
        self.size = size
        self.rounds = list(rounds)
        self.partners = [0] * (size * size)
        self.opponents = [0] * (size * size)
        self.byes = [0] * size
        self.table_of: list[list[int]] = []
        for round_ in rounds:
            where = [-1] * size
            for number, table in enumerate(round_.tables):
                for _seat, player in enumerate(table):
                    where[player] = number
                for first, second in PARTNER_SEATS:
                    x, y = table[first], table[second]
                    self.partners[x * size + y] += 1
                    self.partners[y * size + x] += 1
                for first, second in OPPONENT_SEATS:
                    x, y = table[first], table[second]
                    self.opponents[x * size + y] += 1
                    self.opponents[y * size + x] += 1
            for player in round_.byes:
                self.byes[player] += 1
            self.table_of.append(where)
        self.base_partners = goal.base_partners or [0] * (size * size)
        self.base_opponents = goal.base_opponents or [0] * (size * size)
        self.base_sit_outs = goal.base_sit_outs or [0] * size
        self.kinds = goal.pair_kinds()
        self.chart_of = list(range(size))
        self.groups_of: dict[int, list[tuple[int, ...]]] = {}
        for group in goal.together:
            for player in group:
                self.groups_of.setdefault(player, []).append(group)
        self.interesting = bool(goal.base_partners) or bool(goal.base_sit_outs)
        self.stationary = goal.stationary

    def _pair(self, a: int, b: int) -> int:
        size = self.size
        index = a * size + b
        chart = self.chart_of[a] * size + self.chart_of[b]
        return pair_cost(
            self.base_partners[index] + self.partners[chart],
            self.base_opponents[index] + self.opponents[chart],
            self.kinds[index],
            self.goal.short_night,
        )

    def _player_cost(self, player: int, other: int) -> int:
        """Costs of ``player``'s pairs (except with ``other``), sit-outs and table groups."""
        cost = 0
        if self.interesting:
            for mate in range(self.size):
                if mate != player and mate != other:
                    cost += self._pair(player, mate)
            sit_outs = self.base_sit_outs[player] + self.byes[self.chart_of[player]]
            cost += WEIGHT_SIT_OUT * sit_outs * sit_outs
        else:
            size = self.size
            for mate in range(size):
                if mate != player and mate != other and self.kinds[player * size + mate]:
                    cost += self._pair(player, mate)
        if player in self.stationary:
            cost += WEIGHT_HARD * self.byes[self.chart_of[player]]
        return cost

    def _group_cost(self, players: Sequence[int]) -> int:
        groups = {g for p in players for g in self.groups_of.get(p, ())}
        broken = 0
        for group in groups:
            for where in self.table_of:
                tables = [where[self.chart_of[p]] for p in group]
                tables = [t for t in tables if t >= 0]
                broken += sum(
                    1
                    for i in range(len(tables))
                    for j in range(i + 1, len(tables))
                    if tables[i] != tables[j]
                )
        return WEIGHT_HARD * broken

    def improve(self, generator: random.Random, moves: int) -> list[Round]:
        """Swap players' places while the cost does not rise; return the renamed rounds."""
        size = self.size
        for _ in range(moves):
            a, b = generator.sample(range(size), 2)
            before = self._player_cost(a, b) + self._player_cost(b, a) + self._group_cost((a, b))
            self.chart_of[a], self.chart_of[b] = self.chart_of[b], self.chart_of[a]
            after = self._player_cost(a, b) + self._player_cost(b, a) + self._group_cost((a, b))
            if after > before:
                self.chart_of[a], self.chart_of[b] = self.chart_of[b], self.chart_of[a]
        player_at = [0] * size
        for player, place in enumerate(self.chart_of):
            player_at[place] = player
        return [
            Round(
                tables=tuple(tuple(player_at[p] for p in table) for table in round_.tables),
                byes=tuple(player_at[p] for p in round_.byes),
            )
            for round_ in self.rounds
        ]
