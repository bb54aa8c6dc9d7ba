"""Season-aware rotations, partner-strength balance and stationary players (no database).

A season-aware plan only chooses among plans equally good for the night, so every within-night
count of ``rotation_report`` is the night-by-night plan's; what changes is who gets which place
and, within a table, who partners whom.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import DomainError
from tournaments.domain.rotation import (
    Round,
    SeasonHistory,
    build_rotation,
    full_cycle_length,
    plan_rotation,
    replan_rotation,
    rotation_report,
)
from tournaments.domain.rotation_chart import PARTNER_SEATS, social_golfer_bound
from tournaments.domain.rotation_season import (
    SEASON_WEIGHT_OPPONENT,
    SEASON_WEIGHT_PARTNER,
    SEASON_WEIGHT_SIT_OUT,
    SEASON_WEIGHT_TOGETHER,
    SeasonWeights,
    partner_strength_spread,
    season_report,
)

WITHIN_NIGHT = (
    "partner_histogram",
    "opponent_histogram",
    "byes_fewest",
    "byes_most",
    "repeat_partners",
    "opponents_beyond_twice",
    "repeated_meetings",
    "at_bound",
)


def partnerships(rotation) -> dict[frozenset[int], int]:
    counts: dict[frozenset[int], int] = {}
    for round_ in rotation.rounds:
        for table in round_.tables:
            for first, second in PARTNER_SEATS:
                pair = frozenset((table[first], table[second]))
                counts[pair] = counts.get(pair, 0) + 1
    return counts


def random_history(players: list[int], generator: random.Random) -> SeasonHistory:
    partners = {}
    opponents = {}
    together = {}
    for i, x in enumerate(players):
        for y in players[i + 1 :]:
            if generator.random() < 0.3:
                partners[frozenset((x, y))] = generator.randint(1, 3)
            if generator.random() < 0.5:
                opponents[frozenset((x, y))] = generator.randint(1, 4)
            together[frozenset((x, y))] = generator.randint(0, 6)
    return SeasonHistory(
        partners=partners,
        opponents=opponents,
        together=together,
        sit_outs={p: generator.randint(0, 3) for p in players},
        ratings={p: generator.gauss(1000, 150) for p in players},
    )


@settings(max_examples=12, deadline=None)
@given(
    size=st.integers(min_value=8, max_value=40),
    seed=st.integers(min_value=0, max_value=10_000),
    balance=st.booleans(),
    data=st.data(),
)
def test_season_aware_plans_keep_every_within_night_count(
    size: int, seed: int, balance: bool, data
) -> None:
    players = list(range(101, 101 + size))
    rounds = data.draw(st.integers(min_value=1, max_value=min(8, full_cycle_length(size))))
    history = random_history(players, random.Random(seed))
    plain = rotation_report(build_rotation(players, rounds, seed=seed), players)
    aware = rotation_report(
        build_rotation(
            players, rounds, seed=seed, history=history, balance_partner_strength=balance
        ),
        players,
    )
    for name in WITHIN_NIGHT:
        assert getattr(aware, name) == getattr(plain, name), name


def test_second_night_avoids_the_first_nights_partnerships() -> None:
    players = list(range(1, 17))
    first = build_rotation(players, 3, seed=1)
    history = SeasonHistory(partners=partnerships(first))
    blind = build_rotation(players, 3, seed=2)
    aware = build_rotation(players, 3, seed=2, history=history)
    assert season_report(blind.rounds, players, history).repeat_partnerships > 0
    assert season_report(aware.rounds, players, history).repeat_partnerships == 0
    assert not set(partnerships(aware)) & set(partnerships(first))


def test_byes_go_to_whoever_sat_out_least() -> None:
    players = list(range(1, 18))
    history = SeasonHistory(sit_outs={p: 0 if p == 5 else 2 for p in players})
    rotation = build_rotation(players, 1, seed=3, history=history)
    assert rotation.rounds[0].byes == (5,)


def test_a_partnership_already_had_twice_is_avoided_before_one_had_once() -> None:
    players = list(range(1, 9))
    history = SeasonHistory(
        partners={frozenset((1, 2)): 2, **{frozenset((a, b)): 1 for a, b in [(3, 4), (5, 6)]}}
    )
    for seed in range(5):
        rotation = build_rotation(players, 1, seed=seed, history=history)
        assert frozenset((1, 2)) not in partnerships(rotation)


def test_strength_balance_evens_average_partner_ratings() -> None:
    players = list(range(1, 21))
    ratings = {p: 800 + 20 * p for p in players}
    history = SeasonHistory(ratings=ratings)
    planned = plan_rotation(players, 5, seed=4, history=history, balance_partner_strength=True)
    spread = partner_strength_spread(planned.rotation.rounds, players, history)
    assert planned.spread_after_balance == pytest.approx(spread)
    assert planned.spread_after_balance < planned.spread_before_balance
    plain = build_rotation(players, 5, seed=4)
    assert spread < partner_strength_spread(plain.rounds, players, history)
    report = season_report(
        planned.rotation.rounds,
        players,
        history,
        spread_before_balance=planned.spread_before_balance,
        balance=True,
    )
    assert report.partner_strength_spread == pytest.approx(spread)


def test_season_report_counts_by_hand() -> None:
    players = [1, 2, 3, 4, 5]
    history = SeasonHistory(
        partners={frozenset((1, 3)): 2, frozenset((2, 5)): 1},
        opponents={frozenset((1, 2)): 1},
        sit_outs={5: 1},
    )
    rounds = [Round(tables=((1, 2, 3, 4),), byes=(5,)), Round(tables=((2, 1, 5, 3),), byes=(4,))]
    report = season_report(rounds, players, history, nights_before=3)
    assert report.nights_before == 3
    assert report.repeat_partnerships == 3  # 1–3 in both rounds, 2–5 in the second
    assert report.repeat_oppositions == 2  # 1–2 twice
    assert report.most_partnered == 4  # 1–3: twice before, twice tonight
    assert report.most_partnered_before == 2
    assert (report.sit_outs_fewest, report.sit_outs_most) == (0, 2)
    assert report.partner_strength_spread is None


@settings(max_examples=15, deadline=None)
@given(
    size=st.integers(min_value=8, max_value=30),
    seed=st.integers(min_value=0, max_value=10_000),
    data=st.data(),
)
def test_stationary_players_never_move_nor_sit_out(size: int, seed: int, data) -> None:
    players = list(range(1, size + 1))
    tables = size // 4
    rounds = data.draw(st.integers(min_value=1, max_value=min(7, full_cycle_length(size))))
    count = data.draw(st.integers(min_value=1, max_value=tables))
    staying = data.draw(
        st.lists(st.sampled_from(players), min_size=count, max_size=count, unique=True)
    )
    table_numbers = data.draw(st.permutations(range(1, tables + 1)))[:count]
    fixed = dict(zip(staying, table_numbers, strict=True))
    history = random_history(players, random.Random(seed)) if seed % 2 else None
    rotation = build_rotation(
        players, rounds, seed=seed, fixed_table=fixed, stationary=staying, history=history
    )
    for player in staying:
        places = set()
        for round_ in rotation.rounds:
            assert player not in round_.byes
            table = round_.tables[fixed[player] - 1]
            places.add((fixed[player], table.index(player)))
        assert len(places) == 1
    for round_ in rotation.rounds:
        assert sorted(round_.players) == players


def test_stationary_players_stay_put_through_a_repair() -> None:
    players = list(range(1, 14))
    fixed = {1: 1, 2: 3}
    night = build_rotation(players, 6, seed=5, fixed_table=fixed, stationary=[1, 2])
    played = night.rounds[:2]
    repaired = replan_rotation(
        played, [*players, 14, 15], 6, seed=5, fixed_table=fixed, stationary=[1, 2]
    )
    assert repaired.rounds[:2] == played
    for player, table in fixed.items():
        seats = {round_.tables[table - 1].index(player) for round_ in repaired.rounds}
        assert len(seats) == 1
        assert all(player not in round_.byes for round_ in repaired.rounds)


def test_stationary_needs_a_table_and_one_a_table() -> None:
    players = list(range(1, 13))
    with pytest.raises(DomainError, match="give them a fixed table"):
        build_rotation(players, 3, stationary=[4], called={4: "Dee"})
    with pytest.raises(DomainError, match="Ann and Bob both stay put at table 2"):
        build_rotation(
            players, 3, fixed_table={1: 2, 2: 2}, stationary=[1, 2], called={1: "Ann", 2: "Bob"}
        )
    with pytest.raises(DomainError, match="not playing"):
        build_rotation(players, 3, fixed_table={1: 1}, stationary=[99])


def test_season_aware_plans_are_repeatable() -> None:
    players = list(range(1, 23))
    history = random_history(players, random.Random(9))
    first = build_rotation(players, 5, seed=8, history=history, balance_partner_strength=True)
    again = build_rotation(players, 5, seed=8, history=history, balance_partner_strength=True)
    assert first == again


@pytest.mark.parametrize("size", [13, 16, 21, 28])
def test_nights_at_the_social_golfer_bound_stay_as_fresh_with_history(size: int) -> None:
    players = list(range(1, size + 1))
    rounds = social_golfer_bound(size)
    history = random_history(players, random.Random(size))
    plain = rotation_report(build_rotation(players, rounds, seed=1), players)
    aware = rotation_report(build_rotation(players, rounds, seed=1, history=history), players)
    assert aware.repeated_meetings == plain.repeated_meetings
    assert aware.at_bound == plain.at_bound


def test_season_weights_count_each_pair_by_hand() -> None:
    history = SeasonHistory(
        partners={frozenset((10, 20)): 2, frozenset((10, 99)): 5},
        opponents={frozenset((20, 30)): 3},
        together={frozenset((10, 30)): 4, frozenset((10, 20)): 6},
        sit_outs={30: 1},
        ratings={10: 900.0},
        default_rating=1000.0,
    )
    weights = SeasonWeights.of(history, [10, 20, 30], balance=True)
    # 10–20 partnered twice: one more costs the step from 2 to 3 (2 * 3); 10–30 came together 4
    # nights and never partnered: a pull; 20–30 never partnered nor came together: nothing.
    assert (
        weights.partner_cost[0 * 3 + 1]
        == weights.partner_cost[1 * 3 + 0]
        == (SEASON_WEIGHT_PARTNER * 6)
    )
    assert weights.partner_cost[0 * 3 + 2] == -SEASON_WEIGHT_TOGETHER * 4
    assert weights.partner_cost[1 * 3 + 2] == 0
    assert weights.opponent_cost[1 * 3 + 2] == SEASON_WEIGHT_OPPONENT * 3
    assert weights.opponent_cost[0 * 3 + 1] == 0
    assert weights.sit_outs == [0, 0, 1]
    assert weights.sit_out_cost(2, 1) == SEASON_WEIGHT_SIT_OUT * 2 * 3
    assert weights.ratings == [900.0, 1000.0, 1000.0]
    # 10 partnered 20 twice (1000 each) and player 99 five times (1000, no rating).
    assert weights.rating_sums[0] == 7 * 1000.0
    assert weights.rating_counts == [7, 2, 0]
    assert weights.rating_sums[1] == 2 * 900.0
    assert SeasonWeights.of(history, [10, 20, 30], balance=False).ratings is None


def test_a_pair_always_together_and_never_partnered_is_partnered() -> None:
    players = list(range(1, 9))
    history = SeasonHistory(together={frozenset((3, 7)): 5})
    for seed in range(5):
        rotation = build_rotation(players, 1, seed=seed, history=history)
        assert frozenset((3, 7)) in partnerships(rotation)


def simulate_season(seed: int, *, aware: bool) -> dict[frozenset[int], int]:
    """Partnerships of a small seeded season (12 to 20 players on the roster, most coming each
    night), planned night by night or season-aware."""
    generator = random.Random(seed)
    roster = list(range(1, generator.randint(12, 20) + 1))
    partners: dict[frozenset[int], int] = {}
    opponents: dict[frozenset[int], int] = {}
    sit_outs: dict[int, int] = {}
    together: dict[frozenset[int], int] = {}
    for night in range(6):
        present = [p for p in roster if generator.random() < 0.8]
        rounds = min(4, full_cycle_length(len(present)))
        history = SeasonHistory(
            partners=dict(partners),
            opponents=dict(opponents),
            sit_outs=dict(sit_outs),
            together=dict(together),
        )
        rotation = build_rotation(present, rounds, seed=night, history=history if aware else None)
        for pair, count in partnerships(rotation).items():
            partners[pair] = partners.get(pair, 0) + count
        for round_ in rotation.rounds:
            for table in round_.tables:
                for x in (table[0], table[2]):
                    for y in (table[1], table[3]):
                        pair = frozenset((x, y))
                        opponents[pair] = opponents.get(pair, 0) + 1
            for player in round_.byes:
                sit_outs[player] = sit_outs.get(player, 0) + 1
        for i, x in enumerate(present):
            for y in present[i + 1 :]:
                pair = frozenset((x, y))
                together[pair] = together.get(pair, 0) + 1
    return partners


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_season_aware_has_no_more_repeated_partnerships_than_night_by_night(seed: int) -> None:
    blind = simulate_season(seed, aware=False)
    aware = simulate_season(seed, aware=True)
    assert sum(blind.values()) == sum(aware.values())  # the same games, partnered differently
    repeats_blind = sum(count - 1 for count in blind.values())
    repeats_aware = sum(count - 1 for count in aware.values())
    assert repeats_aware < repeats_blind
    assert max(aware.values()) <= max(blind.values())
