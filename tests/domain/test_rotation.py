"""The rotation engine, checked by counting: every size from 4 to 64, short nights, seats,
constraints, repairs and determinism.

Charts are built once per size and cached for the session. Every size from 4 to 64 has a stored
starting round, checked here by counting.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import DomainError
from tournaments.domain.rotation import (
    Rotation,
    Round,
    build_rotation,
    full_cycle_length,
    replan_rotation,
    rotation_report,
)
from tournaments.domain.rotation_chart import cyclic_chart, has_stored_chart, social_golfer_bound
from tournaments.domain.rotation_designs import (
    RESOLVABLE_BASE_CLASSES,
    design_rounds,
    develop_base_class,
    find_resolvable_base_class,
    resolvable_rounds,
    transversal_rounds,
)
from tournaments.domain.rotation_fresh import fresh_meeting_rounds
from tournaments.domain.rotation_starting_rounds import (
    INFINITY,
    Group,
    StartingRound,
    binary_field_starting_round,
    difference_counts,
    find_starting_round_by_matching,
    fourth_roots_starting_round,
    second_bye,
    starting_round_reaches_the_bound,
)
from tournaments.domain.whist_bases import STARTING_ROUNDS

ALL_SIZES = range(4, 65)
STORED_SIZES = list(ALL_SIZES)


def names_for(size: int) -> list[int]:
    """Database-like ids: not 0..N-1, not in order."""
    return [1000 + 7 * i for i in reversed(range(size))]


@cache
def full_rotation(size: int) -> Rotation:
    return build_rotation(names_for(size), seed=3)


@cache
def short_rotation(size: int, rounds: int) -> Rotation:
    return build_rotation(names_for(size), rounds, seed=5)


def counts(rotation: Rotation, players: list[int]) -> tuple[dict, dict, dict]:
    partners: dict[frozenset[int], int] = {}
    opponents: dict[frozenset[int], int] = {}
    byes = {p: 0 for p in players}
    for round_ in rotation.rounds:
        for a, b, c, d in round_.tables:
            for x, y in ((a, c), (b, d)):
                partners[frozenset((x, y))] = partners.get(frozenset((x, y)), 0) + 1
            for x, y in ((a, b), (a, d), (c, b), (c, d)):
                opponents[frozenset((x, y))] = opponents.get(frozenset((x, y)), 0) + 1
        for player in round_.byes:
            byes[player] += 1
    return partners, opponents, byes


def pairs_of(players: list[int]) -> list[frozenset[int]]:
    return [frozenset((x, y)) for i, x in enumerate(players) for y in players[i + 1 :]]


def assert_valid_rounds(rotation: Rotation, players: list[int]) -> None:
    for round_ in rotation.rounds:
        assert sorted(round_.players) == sorted(players)
        assert len(round_.tables) == len(players) // 4
        assert len(round_.byes) == len(players) % 4


def test_every_size_from_4_to_64_has_a_stored_chart() -> None:
    assert all(has_stored_chart(n) for n in ALL_SIZES)
    assert not has_stored_chart(65)


@pytest.mark.parametrize("size", sorted(STARTING_ROUNDS))
def test_stored_starting_round_has_the_right_differences(size: int) -> None:
    start = STARTING_ROUNDS[size]
    order = start.group.order
    partner_counts, opponent_counts = difference_counts(start)
    seated = sorted(seat for table in start.tables for seat in table)
    expected_seats = ([INFINITY] if size % 4 == 0 else []) + [
        x for x in range(order) if x not in start.byes
    ]
    assert seated == expected_seats
    if size % 4 in (0, 1):
        assert start.players == size
        assert partner_counts[1:] == [1] * (order - 1)
        assert opponent_counts[1:] == [2] * (order - 1)
    else:
        half = start.group.element_of_order_two()
        assert len(start.byes) == 2
        assert [partner_counts[x] for x in range(1, order)] == [
            0 if x == half else 1 for x in range(1, order)
        ]
        assert opponent_counts[half] == 2
        assert sorted(opponent_counts[x] for x in range(1, order) if x != half) == [1, 1] + [2] * (
            order - 4
        )


@pytest.mark.parametrize("size", [n for n in sorted(STARTING_ROUNDS) if n % 4 == 0 and n > 4])
def test_infinity_table_lets_the_chart_for_one_fewer_reach_its_bound(size: int) -> None:
    start = STARTING_ROUNDS[size]
    table = next(t for t in start.tables if INFINITY in t)
    at = table.index(INFINITY)
    b, c, d = table[(at + 1) % 4], table[(at + 2) % 4], table[(at + 3) % 4]
    group = start.group
    assert group.add(c, c) != group.add(b, d)


@pytest.mark.parametrize("order", [5, 9, 13, 17, 25, 29, 37, 41, 49, 53, 61])
def test_fourth_roots_construction_gives_a_whist_chart(order: int) -> None:
    start = fourth_roots_starting_round(order)
    partner_counts, opponent_counts = difference_counts(start)
    assert partner_counts[1:] == [1] * (order - 1)
    assert opponent_counts[1:] == [2] * (order - 1)


@pytest.mark.parametrize("players", [8, 16, 32, 64, 128])
def test_binary_field_construction_reaches_the_bound_for_powers_of_two(players: int) -> None:
    start = binary_field_starting_round(players)
    assert start is not None
    assert starting_round_reaches_the_bound(players, start)


def test_binary_field_construction_is_what_is_stored_for_64() -> None:
    assert binary_field_starting_round(64) == STARTING_ROUNDS[64]


@pytest.mark.parametrize("players", [4, 12, 48, 81])
def test_binary_field_construction_only_for_powers_of_two_from_8(players: int) -> None:
    assert binary_field_starting_round(players) is None


@pytest.mark.parametrize("size", sorted(STARTING_ROUNDS))
def test_stored_starting_round_passes_the_search_check(size: int) -> None:
    assert starting_round_reaches_the_bound(size, STARTING_ROUNDS[size])


def test_search_check_refuses_a_repeated_partner_difference() -> None:
    doubled = StartingRound(moduli=(13,), tables=((1, 8, 2, 9), (3, 5, 4, 6), (7, 10, 11, 12)))
    assert not starting_round_reaches_the_bound(13, doubled)


@pytest.mark.parametrize(("size", "expected"), [(10, 5), (14, 2), (18, 9), (38, 2), (42, 21)])
def test_second_bye_of_a_4n_plus_2_chart_follows_the_parity_of_the_differences(
    size: int, expected: int
) -> None:
    assert second_bye(Group((size,))) == expected


@pytest.mark.parametrize(("size", "moduli"), [(12, (11,)), (13, (13,)), (14, (14,)), (22, (22,))])
def test_starter_and_matching_search_finds_a_chart_at_the_bound(
    size: int, moduli: tuple[int, ...]
) -> None:
    found = find_starting_round_by_matching(size, moduli, seed=1)
    assert found is not None
    assert found.players == size
    assert starting_round_reaches_the_bound(size, found)


@pytest.mark.parametrize("size", STORED_SIZES)
def test_full_cycle_reaches_the_bound(size: int) -> None:
    players = names_for(size)
    rotation = full_rotation(size)
    assert len(rotation.rounds) == full_cycle_length(size)
    assert_valid_rounds(rotation, players)
    partners, opponents, byes = counts(rotation, players)
    every_pair = pairs_of(players)
    partner_values = sorted(partners.get(pair, 0) for pair in every_pair)
    opponent_values = sorted(opponents.get(pair, 0) for pair in every_pair)
    pair_count = len(every_pair)
    residue = size % 4
    if residue in (0, 1):
        assert partner_values == [1] * pair_count
        assert opponent_values == [2] * pair_count
        assert set(byes.values()) == {residue}
    else:
        missing_partners = size // 2 if residue == 2 else size
        opposing_once = size if residue == 2 else 2 * size
        assert partner_values == [0] * missing_partners + [1] * (pair_count - missing_partners)
        assert opponent_values == [1] * opposing_once + [2] * (pair_count - opposing_once)
        assert set(byes.values()) == {residue}
    report = rotation_report(rotation, players)
    assert report.at_bound
    assert report.byes_most - report.byes_fewest == 0
    assert report.first_deals_most - report.first_deals_fewest <= 1
    assert report.pairs_never_meeting == 0


def test_perfect_chart_report_in_words() -> None:
    report = rotation_report(full_rotation(12), names_for(12))
    assert report.summary == "perfect: everyone partners everyone once and opposes everyone twice"
    assert report.partner_histogram == {1: 66}
    assert report.opponent_histogram == {2: 66}
    assert report.as_dict()["partner_histogram"] == {"1": 66}


def test_best_possible_report_in_words() -> None:
    report = rotation_report(full_rotation(14), names_for(14))
    assert report.summary == (
        "the best possible for 14 players: partners at most once, opponents at most twice, "
        "14 pairs oppose only once (the fewest possible)"
    )
    assert report.partner_histogram == {0: 7, 1: 84}
    assert report.opponent_histogram == {1: 14, 2: 77}


def test_repeat_partners_are_named_in_words() -> None:
    rounds = (Round(tables=((1, 2, 3, 4),)), Round(tables=((1, 2, 3, 4),)))
    report = rotation_report(Rotation(rounds=rounds), [1, 2, 3, 4])
    assert report.repeat_partners == 2
    assert report.summary.startswith("2 repeat partners")
    assert not report.at_bound


SHORT_NIGHTS = [
    (size, rounds)
    for size in STORED_SIZES
    for rounds in sorted({2, full_cycle_length(size) // 2, full_cycle_length(size) - 1})
    if 1 <= rounds < full_cycle_length(size)
]


@pytest.mark.parametrize("size", [n for n in ALL_SIZES if n % 8 == 6])
def test_half_night_with_chained_byes_still_gives_everyone_one_bye(size: int) -> None:
    """For N = 6 (mod 8) the chart's byes in a round are ``{g, g + 2}``, which chain the players
    into two odd cycles: no N / 2 rounds of the chart give everyone exactly one bye, so the seat
    search must hand some byes on."""
    players = names_for(size)
    rotation = short_rotation(size, size // 2)
    _, _, byes = counts(rotation, players)
    assert set(byes.values()) == {1}
    partners, opponents, _ = counts(rotation, players)
    assert max(partners.values()) == 1
    assert max(opponents.values()) <= 2


@pytest.mark.parametrize(("size", "rounds"), SHORT_NIGHTS)
def test_short_night_keeps_partners_opponents_and_byes_in_bounds(size: int, rounds: int) -> None:
    players = names_for(size)
    rotation = short_rotation(size, rounds)
    assert len(rotation.rounds) == rounds
    assert_valid_rounds(rotation, players)
    partners, opponents, byes = counts(rotation, players)
    assert max(partners.values()) == 1
    assert max(opponents.values()) <= 2
    assert max(byes.values()) - min(byes.values()) <= 1
    if rounds * (size % 4) % size == 0:
        assert len(set(byes.values())) == 1


FRESH_MEETINGS = (
    [(7, 2), (15, 2), (15, 3), (15, 4)]
    + [
        (size, rounds)
        for size in (16, 17, 19, 20, 21, 24, 28, 32, 40, 48, 64)
        for rounds in (2, 4)
        if rounds <= social_golfer_bound(size)
    ]
    # By the fresh-meeting search, a few rounds short of the social-golfer bound:
    + [(17, 4), (21, 5), (24, 5), (25, 5), (32, 7), (40, 9), (48, 10), (57, 12), (58, 13)]
    # By design (transversal for 4g players, g a prime power; 1-rotational for 24, 28, 36,
    # 40, 48, 52 and 60; AG(3, 4) for 64),
    # and one player fewer (that player's table-mates sit out):
    + [(16, 5), (20, 5), (24, 7), (27, 8), (28, 9), (31, 9), (32, 9), (36, 9), (39, 12), (40, 13)]
    + [(35, 11), (36, 11), (43, 11), (44, 11), (47, 15), (48, 15), (51, 16), (52, 17)]
    + [(59, 19), (60, 19), (63, 20), (64, 21)]
    # and one to three players more (newcomers sit in for someone who sits out):
    + [(23, 7), (25, 7), (26, 7), (29, 9), (33, 9), (38, 9), (41, 12), (45, 11), (53, 16)]
)


@pytest.mark.parametrize(("size", "rounds"), FRESH_MEETINGS)
def test_short_night_within_the_social_golfer_bound_has_no_repeated_meeting(
    size: int, rounds: int
) -> None:
    players = names_for(size)
    rotation = short_rotation(size, rounds)
    report = rotation_report(rotation, players)
    assert report.repeated_meetings == 0
    assert report.repeat_partners == 0
    assert report.byes_most - report.byes_fewest <= 1
    assert report.at_bound
    assert report.summary.endswith("nobody meets anyone twice")


@pytest.mark.parametrize("size", ALL_SIZES)
def test_transversal_rounds_give_everyone_new_table_mates_every_round(size: int) -> None:
    rounds = transversal_rounds(size)
    order = size // 4
    if size % 4 or order not in (4, 5, 7, 8, 9, 11, 13, 16):
        assert rounds == ()
        return
    assert len(rounds) == order + {4: 1, 8: 1, 16: 5}.get(order, 0)
    met: set[frozenset[int]] = set()
    for round_ in rounds:
        assert sorted(p for table in round_.tables for p in table) == list(range(size))
        assert round_.byes == ()
        for table in round_.tables:
            for i in range(4):
                for j in range(i + 1, 4):
                    pair = frozenset((table[i], table[j]))
                    assert pair not in met
                    met.add(pair)


@pytest.mark.parametrize("size", sorted(RESOLVABLE_BASE_CLASSES))
def test_resolvable_rounds_reach_the_social_golfer_bound(size: int) -> None:
    rounds = resolvable_rounds(size)
    assert len(rounds) == social_golfer_bound(size)
    met: list[frozenset[int]] = []
    for round_ in rounds:
        assert sorted(p for table in round_.tables for p in table) == list(range(size))
        assert round_.byes == ()
        met += [frozenset((t[i], t[j])) for t in round_.tables for i in range(4) for j in range(i)]
    assert len(met) == len(set(met))
    if size % 3 == 1:  # one infinity: a resolvable design, every pair meets exactly once
        assert sorted(met, key=sorted) == sorted(pairs_of(list(range(size))), key=sorted)


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        (16, 5),
        (27, 9),
        (28, 9),
        (31, 9),
        (36, 11),
        (40, 13),
        (43, 11),
        (44, 11),
        (48, 15),
        (52, 17),
        (60, 19),
        (63, 21),
        (64, 21),
    ],
)
def test_design_rounds_take_the_longest_known_design(size: int, expected: int) -> None:
    assert len(design_rounds(size)) == expected


@pytest.mark.parametrize("size", [15, 19, 27, 31, 35, 39, 43, 51, 63])
def test_design_rounds_one_player_short_give_at_most_one_bye_each(size: int) -> None:
    rounds = design_rounds(size)
    assert len(rounds) == len(design_rounds(size + 1))
    sat_out = [p for round_ in rounds for p in round_.byes]
    assert len(sat_out) == len(set(sat_out)) == 3 * len(rounds)
    met: list[frozenset[int]] = []
    for round_ in rounds:
        assert sorted(round_.players) == list(range(size))
        met += [frozenset((t[i], t[j])) for t in round_.tables for i in range(4) for j in range(i)]
    assert len(met) == len(set(met))


@pytest.mark.parametrize(
    ("size", "symmetry"),
    [
        (16, {}),
        (40, {"multiplier": 3, "level_shift": 1, "symmetry": 3}),
        (52, {"multiplier": -1, "level_shift": 1, "symmetry": 6}),
        (
            24,
            {
                "infinity_mates": (
                    ((3, 0), (1, 1), (1, 2)),
                    ((1, 0), (2, 1), (0, 2)),
                    ((6, 0), (5, 1), (2, 2)),
                )
            },
        ),
    ],
)
def test_resolvable_design_search_finds_a_base_round(size: int, symmetry: dict) -> None:
    base = find_resolvable_base_class(size, **symmetry)
    assert base is not None
    rounds = develop_base_class(base, size)
    assert len(rounds) == social_golfer_bound(size)
    met = [
        frozenset((t[i], t[j]))
        for round_ in rounds
        for t in round_.tables
        for i in range(4)
        for j in range(i)
    ]
    assert len(met) == len(set(met))
    if size % 3 == 1:
        assert sorted(met, key=sorted) == sorted(pairs_of(list(range(size))), key=sorted)


@pytest.mark.parametrize("size", range(8, 65))
def test_design_rounds_never_repeat_a_meeting_or_a_bye(size: int) -> None:
    rounds = design_rounds(size)
    met: list[frozenset[int]] = []
    for round_ in rounds:
        assert sorted(round_.players) == list(range(size))
        assert len(round_.byes) == size % 4
        met += [frozenset((t[i], t[j])) for t in round_.tables for i in range(4) for j in range(i)]
    assert len(met) == len(set(met))
    sat_out = [p for round_ in rounds for p in round_.byes]
    assert len(sat_out) == len(set(sat_out))


@pytest.mark.parametrize(("size", "expected"), [(29, 9), (33, 9), (41, 12), (53, 16), (55, 13)])
def test_newcomers_sit_in_for_design_players(size: int, expected: int) -> None:
    assert len(design_rounds(size)) == expected


def test_no_resolvable_rounds_without_a_stored_base() -> None:
    assert resolvable_rounds(32) == ()


def test_fresh_search_regroups_tables_and_keeps_sit_outs() -> None:
    chart = list(cyclic_chart(33))[:8]
    regrouped, repeats = fresh_meeting_rounds(chart, 33, generator=random.Random(2), moves=5000)
    before = rotation_report(Rotation(rounds=tuple(chart)), list(range(33)))
    after = rotation_report(Rotation(rounds=tuple(regrouped)), list(range(33)))
    assert before.repeated_meetings > 0
    assert after.repeated_meetings == repeats < before.repeated_meetings
    assert [r.byes for r in regrouped] == [r.byes for r in chart]


@pytest.mark.parametrize("size", [8, 12, 14])
def test_small_sizes_cannot_keep_meetings_fresh_beyond_one_round(size: int) -> None:
    """With three or fewer tables and few byes, round 2 must seat two old table-mates again."""
    report = rotation_report(short_rotation(size, 2), names_for(size))
    assert report.repeated_meetings > 0
    assert report.repeat_partners == 0


def test_same_seed_gives_the_same_rotation_and_another_seed_another() -> None:
    players = names_for(21)
    assert build_rotation(players, 6, seed=11) == build_rotation(players, 6, seed=11)
    assert build_rotation(players, seed=11) == build_rotation(players, seed=11)
    assert build_rotation(players, seed=11) != build_rotation(players, seed=12)


@settings(max_examples=8, deadline=None)
@given(
    size=st.sampled_from([n for n in STORED_SIZES if n <= 30]),
    seed=st.integers(min_value=0, max_value=10_000),
    data=st.data(),
)
def test_any_seed_and_length_keeps_partners_opponents_and_byes(size: int, seed: int, data) -> None:
    rounds = data.draw(st.integers(min_value=1, max_value=full_cycle_length(size)))
    players = names_for(size)
    rotation = build_rotation(players, rounds, seed=seed)
    assert_valid_rounds(rotation, players)
    partners, opponents, byes = counts(rotation, players)
    assert max(partners.values()) == 1
    assert max(opponents.values()) <= 2
    assert max(byes.values()) - min(byes.values()) <= 1


@pytest.mark.parametrize("size", [4, 5, 8, 9, 13, 16, 17, 20, 25, 29])
def test_left_and_right_are_balanced_where_the_chart_allows(size: int) -> None:
    report = rotation_report(full_rotation(size), names_for(size))
    opposing_pairs = report.left_right_balanced_pairs + report.left_right_unbalanced_pairs
    assert opposing_pairs == size * (size - 1) // 2
    if size in (5, 9, 13, 17, 25, 29):
        assert report.left_right_unbalanced_pairs == 0
    assert report.left_right_worst_difference <= 2


@pytest.mark.parametrize("size", [19, 20, 24, 28, 32])
def test_nobody_sits_at_the_same_table_two_rounds_running(size: int) -> None:
    assert rotation_report(full_rotation(size), names_for(size)).same_table_two_rounds_running == 0


def test_seat_zero_deals_first_and_deals_are_spread() -> None:
    report = rotation_report(full_rotation(16), names_for(16))
    assert (report.first_deals_fewest, report.first_deals_most) == (3, 4)


def test_too_few_players_is_a_domain_error() -> None:
    with pytest.raises(DomainError, match="a rotation needs at least 4 players"):
        build_rotation([1, 2, 3])


def test_too_many_rounds_is_a_domain_error() -> None:
    with pytest.raises(DomainError, match="8 players can play 1 to 7 rounds"):
        build_rotation(range(1, 9), 8)


def test_duplicate_player_is_a_domain_error() -> None:
    with pytest.raises(DomainError, match="listed twice"):
        build_rotation([1, 2, 3, 4, 4])


@pytest.mark.parametrize(("size", "rounds"), [(12, 4), (16, 5), (24, 8), (13, 13)])
def test_kept_apart_pairs_never_partner(size: int, rounds: int) -> None:
    players = names_for(size)
    apart = {frozenset((players[0], players[1])), frozenset((players[2], players[5]))}
    rotation = build_rotation(players, rounds, keep_apart=apart, seed=1)
    partners, _, byes = counts(rotation, players)
    for pair in apart:
        assert partners.get(pair, 0) == 0
    assert max(byes.values()) - min(byes.values()) <= 1
    report = rotation_report(rotation, players, keep_apart=apart)
    assert report.keep_apart_partnerships == 0


def test_kept_apart_pair_on_a_short_night_never_shares_a_table() -> None:
    players = names_for(24)
    apart = {frozenset((players[0], players[1]))}
    rotation = build_rotation(players, 4, keep_apart=apart)
    report = rotation_report(rotation, players, keep_apart=apart)
    assert report.keep_apart_meetings == 0
    assert report.repeated_meetings == 0


def test_player_kept_apart_from_everyone_is_a_domain_error() -> None:
    apart = [frozenset((1, 2)), frozenset((1, 3)), frozenset((1, 4))]
    with pytest.raises(DomainError, match="player 1 is kept apart from everyone"):
        build_rotation([1, 2, 3, 4], keep_apart=apart)


def test_keep_apart_in_a_full_chart_costs_repeat_partners_not_the_rule() -> None:
    """With 4 players over 3 rounds, 1 must then partner 3 or 4 twice: reported, not hidden."""
    rotation = build_rotation([1, 2, 3, 4], keep_apart=[frozenset((1, 2))])
    report = rotation_report(rotation, [1, 2, 3, 4], keep_apart=[frozenset((1, 2))])
    assert report.keep_apart_partnerships == 0
    assert report.repeat_partners > 0
    assert not report.at_bound


@pytest.mark.parametrize(("size", "rounds"), [(16, 6), (21, 8), (32, 10)])
def test_fixed_players_always_play_at_their_table(size: int, rounds: int) -> None:
    players = names_for(size)
    fixed = {players[3]: 1, players[7]: 3}
    rotation = build_rotation(players, rounds, fixed_table=fixed, seed=2)
    assert_valid_rounds(rotation, players)
    for round_ in rotation.rounds:
        for player, number in fixed.items():
            if player not in round_.byes:
                assert player in round_.tables[number - 1]
    partners, _, _ = counts(rotation, players)
    assert max(partners.values()) == 1


def test_fixed_table_beyond_the_tables_is_a_domain_error() -> None:
    with pytest.raises(DomainError, match="fixed to table 3, but 8 players use tables 1 to 2"):
        build_rotation(range(1, 9), fixed_table={1: 3})


def test_errors_name_players_by_the_names_given() -> None:
    called = {1: "Ann", 9: "Zed"}
    with pytest.raises(DomainError, match=r"^Zed is kept apart but is not playing$"):
        build_rotation(range(1, 9), keep_apart=[frozenset({1, 9})], called=called)
    with pytest.raises(DomainError, match=r"^Ann is fixed to table 3, but 8 players"):
        build_rotation(range(1, 9), fixed_table={1: 3}, called=called)
    with pytest.raises(DomainError, match=r"^player 2 is fixed to table 3"):
        build_rotation(range(1, 9), fixed_table={2: 3}, called=called)


def test_players_fixed_to_different_tables_never_share_one() -> None:
    rotation = build_rotation(range(1, 10), fixed_table={1: 1, 2: 2})
    for round_ in rotation.rounds:
        assert not any({1, 2} <= set(table) for table in round_.tables)


def test_five_players_fixed_to_one_table_is_a_domain_error() -> None:
    with pytest.raises(DomainError, match="5 players are fixed to table 1, which seats 4"):
        build_rotation(range(1, 13), fixed_table={p: 1 for p in range(1, 6)})


def test_repair_keeps_played_rounds_and_adds_a_late_arrival() -> None:
    players = names_for(16)
    night = build_rotation(players, 8, seed=4)
    played = night.rounds[:3]
    late = 99
    repaired = replan_rotation(played, [*players, late], 8, seed=4)
    assert repaired.rounds[:3] == played
    assert len(repaired.rounds) == 8
    assert_valid_rounds(Rotation(repaired.rounds[3:]), [*players, late])
    partners, opponents, byes = counts(repaired, [*players, late])
    assert max(partners.values()) == 1
    assert max(opponents.values()) <= 2
    assert byes[late] == 0


def test_repair_after_a_leaver_keeps_repeats_low() -> None:
    players = names_for(21)
    night = build_rotation(players, 10, seed=8)
    played = night.rounds[:4]
    leaver = players[5]
    staying = [p for p in players if p != leaver]
    repaired = replan_rotation(played, staying, 10, seed=8)
    assert repaired.rounds[:4] == played
    assert all(leaver not in r.players for r in repaired.rounds[4:])
    report = rotation_report(repaired, staying)
    assert report.repeat_partners == 0
    assert report.opponents_beyond_twice == 0


def test_repair_with_a_substitute_starts_the_substitute_fresh() -> None:
    players = names_for(12)
    night = build_rotation(players, 6, seed=1)
    played = night.rounds[:2]
    substitute = 5000
    new_players = [substitute if p == players[0] else p for p in players]
    repaired = replan_rotation(played, new_players, 6, seed=1)
    assert repaired.rounds[:2] == played
    report = rotation_report(repaired, new_players)
    assert report.repeat_partners == 0


def test_repair_cannot_end_before_the_played_rounds() -> None:
    night = build_rotation(range(1, 9), 4)
    with pytest.raises(DomainError, match="4 rounds are already played"):
        replan_rotation(night.rounds, range(1, 9), 3)


def test_cached_chart_is_reused() -> None:
    assert cyclic_chart(13) is cyclic_chart(13)
