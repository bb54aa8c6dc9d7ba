"""Partner rotations for individual (progressive) euchre nights: build, repair, and judge them.

Words used here and in the ``rotation_*`` modules beside this one:

- *player*: anyone taking part, named by an arbitrary integer (a database id).
- *game*: four players at a table, listed clockwise ``[a, b, c, d]``: ``a`` and ``c`` are
  *partners* against ``b`` and ``d``; each of a, c is an *opponent* of each of b, d. Seat 0
  (``a``) deals first. ``b`` sits on ``a``'s left (play passes clockwise, to the left).
- *round*: one sitting: every table plays one game; the players left over have a *bye* (sit
  out). With N players a round has N // 4 tables and N mod 4 byes.
- *rotation*: the rounds of a night, in order.
- *meeting*: two players at the same table in one round, as partners or as opponents.
- *full cycle*: N - 1 rounds for N = 4n players, N rounds otherwise: the length over which
  everyone can partner everyone once (or all but one or two people, for N = 4n + 2 or 4n + 3).
- *bound*: the best any rotation can do for the players and rounds asked (``/shared/ROTATIONS.md``):
  - N = 4n or 4n + 1 over the full cycle: a *whist chart*: partners exactly once and opponents
    exactly twice for every pair; one bye each for 4n + 1.
  - N = 4n + 2 or 4n + 3 over the full cycle: partners at most once, opponents at most twice,
    and only N (for 4n + 2) or 2N (for 4n + 3) pairs who oppose once instead of twice; every
    player sits out N mod 4 times.
  - a shorter night: partners at most once, opponents at most twice, byes within one of each
    other; and within the *social-golfer bound* (at most (N - 1) // 3 rounds), nobody meets
    anyone twice, when that is achievable (for small N it often is not: 8 players over 2 rounds
    must meet someone again).
- *keep apart*: a pair (a couple, rivals) who must never partner and should never share a
  table. *Fixed table*: a player who must always play at one table number (accessibility).
- *repair*: re-planning the rest of a night after a late arrival, a leaver or a substitute; the
  rounds already played stay exactly as they were.

Public API: ``build_rotation``, ``replan_rotation``, ``rotation_report``, ``full_cycle_length``
and the plain data classes ``Round``, ``Rotation``, ``RotationReport``. How it works: charts for
the full cycle come from stored cyclic starting rounds (``whist_bases``, verified by counting in
the tests); shorter nights choose their rounds from the chart, or, within the social-golfer
bound, from a design where one is known (``rotation_designs``); a conflict-directed tabu
search regroups short nights' tables until nobody meets anyone twice (``rotation_fresh``);
constraints and repairs are finished by a seeded simulated annealing over seats, and byes still
uneven are handed on swap by swap (``rotation_search``); a last cheap pass seats the fixed
games (``rotation_seating``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import asdict, dataclass

from core.errors import DomainError
from tournaments.domain.rotation_chart import (
    MeetingCounts,
    Rotation,
    Round,
    byes_per_round,
    cyclic_chart,
    full_cycle_length,
    relabel,
    social_golfer_bound,
)
from tournaments.domain.rotation_designs import design_rounds
from tournaments.domain.rotation_fresh import fresh_meeting_rounds
from tournaments.domain.rotation_search import (
    WEIGHT_SIT_OUT,
    LabelFit,
    SearchGoal,
    SeatSearch,
    choose_rounds,
)
from tournaments.domain.rotation_season import SeasonHistory, season_fit
from tournaments.domain.rotation_seating import LEFT_PAIRS, seat_rounds

__all__ = [
    "MAXIMUM_PLAYERS",
    "MINIMUM_PLAYERS",
    "PlannedNight",
    "Rotation",
    "RotationReport",
    "Round",
    "SeasonHistory",
    "build_rotation",
    "full_cycle_length",
    "plan_rotation",
    "replan_rotation",
    "rotation_report",
]

MINIMUM_PLAYERS = 4
MAXIMUM_PLAYERS = 64
"""The stored charts cover 4 to 64 players (16 tables)."""

SEARCH_MOVES = 60_000
"""Swap attempts of the seat search (about a second of pure Python on one core)."""

FRESH_SEARCH_WORK = 150_000
"""Moves of the fresh-meeting search on a short night, times the number of players (each move
tries every swap of one player, so work grows with the room; about a second at most)."""

FRESH_SEARCH_MOVES = 3_000
"""At most this many moves, whatever the size: small rooms that cannot keep meetings fresh
should not search for long."""


def build_rotation(
    players: Sequence[int],
    rounds: int | None = None,
    *,
    seed: int = 0,
    keep_apart: Collection[frozenset[int]] = (),
    fixed_table: Mapping[int, int] | None = None,
    called: Mapping[int, str] | None = None,
    stationary: Collection[int] = (),
    history: SeasonHistory | None = None,
    balance_partner_strength: bool = False,
) -> Rotation:
    """A rotation for ``players`` over ``rounds`` rounds (the full cycle when ``None``).

    The same arguments and ``seed`` always give the same rotation. ``keep_apart`` pairs never
    partner and, as far as possible, never share a table; ``fixed_table`` maps a player to the
    table number (1 = first table) they must always play at. Raises ``DomainError`` when the
    players, rounds or constraints are impossible; its message names players by ``called``
    (a player's name) where given, else as "player 17".

    ``stationary`` players (each with a ``fixed_table``, at most one a table) keep their table and
    seat all night and never sit out. ``history`` is the season so far: among the plans equally
    good for the night, the one with the fewest season repeats is chosen, and with
    ``balance_partner_strength`` then the one with the most even average partner rating
    (``tournaments.domain.rotation_season``).
    """
    return plan_rotation(
        players,
        rounds,
        seed=seed,
        keep_apart=keep_apart,
        fixed_table=fixed_table,
        called=called,
        stationary=stationary,
        history=history,
        balance_partner_strength=balance_partner_strength,
    ).rotation


def replan_rotation(
    played: Sequence[Round],
    players: Sequence[int],
    total_rounds: int,
    *,
    seed: int = 0,
    keep_apart: Collection[frozenset[int]] = (),
    fixed_table: Mapping[int, int] | None = None,
    called: Mapping[int, str] | None = None,
    stationary: Collection[int] = (),
    history: SeasonHistory | None = None,
    balance_partner_strength: bool = False,
) -> Rotation:
    """The night re-planned for a new list of ``players`` after the rounds ``played``.

    The played rounds come back unchanged, followed by ``total_rounds - len(played)`` new rounds
    for ``players``, chosen so that repeats over the whole night stay as few as possible. A
    substitute is a new player: the meetings of the person they replace stay with that person.
    Sit-outs are evened over the night counting rounds a late arrival missed, so late arrivals
    sit out last.
    """
    return plan_rotation(
        players,
        total_rounds,
        played=played,
        seed=seed,
        keep_apart=keep_apart,
        fixed_table=fixed_table,
        called=called,
        stationary=stationary,
        history=history,
        balance_partner_strength=balance_partner_strength,
    ).rotation


def plan_rotation(
    players: Sequence[int],
    rounds: int | None = None,
    *,
    played: Sequence[Round] = (),
    seed: int = 0,
    keep_apart: Collection[frozenset[int]] = (),
    fixed_table: Mapping[int, int] | None = None,
    called: Mapping[int, str] | None = None,
    stationary: Collection[int] = (),
    history: SeasonHistory | None = None,
    balance_partner_strength: bool = False,
) -> PlannedNight:
    """``build_rotation`` (no ``played``) or ``replan_rotation``, with the partner-strength
    spread before and after balancing (``PlannedNight``)."""
    if played and (rounds is None or rounds < len(played)):
        raise DomainError(
            f"{len(played)} rounds are already played; the night cannot end after {rounds}",
            field="total_rounds",
        )
    return _plan(
        played=tuple(played),
        players=players,
        total_rounds=rounds,
        seed=seed,
        keep_apart=keep_apart,
        fixed_table=fixed_table or {},
        called=called or {},
        stationary=stationary,
        history=history,
        balance=balance_partner_strength,
    )


@dataclass(frozen=True)
class PlannedNight:
    """A planned rotation, and its average-partner-rating spread (season so far plus tonight)
    before and after the strength balance (``None`` without it)."""

    rotation: Rotation
    spread_before_balance: float | None = None
    spread_after_balance: float | None = None


def _plan(
    *,
    played: tuple[Round, ...],
    players: Sequence[int],
    total_rounds: int | None,
    seed: int,
    keep_apart: Collection[frozenset[int]],
    fixed_table: Mapping[int, int],
    called: Mapping[int, str],
    stationary: Collection[int] = (),
    history: SeasonHistory | None = None,
    balance: bool = False,
) -> PlannedNight:
    def name(player: int) -> str:
        return called.get(player) or f"player {player}"

    names = _check_players(players)
    size = len(names)
    full = full_cycle_length(size)
    if total_rounds is None:
        total_rounds = full
    remaining = total_rounds - len(played)
    if not played and not 1 <= total_rounds <= full:
        raise DomainError(
            f"{size} players can play 1 to {full} rounds without repeating partners; "
            f"{total_rounds} were asked",
            field="rounds",
        )
    if remaining == 0:
        return PlannedNight(rotation=Rotation(rounds=played))
    index = {name: position for position, name in enumerate(names)}
    keep = _check_keep_apart(keep_apart, index, name)
    fixed = _check_fixed_table(fixed_table, index, size, name)
    staying = _check_stationary(stationary, index, fixed, name)
    separated, together = _fixed_table_pairs(fixed)
    generator = random.Random(seed)
    short_night = total_rounds <= social_golfer_bound(size)

    base = MeetingCounts(size)
    base_sit_outs = [0] * size
    for round_ in played:
        playing = {p for table in round_.tables for p in table}
        for name in names:
            if name not in playing:
                base_sit_outs[index[name]] += 1
        tables = tuple(table for table in round_.tables if all(p in index for p in table))
        base.add_round(Round(tables=tuple(tuple(index[p] for p in t) for t in tables)))
        for table in round_.tables:
            _count_partial_table(base, table, index)

    fresh = design_rounds(size) if short_night and not played else ()
    chart = list(fresh) if remaining <= len(fresh) else list(cyclic_chart(size))
    while len(chart) < remaining:
        chart += list(cyclic_chart(size))
    labels = list(range(size))
    generator.shuffle(labels)
    unlabel = [0] * size
    for chart_player, real in enumerate(labels):
        unlabel[real] = chart_player
    base_meetings_in_chart = [0] * (size * size)
    base_sit_outs_in_chart = [0] * size
    for x in range(size):
        base_sit_outs_in_chart[unlabel[x]] = base_sit_outs[x]
        for y in range(size):
            count = base.partners[x * size + y] + base.opponents[x * size + y]
            if count:
                base_meetings_in_chart[unlabel[x] * size + unlabel[y]] = count
    chosen = choose_rounds(
        chart,
        size,
        remaining,
        generator=generator,
        base_meetings=base_meetings_in_chart if played else None,
        base_sit_outs=base_sit_outs_in_chart if played else None,
    )
    planned = relabel([chart[r] for r in chosen], labels)

    goal = SearchGoal(
        player_count=size,
        short_night=short_night,
        keep_apart=keep,
        separated=separated,
        together=together,
        base_partners=base.partners if played else None,
        base_opponents=base.opponents if played else None,
        base_sit_outs=base_sit_outs if played else None,
        stationary=frozenset(staying),
    )
    if keep or separated or together or played or staying:
        planned = _fit_labels(planned, goal, generator)
    if short_night:
        planned = _freshen(planned, goal, base, generator)
    good_enough = _least_possible_cost(goal, planned, remaining)
    search = SeatSearch(goal, planned)
    if search.cost > good_enough:
        search.anneal(
            generator,
            SEARCH_MOVES,
            start_temperature=60.0 if short_night else 30.0,
            end_temperature=0.5,
            good_enough=good_enough,
            partnership_share=0.0 if short_night else 0.5,
        )
        planned = search.rounds()
    if search.even_sit_outs():
        if search.cost > good_enough:
            search.anneal(
                generator,
                SEARCH_MOVES // 4,
                start_temperature=5.0,
                end_temperature=0.5,
                good_enough=good_enough,
            )
        planned = search.rounds()
    _check_hard_rules(search, names, fixed, name)
    spreads: tuple[float | None, float | None] = (None, None)
    if history is not None and (not history.is_empty or balance):
        fitted = season_fit(goal, planned, names, history, balance=balance, generator=generator)
        planned = fitted.rounds
        spreads = (fitted.spread_before_balance, fitted.spread_after_balance)
        _check_hard_rules(SeatSearch(goal, planned), names, fixed, name)
    named = relabel(planned, names)
    seated = seat_rounds(
        played,
        named,
        generator=generator,
        fixed_table=fixed_table,
        stationary={names[p] for p in staying},
    )
    return PlannedNight(
        rotation=Rotation(rounds=played + tuple(seated)),
        spread_before_balance=spreads[0],
        spread_after_balance=spreads[1],
    )


def _count_partial_table(
    base: MeetingCounts, table: tuple[int, ...], index: Mapping[int, int]
) -> None:
    """Count the meetings at a played table of which only some players are still here."""
    if all(p in index for p in table):
        return
    size = base.size
    for first in range(4):
        for second in range(first + 1, 4):
            x, y = table[first], table[second]
            if x not in index or y not in index:
                continue
            a, b = index[x], index[y]
            counts = base.partners if second - first == 2 else base.opponents
            counts[a * size + b] += 1
            counts[b * size + a] += 1


def _least_possible_cost(goal: SearchGoal, planned: Sequence[Round], rounds: int) -> int:
    """A cost at which the seat search may stop: nothing better is possible.

    Sit-outs can at best be even. On short nights pairs can at best never meet twice. On longer
    nights the plan chosen from a stored chart is already at the bound when nothing is
    constrained, so its own cost (with constraints ignored) is the target.
    """
    size = goal.player_count
    sit_outs = list(goal.base_sit_outs) if goal.base_sit_outs else [0] * size
    movable = [player for player in range(size) if player not in goal.stationary]
    for _ in range(rounds * byes_per_round(size)):
        least = min(movable, key=lambda player: sit_outs[player])
        sit_outs[least] += 1
    least_sit_out_cost = WEIGHT_SIT_OUT * sum(count * count for count in sit_outs)
    if goal.short_night:
        return least_sit_out_cost
    if goal.base_partners:
        return least_sit_out_cost
    plain = SeatSearch(SearchGoal(player_count=size, short_night=False), planned)
    plain_sit_out_cost = WEIGHT_SIT_OUT * sum(count * count for count in plain.sit_outs)
    return plain.cost - plain_sit_out_cost + least_sit_out_cost


def _freshen(
    planned: list[Round], goal: SearchGoal, base: MeetingCounts, generator: random.Random
) -> list[Round]:
    """Regroup a short night's tables so that nobody meets anyone twice (``rotation_fresh``).

    A regrouping that still repeats meetings is kept only when no pair meets three times, so
    that the seat search can still keep partners to once and opponents to twice.
    """
    size = goal.player_count
    base_meetings = None
    if goal.base_partners:
        base_meetings = [p + o for p, o in zip(base.partners, base.opponents, strict=True)]
    regrouped, repeats = fresh_meeting_rounds(
        planned,
        size,
        generator=generator,
        moves=min(FRESH_SEARCH_MOVES, FRESH_SEARCH_WORK // size),
        base_meetings=base_meetings,
        keep_apart=goal.keep_apart,
        separated=goal.separated,
        immovable={player for group in goal.together for player in group},
    )
    if repeats == 0:
        return regrouped
    meetings = MeetingCounts(size)
    meetings.add_rounds(regrouped)
    most = max(
        (base.partners[i] + base.opponents[i] + meetings.partners[i] + meetings.opponents[i])
        for i in range(size * size)
    )
    return regrouped if most <= 2 else planned


def _fit_labels(planned: list[Round], goal: SearchGoal, generator: random.Random) -> list[Round]:
    """Rename players so that constraints and played meetings fit the plan (``LabelFit``)."""
    moves = 3000 if goal.base_partners else 1500
    return LabelFit(goal, planned).improve(generator, moves)


def _check_players(players: Sequence[int]) -> list[int]:
    names = list(players)
    if len(set(names)) != len(names):
        raise DomainError("a player is listed twice", field="players")
    if len(names) < MINIMUM_PLAYERS:
        raise DomainError("a rotation needs at least 4 players", field="players")
    if len(names) > MAXIMUM_PLAYERS:
        raise DomainError(
            f"a rotation takes at most {MAXIMUM_PLAYERS} players; split the room into two",
            field="players",
        )
    return names


def _check_keep_apart(
    keep_apart: Collection[frozenset[int]], index: Mapping[int, int], name: Callable[[int], str]
) -> set[tuple[int, int]]:
    pairs = set()
    for pair in keep_apart:
        members = sorted(set(pair))
        if len(members) != 2:
            raise DomainError(
                "a pair to keep apart names two different players", field="keep_apart"
            )
        for member in members:
            if member not in index:
                raise DomainError(
                    f"{name(member)} is kept apart but is not playing", field="keep_apart"
                )
        x, y = sorted(index[m] for m in members)
        pairs.add((x, y))
    for player, position in index.items():
        apart = sum(1 for pair in pairs if position in pair)
        if apart >= len(index) - 1:
            raise DomainError(
                f"{name(player)} is kept apart from everyone, so has nobody to partner",
                field="keep_apart",
            )
    return pairs


def _check_stationary(
    stationary: Collection[int],
    index: Mapping[int, int],
    fixed: Mapping[int, int],
    name: Callable[[int], str],
) -> set[int]:
    """Stationary players as indices: each playing, with a fixed table, one to a table."""
    staying: dict[int, int] = {}
    for player in stationary:
        if player not in index:
            raise DomainError(f"{name(player)} stays put but is not playing", field="stationary")
        table = fixed.get(index[player])
        if table is None:
            raise DomainError(
                f"{name(player)} stays put: give them a fixed table", field="stationary"
            )
        if table in staying:
            raise DomainError(
                f"{name(staying[table])} and {name(player)} both stay put at table {table}; one "
                "player a table can keep a seat all night",
                field="stationary",
            )
        staying[table] = player
    return {index[player] for player in staying.values()}


def _check_fixed_table(
    fixed_table: Mapping[int, int],
    index: Mapping[int, int],
    size: int,
    name: Callable[[int], str],
) -> dict[int, int]:
    tables = size // 4
    fixed = {}
    for player, table in fixed_table.items():
        if player not in index:
            raise DomainError(
                f"{name(player)} has a fixed table but is not playing", field="fixed_table"
            )
        if not 1 <= table <= tables:
            raise DomainError(
                f"{name(player)} is fixed to table {table}, but {size} players use tables "
                f"1 to {tables}",
                field="fixed_table",
            )
        fixed[index[player]] = table
    for table in set(fixed.values()):
        at_table = [p for p, t in fixed.items() if t == table]
        if len(at_table) > 4:
            raise DomainError(
                f"{len(at_table)} players are fixed to table {table}, which seats 4",
                field="fixed_table",
            )
    return fixed


def _fixed_table_pairs(
    fixed: Mapping[int, int],
) -> tuple[set[tuple[int, int]], list[tuple[int, ...]]]:
    """Pairs fixed to different tables (never at one table) and groups fixed to the same one."""
    separated = set()
    players = sorted(fixed)
    for i, x in enumerate(players):
        for y in players[i + 1 :]:
            if fixed[x] != fixed[y]:
                separated.add((x, y))
    together = []
    for table in sorted(set(fixed.values())):
        group = tuple(p for p in players if fixed[p] == table)
        if len(group) > 1:
            together.append(group)
    return separated, together


def _check_hard_rules(
    search: SeatSearch,
    names: Sequence[int],
    fixed: Mapping[int, int],
    name: Callable[[int], str],
) -> None:
    size = search.size
    for x, y in sorted(search.goal.keep_apart):
        if search.partners[x * size + y]:
            raise DomainError(
                f"{name(names[x])} and {name(names[y])} cannot be kept from partnering: with "
                f"{size} players over these rounds everyone has too few others to partner",
                field="keep_apart",
                code="impossible",
            )
    for x, y in sorted(search.goal.separated):
        if search.partners[x * size + y] or search.opponents[x * size + y]:
            raise DomainError(
                f"{name(names[x])} (table {fixed[x]}) and {name(names[y])} (table {fixed[y]}) "
                f"would have to share a table; fix fewer players or play fewer rounds",
                field="fixed_table",
                code="impossible",
            )
    if search.stationary_byes():
        staying = sorted(search.goal.stationary)
        raise DomainError(
            f"{', '.join(name(names[p]) for p in staying)} cannot stay put all night: someone "
            "must sit out and there are too few others to take the byes",
            field="stationary",
            code="impossible",
        )
    for round_index in range(len(search.seats)):
        if search.apart_from_group(round_index):
            group = next(g for g in search.goal.together if search.apart_from_group(round_index, g))
            raise DomainError(
                f"{', '.join(name(names[p]) for p in group)} are all fixed to table "
                f"{fixed[group[0]]} but cannot always play together there",
                field="fixed_table",
                code="impossible",
            )


@dataclass(frozen=True)
class RotationReport:
    """How good a rotation is, counted over every pair of the players it was reported for.

    Histograms map a count (times a pair partnered, or opposed) to the number of pairs with it.
    ``left_right_*`` count pairs of opponents: balanced when each sat on the other's left
    equally often (or one apart, for an odd number of oppositions).
    """

    players: int
    rounds: int
    full_cycle: int
    partner_histogram: dict[int, int]
    opponent_histogram: dict[int, int]
    byes_fewest: int
    byes_most: int
    pairs_never_meeting: int
    pairs_opposing_once: int
    repeat_partners: int
    opponents_beyond_twice: int
    repeated_meetings: int
    same_table_two_rounds_running: int
    left_right_balanced_pairs: int
    left_right_unbalanced_pairs: int
    left_right_worst_difference: int
    first_deals_fewest: int
    first_deals_most: int
    keep_apart_partnerships: int
    keep_apart_meetings: int
    at_bound: bool
    summary: str

    def as_dict(self) -> dict[str, object]:
        """Plain data for JSON: histogram keys become strings."""
        data = asdict(self)
        data["partner_histogram"] = {str(k): v for k, v in self.partner_histogram.items()}
        data["opponent_histogram"] = {str(k): v for k, v in self.opponent_histogram.items()}
        return data


def rotation_report(
    rotation: Rotation,
    players: Sequence[int] | None = None,
    *,
    keep_apart: Collection[frozenset[int]] = (),
) -> RotationReport:
    """Count everything an organiser should see before publishing ``rotation``.

    ``players`` defaults to everyone in the rotation. Pairs are counted among them only.
    """
    if players is None:
        seen: dict[int, None] = {}
        for round_ in rotation.rounds:
            for player in round_.players:
                seen.setdefault(player, None)
        players = list(seen)
    names = list(players)
    size = len(names)
    index = {name: position for position, name in enumerate(names)}
    counts = MeetingCounts(size)
    byes = [0] * size
    first_deals = [0] * size
    running = 0
    previous_table: dict[int, int] = {}
    left = [0] * (size * size)
    for round_ in rotation.rounds:
        for table in round_.tables:
            for first in range(4):
                for second in range(first + 1, 4):
                    x, y = table[first], table[second]
                    if x in index and y in index:
                        a, b = index[x], index[y]
                        target = counts.partners if second - first == 2 else counts.opponents
                        target[a * size + b] += 1
                        target[b * size + a] += 1
            for first, second in LEFT_PAIRS:
                x, y = table[first], table[second]
                if x in index and y in index:
                    left[index[x] * size + index[y]] += 1
            if table[0] in index:
                first_deals[index[table[0]]] += 1
        for player in round_.byes:
            if player in index:
                byes[index[player]] += 1
        current_table = {p: number for number, t in enumerate(round_.tables) for p in t}
        running += sum(
            1
            for p, number in current_table.items()
            if previous_table.get(p) == number and p in index
        )
        previous_table = current_table
    partner_histogram: dict[int, int] = {}
    opponent_histogram: dict[int, int] = {}
    never, once, repeat_partners, beyond_two, repeated, never_opposed = 0, 0, 0, 0, 0, 0
    balanced = unbalanced = worst = 0
    for x in range(size):
        for y in range(x + 1, size):
            partnered = counts.partners[x * size + y]
            opposed = counts.opponents[x * size + y]
            partner_histogram[partnered] = partner_histogram.get(partnered, 0) + 1
            opponent_histogram[opposed] = opponent_histogram.get(opposed, 0) + 1
            met = partnered + opposed
            never += met == 0
            once += opposed == 1
            never_opposed += opposed == 0
            repeat_partners += max(0, partnered - 1)
            beyond_two += max(0, opposed - 2)
            repeated += max(0, met - 1)
            if opposed:
                difference = abs(left[x * size + y] - left[y * size + x])
                worst = max(worst, difference)
                if difference <= opposed % 2:
                    balanced += 1
                else:
                    unbalanced += 1
    keep_partnerships = keep_meetings = 0
    for pair in keep_apart:
        members = [index[m] for m in pair if m in index]
        if len(members) == 2:
            x, y = members
            keep_partnerships += counts.partners[x * size + y]
            keep_meetings += counts.partners[x * size + y] + counts.opponents[x * size + y]
    round_count = len(rotation.rounds)
    at_bound, summary = _distance_to_bound(
        size=size,
        round_count=round_count,
        repeat_partners=repeat_partners,
        beyond_two=beyond_two,
        repeated=repeated,
        never_opposed=never_opposed,
        opposing_once=once,
        never_met=never,
        byes=byes,
    )
    return RotationReport(
        players=size,
        rounds=round_count,
        full_cycle=full_cycle_length(size) if size >= MINIMUM_PLAYERS else 0,
        partner_histogram=dict(sorted(partner_histogram.items())),
        opponent_histogram=dict(sorted(opponent_histogram.items())),
        byes_fewest=min(byes, default=0),
        byes_most=max(byes, default=0),
        pairs_never_meeting=never,
        pairs_opposing_once=once,
        repeat_partners=repeat_partners,
        opponents_beyond_twice=beyond_two,
        repeated_meetings=repeated,
        same_table_two_rounds_running=running,
        left_right_balanced_pairs=balanced,
        left_right_unbalanced_pairs=unbalanced,
        left_right_worst_difference=worst,
        first_deals_fewest=min(first_deals, default=0),
        first_deals_most=max(first_deals, default=0),
        keep_apart_partnerships=keep_partnerships,
        keep_apart_meetings=keep_meetings,
        at_bound=at_bound,
        summary=summary,
    )


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _distance_to_bound(
    *,
    size: int,
    round_count: int,
    repeat_partners: int,
    beyond_two: int,
    repeated: int,
    never_opposed: int,
    opposing_once: int,
    never_met: int,
    byes: list[int],
) -> tuple[bool, str]:
    """Whether the counts reach the bound for ``size`` players over ``round_count`` rounds, and
    the distance to it in words."""
    if size < MINIMUM_PLAYERS:
        return False, "fewer than 4 players"
    full = full_cycle_length(size)
    gaps = []
    if repeat_partners:
        gaps.append(_plural(repeat_partners, "repeat partner", "repeat partners"))
    if beyond_two:
        gaps.append(_plural(beyond_two, "opposing beyond twice", "opposings beyond twice"))
    fewest, most = min(byes), max(byes)
    if most - fewest > 1:
        gaps.append(f"byes uneven ({fewest} to {most} per player)")
    residue = size % 4
    if round_count == full:
        if residue in (0, 1):
            if not gaps and never_opposed == 0 and opposing_once == 0:
                return True, "perfect: everyone partners everyone once and opposes everyone twice"
            if opposing_once:
                gaps.append(
                    _plural(opposing_once, "pair opposes only once", "pairs oppose only once")
                )
        else:
            least_once = size if residue == 2 else 2 * size
            if not gaps and never_opposed == 0 and opposing_once == least_once:
                return True, (
                    f"the best possible for {size} players: partners at most once, opponents "
                    f"at most twice, {least_once} pairs oppose only once (the fewest possible)"
                )
            if never_opposed:
                gaps.append(_plural(never_opposed, "pair never opposes", "pairs never oppose"))
            if opposing_once > least_once:
                gaps.append(
                    f"{opposing_once} pairs oppose only once (the fewest possible is {least_once})"
                )
        if never_met:
            gaps.append(_plural(never_met, "pair never meets", "pairs never meet"))
        return False, ", ".join(gaps) or "off the bound"
    if round_count > full:
        return not gaps, ", ".join(gaps) or f"longer than the full cycle of {full} rounds"
    short_night = round_count <= social_golfer_bound(size)
    if short_night and repeated:
        gaps.append(
            f"{_plural(repeated, 'repeated meeting', 'repeated meetings')} (up to "
            f"{social_golfer_bound(size)} rounds could let everyone meet only new people)"
        )
    if gaps:
        return False, ", ".join(gaps)
    if short_night:
        return True, (
            f"the best possible for {size} players over {round_count} rounds: nobody meets "
            "anyone twice"
        )
    return True, (
        f"the best possible for {size} players over {round_count} rounds: partners at most "
        "once, opponents at most twice, byes within one"
    )
