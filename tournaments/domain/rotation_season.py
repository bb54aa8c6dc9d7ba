"""Season-aware choices among a night's equivalent rotations, and the season figures of a plan.

Words (the full vocabulary is in ``tournaments.domain.rotation``):

- *season history*: what the season's earlier nights hold, as plain data: how often each pair
  partnered and opposed, how many nights both came (*nights together*), how often each player
  sat out on the nights they came (a bye, not an absence), and each player's rating (the
  league's, from the standings).
- *season repeat*: a partnership tonight of a pair who already partnered earlier this season.
- *partner strength*: a player's average partner rating over the season, tonight's plan included
  (a partner's current rating, counted once per game together).
- *spread*: the highest value minus the lowest, over the players present tonight.
- *relabelling*: giving the plan's places to other players. It keeps every count of the night
  (partners, opponents, byes per place), so the night stays exactly as good within itself; it
  only decides *who* gets each place, which is what the season cares about.
- *season weights* (``SeasonWeights``): the history of tonight's players as the searches weigh
  it, one cost per pair for partnering once more and for opposing once more, and sit-outs.

The choice is ordered: first the night's own quality (never made worse, constraints included),
then season repeats (partners weigh most, then sit-outs, then opponents). A partnership costs by
how often the pair already partnered, growing faster than the count so that a third
partnership costs more than two second ones; a pair who never partnered pulls by the nights they
came together, so that nobody goes a season without partnering someone they always meet.
Opponents cost by their count only (they are many, and must never outweigh a partnership).
Then, with the balance option, the spread of partner strength among the plans whose season
partners and sit-outs are as few (it may trade season opponents for it).

Two searches: a seeded annealing over swaps of two players' places (the relabelling: an
assignment of players to the plan's places), then a polish of seat swaps within a round that
leave every count of the night's report as it is, including swaps within one table, which
choose who partners whom there (on a night where nobody meets anyone twice, any of a table's
three splits is as good for the night, so the season decides).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.domain.rotation_chart import OPPONENT_SEATS, PARTNER_SEATS, Round
from tournaments.domain.rotation_search import LabelFit, SearchGoal, SeatSearch

__all__ = [
    "SeasonHistory",
    "SeasonReport",
    "SeasonWeights",
    "partner_strength_spread",
    "season_fit",
    "season_report",
]

SEASON_WEIGHT_PARTNER = 8
"""Per step of a season partnership count: a repeat partner is what players notice most."""

SEASON_WEIGHT_TOGETHER = 16
"""Per earlier night two players both came without ever partnering: a pull towards the pairs
kept apart longest, so that nobody goes a season unpartnered with someone they always meet. One
night together pulls as hard as a second partnership costs (8 × 2): of 1, 3, 5, 8 and 16 tried
on the seasons of ``benchmarks/bench_season_fairness.py``, 16 left the fewest repeats beyond
the forced ones."""

SEASON_WEIGHT_SIT_OUT = 16
"""Per step of a season sit-out count: byes go to whoever sat out least (as heavy as the pull of
a night together, so that the pull never hands the byes unevenly)."""

SEASON_WEIGHT_OPPONENT = 1
"""Per earlier opposing of a pair: opposing someone again matters least (linear, so that the
season's many opposings never outweigh a partnership)."""

SEASON_MOVES_PER_PLAYER = 160
"""Swap attempts of the season relabelling per player present (about a tenth of a second for
40 players)."""

SEASON_POLISH_MOVES_PER_PLAYER = 300
"""Seat swaps tried by the season polish per player present (most are refused at once)."""


def _step(count: int) -> int:
    """The cost of one more meeting of a kind already had ``count`` times: 0, 2, 6, 12, … (the
    growth of ``count * (count + 1)``), so the season's counts are kept low and even."""
    return count * (count + 1)


@dataclass(frozen=True)
class SeasonHistory:
    """Everything the season's earlier nights hold that a plan weighs (all keyed by player).

    ``partners`` and ``opponents`` count games together per unordered pair; ``together`` the
    earlier nights both players of a pair came (an empty mapping: not known, every pair counts
    as never together); ``sit_outs`` the rounds a player sat out on nights they came;
    ``ratings`` each player's rating (players without one count at ``default_rating``).
    """

    partners: Mapping[frozenset[int], int] = field(default_factory=dict)
    opponents: Mapping[frozenset[int], int] = field(default_factory=dict)
    sit_outs: Mapping[int, int] = field(default_factory=dict)
    ratings: Mapping[int, float] = field(default_factory=dict)
    default_rating: float = 0.0
    together: Mapping[frozenset[int], int] = field(default_factory=dict)

    @property
    def is_empty(self) -> bool:
        return not (self.partners or self.opponents or self.sit_outs or self.together)

    def rating(self, player: int) -> float:
        return self.ratings.get(player, self.default_rating)


@dataclass(frozen=True)
class SeasonWeights:
    """The season history of tonight's players ``0..N-1`` as the searches weigh it.

    ``partner_cost`` and ``opponent_cost`` (flat ``x * N + y``, symmetric) are the season cost
    of one more partnership, or opposing, of a pair tonight; ``sit_outs`` the season's sit-outs
    per player; ``ratings`` per player (``None``: no strength balance), with ``rating_sums`` and
    ``rating_counts`` the season's partner ratings so far per player.
    """

    size: int
    partner_cost: list[int]
    opponent_cost: list[int]
    sit_outs: list[int]
    ratings: list[float] | None
    rating_sums: list[float]
    rating_counts: list[int]

    @classmethod
    def of(cls, history: SeasonHistory, names: Sequence[int], *, balance: bool) -> SeasonWeights:
        """Weights for the players ``names`` (``names[i]`` is player ``i``)."""
        size = len(names)
        index = {name: position for position, name in enumerate(names)}
        counts: dict[str, list[int]] = {}
        for kind, source in (
            ("partners", history.partners),
            ("opponents", history.opponents),
            ("together", history.together),
        ):
            flat = counts[kind] = [0] * (size * size)
            for pair, count in source.items():
                members = [index[p] for p in pair if p in index]
                if len(members) == 2:
                    x, y = members
                    flat[x * size + y] += count
                    flat[y * size + x] += count
        partner_cost = [
            SEASON_WEIGHT_PARTNER * _step(partnered)
            if partnered
            else -SEASON_WEIGHT_TOGETHER * together
            for partnered, together in zip(counts["partners"], counts["together"], strict=True)
        ]
        opponent_cost = [SEASON_WEIGHT_OPPONENT * count for count in counts["opponents"]]
        ratings = None
        rating_sums = [0.0] * size
        rating_counts = [0] * size
        if balance:
            ratings = [history.rating(name) for name in names]
            for pair, count in history.partners.items():
                members = list(pair)
                if len(members) != 2:
                    continue
                x, y = members
                for player, mate in ((x, y), (y, x)):
                    if player in index:
                        rating_sums[index[player]] += count * history.rating(mate)
                        rating_counts[index[player]] += count
        return cls(
            size=size,
            partner_cost=partner_cost,
            opponent_cost=opponent_cost,
            sit_outs=[history.sit_outs.get(name, 0) for name in names],
            ratings=ratings,
            rating_sums=rating_sums,
            rating_counts=rating_counts,
        )

    def sit_out_cost(self, player: int, tonight: int) -> int:
        """The season cost of ``player``'s next sit-out after ``tonight`` sit-outs tonight."""
        return SEASON_WEIGHT_SIT_OUT * _step(self.sit_outs[player] + tonight)


def _partner_lists(rounds: Sequence[Round], size: int) -> tuple[list[list[int]], list[list[int]]]:
    """Per place: the places it partners, and the places it opposes, over ``rounds``."""
    partners: list[list[int]] = [[] for _ in range(size)]
    opponents: list[list[int]] = [[] for _ in range(size)]
    for round_ in rounds:
        for table in round_.tables:
            for first, second in PARTNER_SEATS:
                partners[table[first]].append(table[second])
                partners[table[second]].append(table[first])
            for first, second in OPPONENT_SEATS:
                opponents[table[first]].append(table[second])
                opponents[table[second]].append(table[first])
    return partners, opponents


class SeasonFit(LabelFit):
    """Relabelling a finished plan (places ``0..N-1``) for the season, never worse for the night.

    The season's ``weights`` are per player; the plan's places are given to players by swaps.
    """

    def __init__(self, goal: SearchGoal, rounds: Sequence[Round], weights: SeasonWeights) -> None:
        super().__init__(goal, rounds)
        size = self.size
        self.weights = weights
        self.place_partners, self.place_opponents = _partner_lists(rounds, size)
        self.player_at = list(range(size))
        ratings = weights.ratings
        # Per player: the mean rating of everyone else here, the fairest average partner.
        total = sum(ratings) if ratings else 0.0
        self.rating_target = [
            (total - rating) / (size - 1) if size > 1 else rating for rating in ratings or ()
        ]
        # Without constraints or played rounds a relabelling cannot change the night's cost.
        self.night_matters = bool(
            self.interesting
            or goal.keep_apart
            or goal.separated
            or goal.together
            or goal.stationary
        )

    def _season_cost(self, player: int, other: int) -> tuple[int, int]:
        """The season cost of ``player``'s place (pairs with ``other`` left out: a swap of the
        two keeps them): partners and sit-outs, then opponents."""
        weights = self.weights
        place = self.chart_of[player]
        player_at = self.player_at
        row = player * self.size
        cost = 0
        partner_cost = weights.partner_cost
        for mate_place in self.place_partners[place]:
            mate = player_at[mate_place]
            if mate != other:
                cost += partner_cost[row + mate]
        for extra in range(self.byes[place]):
            cost += weights.sit_out_cost(player, extra)
        opposing = 0
        opponent_cost = weights.opponent_cost
        for mate_place in self.place_opponents[place]:
            mate = player_at[mate_place]
            if mate != other:
                opposing += opponent_cost[row + mate]
        return cost, opposing

    def _pair_season_cost(self, a: int, b: int) -> tuple[int, int]:
        first, second = self._season_cost(a, b), self._season_cost(b, a)
        return first[0] + second[0], first[1] + second[1]

    def _strength(self, player: int) -> float:
        """(average partner rating − everyone else's mean rating)² of ``player``, tonight's
        partners included."""
        ratings = self.weights.ratings
        assert ratings is not None
        place = self.chart_of[player]
        total = self.weights.rating_sums[player]
        count = self.weights.rating_counts[player]
        for mate_place in self.place_partners[place]:
            total += ratings[self.player_at[mate_place]]
            count += 1
        if not count:
            return 0.0
        return (total / count - self.rating_target[player]) ** 2

    def _strength_of(self, players: set[int]) -> float:
        return sum(self._strength(player) for player in players)

    def _touched(self, a: int, b: int) -> set[int]:
        touched = {a, b}
        for player in (a, b):
            for mate_place in self.place_partners[self.chart_of[player]]:
                touched.add(self.player_at[mate_place])
        return touched

    def _swap(self, a: int, b: int) -> None:
        chart_of, player_at = self.chart_of, self.player_at
        chart_of[a], chart_of[b] = chart_of[b], chart_of[a]
        player_at[chart_of[a]], player_at[chart_of[b]] = a, b

    def _night_cost(self, a: int, b: int) -> int:
        if not self.night_matters:
            return 0
        return self._player_cost(a, b) + self._player_cost(b, a) + self._group_cost((a, b))

    def search(self, generator: random.Random, moves: int, *, balance: bool) -> None:
        """Swap places, never worse for the night. Without ``balance``: annealing on the season
        cost. With it: partner strength among swaps that leave the season's partners and
        sit-outs as they are (season opponents break ties)."""
        size = self.size
        if size < 2:
            return
        use_strength = balance and self.weights.ratings is not None
        start_temperature, end_temperature = 6.0, 0.3
        best = (0, 0, 0.0, 0)  # night, repeats, strength, opponents: relative to the start
        best_places = list(self.chart_of)
        current = best
        for move in range(moves):
            temperature = start_temperature * (end_temperature / start_temperature) ** (
                move / moves
            )
            a, b = generator.sample(range(size), 2)
            if self.chart_of[a] == self.chart_of[b]:
                continue
            night_before = self._night_cost(a, b)
            repeats_before, opposing_before = self._pair_season_cost(a, b)
            touched = self._touched(a, b) if use_strength else set()
            self._swap(a, b)
            night_delta = self._night_cost(a, b) - night_before
            repeats_after, opposing_after = self._pair_season_cost(a, b)
            repeats_delta = repeats_after - repeats_before
            opposing_delta = opposing_after - opposing_before
            strength_delta = 0.0
            if use_strength:
                touched |= self._touched(a, b)
                strength_after = self._strength_of(touched)
                self._swap(a, b)
                strength_delta = strength_after - self._strength_of(touched)
                self._swap(a, b)
                accept = night_delta < 0 or (
                    night_delta == 0
                    and (
                        repeats_delta < 0
                        or (
                            repeats_delta == 0
                            and (
                                strength_delta < -1e-9
                                or (strength_delta <= 1e-9 and opposing_delta <= 0)
                            )
                        )
                    )
                )
            else:
                season_delta = repeats_delta + opposing_delta
                accept = night_delta < 0 or (
                    night_delta == 0
                    and (
                        season_delta <= 0
                        or generator.random() < math.exp(-season_delta / temperature)
                    )
                )
            if not accept:
                self._swap(a, b)
                continue
            current = (
                current[0] + night_delta,
                current[1] + repeats_delta + (0 if use_strength else opposing_delta),
                current[2] + strength_delta,
                current[3] + (opposing_delta if use_strength else 0),
            )
            if current < best:
                best, best_places = current, list(self.chart_of)
        if list(self.chart_of) != best_places:
            self.chart_of = best_places
            for player, place in enumerate(best_places):
                self.player_at[place] = player

    def spread(self) -> float | None:
        """The spread of average partner rating over the players with any partner."""
        ratings = self.weights.ratings
        if ratings is None:
            return None
        averages = []
        for player in range(self.size):
            place = self.chart_of[player]
            total = self.weights.rating_sums[player]
            count = self.weights.rating_counts[player]
            for mate_place in self.place_partners[place]:
                total += ratings[self.player_at[mate_place]]
                count += 1
            if count:
                averages.append(total / count)
        return max(averages) - min(averages) if averages else 0.0

    def relabelled(self) -> list[Round]:
        player_at = self.player_at
        return [
            Round(
                tables=tuple(tuple(player_at[p] for p in table) for table in round_.tables),
                byes=tuple(player_at[p] for p in round_.byes),
            )
            for round_ in self.rounds
        ]


@dataclass(frozen=True)
class SeasonFitResult:
    """The relabelled rounds, and the partner-strength spread before and after balancing."""

    rounds: list[Round]
    spread_before_balance: float | None
    spread_after_balance: float | None


def season_fit(
    goal: SearchGoal,
    rounds: Sequence[Round],
    names: Sequence[int],
    history: SeasonHistory,
    *,
    balance: bool,
    generator: random.Random,
) -> SeasonFitResult:
    """Relabel ``rounds`` (places ``0..N-1``, ``names[i]`` the player of index ``i``) for the
    season, then polish its seats: first the fewest season repeats, then, with ``balance``,
    partner strength."""
    size = len(names)
    weights = SeasonWeights.of(history, names, balance=balance)
    moves = SEASON_MOVES_PER_PLAYER * size
    polish_moves = SEASON_POLISH_MOVES_PER_PLAYER * size
    fit = SeasonFit(goal, rounds, weights)
    fit.search(generator, moves, balance=False)
    polished = season_polish(
        goal, fit.relabelled(), weights, generator=generator, moves=polish_moves
    )
    fit = SeasonFit(goal, polished, weights)
    before = fit.spread()
    if not balance or weights.ratings is None:
        return SeasonFitResult(
            rounds=fit.relabelled(), spread_before_balance=before, spread_after_balance=before
        )
    unbalanced = fit.relabelled()
    fit.search(generator, moves, balance=True)
    evened = season_polish(
        goal,
        fit.relabelled(),
        weights,
        generator=generator,
        moves=polish_moves,
        strength=PartnerStrength(weights),
    )
    after = SeasonFit(goal, evened, weights).spread()
    if after is not None and before is not None and after > before:
        # The search evens squared distances to the room's mean; where that widened the gap
        # between the extremes, the plan before balancing is kept.
        return SeasonFitResult(
            rounds=unbalanced, spread_before_balance=before, spread_after_balance=before
        )
    return SeasonFitResult(rounds=evened, spread_before_balance=before, spread_after_balance=after)


def season_polish(
    goal: SearchGoal,
    rounds: Sequence[Round],
    weights: SeasonWeights,
    *,
    generator: random.Random,
    moves: int,
    strength: PartnerStrength | None = None,
) -> list[Round]:
    """Swap two players within one round where the night stays exactly as good and the season
    gains: the swap's cost for the night is unchanged, and so is the multiset of partner and
    opponent counts of the pairs it touches and of the two players' sit-outs, so every count of
    the night's report stays the same. Only who meets whom changes, towards fewer season
    repeats (the same linear costs as ``SeasonFit``). A swap within one table changes who
    partners whom there. With ``strength``, a swap that keeps the season's partners and
    sit-outs as they are is taken when it evens partner strength (season opponents break
    ties)."""
    search = SeatSearch(goal, rounds)
    size, seat_count = search.size, search.seat_count
    round_count = len(search.seats)
    if not round_count or size < 5:
        return list(rounds)
    if strength is not None:
        strength.count(search.rounds())
    partner_cost, opponent_cost = weights.partner_cost, weights.opponent_cost
    randrange = generator.randrange
    for _ in range(moves):
        round_index = randrange(round_count)
        first, second = randrange(seat_count), randrange(size)
        if first == second or (first // 4 == second // 4 and (first - second) % 4 == 2):
            continue  # the same player, or partners trading seats: nothing changes
        order = search.seats[round_index]
        delta, changes = search.swap_delta(round_index, first, second)
        if delta:
            continue
        partners, opponents = search.partners, search.opponents
        before = sorted((partners[i], opponents[i]) for i in changes)
        after = sorted(
            (partners[i] + change[0], opponents[i] + change[1]) for i, change in changes.items()
        )
        if before != after:
            continue
        gain = opposing = 0
        for index, (partner_change, opponent_change) in changes.items():
            gain += partner_change * partner_cost[index]
            opposing += opponent_change * opponent_cost[index]
        if second >= seat_count:
            joining, leaving = order[first], order[second]
            tonight = search.sit_outs
            if tonight[leaving] != tonight[joining] + 1:
                continue  # the sit-outs' multiset would change
            gain += weights.sit_out_cost(joining, tonight[joining]) - weights.sit_out_cost(
                leaving, tonight[leaving] - 1
            )
        if strength is None:
            if gain + opposing <= 0:
                search.apply_swap(round_index, first, second, changes)
            continue
        evener, updates = strength.swap_delta(order, first, second, seat_count)
        if gain < 0 or (gain == 0 and (evener < -1e-9 or (evener <= 1e-9 and opposing <= 0))):
            search.apply_swap(round_index, first, second, changes)
            strength.apply(updates)
    return search.rounds()


class PartnerStrength:
    """Each player's partner ratings (season so far plus a night's rounds) for the polish."""

    def __init__(self, weights: SeasonWeights) -> None:
        ratings = weights.ratings
        if ratings is None:
            raise ValueError("partner strength needs ratings")
        size = len(ratings)
        total = sum(ratings)
        self.ratings = ratings
        self.season_sums, self.season_counts = weights.rating_sums, weights.rating_counts
        self.target = [(total - r) / (size - 1) if size > 1 else r for r in ratings]
        self.sums = list(self.season_sums)
        self.counts = list(self.season_counts)

    def count(self, rounds: Sequence[Round]) -> None:
        self.sums, self.counts = list(self.season_sums), list(self.season_counts)
        for round_ in rounds:
            for table in round_.tables:
                for first, second in PARTNER_SEATS:
                    x, y = table[first], table[second]
                    self.sums[x] += self.ratings[y]
                    self.sums[y] += self.ratings[x]
                    self.counts[x] += 1
                    self.counts[y] += 1

    def _cost(self, player: int, total: float, count: int) -> float:
        return (total / count - self.target[player]) ** 2 if count else 0.0

    def swap_delta(
        self, order: list[int], first: int, second: int, seat_count: int
    ) -> tuple[float, dict[int, tuple[float, int]]]:
        """The change of the evenness cost if the players at ``first`` (a seat) and ``second``
        (a seat or a bye) of a round's ``order`` swap, and each touched player's new sum and
        count of partner ratings."""
        ratings = self.ratings
        x, y = order[first], order[second]
        moves: dict[int, list[float]] = {}

        def change(player: int, rating: float, count: int) -> None:
            entry = moves.setdefault(player, [0.0, 0])
            entry[0] += rating
            entry[1] += count

        partner_of_x = order[first ^ 2]
        change(x, -ratings[partner_of_x], -1)
        change(y, ratings[partner_of_x], 1)
        change(partner_of_x, ratings[y] - ratings[x], 0)
        if second < seat_count:
            partner_of_y = order[second ^ 2]
            change(y, -ratings[partner_of_y], -1)
            change(x, ratings[partner_of_y], 1)
            change(partner_of_y, ratings[x] - ratings[y], 0)
        delta = 0.0
        updates = {}
        for player, (rating, count) in moves.items():
            total, games = self.sums[player] + rating, self.counts[player] + count
            delta += self._cost(player, total, games)
            delta -= self._cost(player, self.sums[player], self.counts[player])
            updates[player] = (total, games)
        return delta, updates

    def apply(self, updates: dict[int, tuple[float, int]]) -> None:
        for player, (total, games) in updates.items():
            self.sums[player], self.counts[player] = total, games


@dataclass(frozen=True)
class SeasonReport:
    """A plan's figures over the season (earlier nights plus tonight), among tonight's players.

    ``repeat_partnerships``: tonight's partnerships of pairs who partnered earlier this season;
    ``most_partnered``: the most games any pair of tonight's players has partnered this season;
    ``sit_outs_fewest``/``_most``: season sit-outs per player present; the partner-strength
    spreads are ``None`` without the balance option.
    """

    nights_before: int
    repeat_partnerships: int
    repeat_oppositions: int
    most_partnered: int
    most_partnered_before: int
    sit_outs_fewest: int
    sit_outs_most: int
    partner_strength_spread_before_balance: float | None
    partner_strength_spread: float | None

    def as_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def partner_strength_spread(
    rounds: Sequence[Round], players: Sequence[int], history: SeasonHistory
) -> float:
    """The spread of average partner rating over ``players`` (season so far plus ``rounds``)."""
    totals = {player: 0.0 for player in players}
    counts = dict.fromkeys(players, 0)
    for pair, count in history.partners.items():
        x, y = tuple(pair)
        for player, mate in ((x, y), (y, x)):
            if player in totals:
                totals[player] += count * history.rating(mate)
                counts[player] += count
    for round_ in rounds:
        for table in round_.tables:
            for first, second in PARTNER_SEATS:
                for player, mate in ((table[first], table[second]), (table[second], table[first])):
                    if player in totals:
                        totals[player] += history.rating(mate)
                        counts[player] += 1
    averages = [totals[p] / counts[p] for p in players if counts[p]]
    return max(averages) - min(averages) if averages else 0.0


def season_report(
    rounds: Sequence[Round],
    players: Sequence[int],
    history: SeasonHistory,
    *,
    nights_before: int = 0,
    spread_before_balance: float | None = None,
    balance: bool = False,
) -> SeasonReport:
    """Count the season's figures of a plan's ``rounds`` for the ``players`` present."""
    present = set(players)
    partners = {pair: count for pair, count in history.partners.items() if pair <= present}
    most_before = max(partners.values(), default=0)
    repeat_partnerships = repeat_oppositions = 0
    tonight: dict[frozenset[int], int] = {}
    sit_outs = {player: history.sit_outs.get(player, 0) for player in players}
    for round_ in rounds:
        for table in round_.tables:
            for first, second in PARTNER_SEATS:
                pair = frozenset((table[first], table[second]))
                repeat_partnerships += partners.get(pair, 0) > 0
                tonight[pair] = tonight.get(pair, 0) + 1
            for first, second in OPPONENT_SEATS:
                pair = frozenset((table[first], table[second]))
                repeat_oppositions += history.opponents.get(pair, 0) > 0
        for player in round_.byes:
            if player in sit_outs:
                sit_outs[player] += 1
    most = max(
        (partners.get(pair, 0) + count for pair, count in tonight.items() if pair <= present),
        default=0,
    )
    spread = partner_strength_spread(rounds, players, history) if balance else None
    return SeasonReport(
        nights_before=nights_before,
        repeat_partnerships=repeat_partnerships,
        repeat_oppositions=repeat_oppositions,
        most_partnered=max(most, most_before),
        most_partnered_before=most_before,
        sit_outs_fewest=min(sit_outs.values(), default=0),
        sit_outs_most=max(sit_outs.values(), default=0),
        partner_strength_spread_before_balance=spread_before_balance if balance else None,
        partner_strength_spread=spread,
    )
