"""Round robin by Berger tables, and pools leading to a knockout."""

import itertools
import random
from collections import Counter

import pytest

from core.errors import DomainError
from tests.domain.brackets_support import play_through
from tournaments.domain.brackets import (
    BracketPart,
    MatchStatus,
    Placing,
    SlotKind,
    StructureKind,
    correct_result,
    play,
)
from tournaments.domain.round_robin import (
    berger_rounds,
    knockout_entries,
    pools_knockout,
    round_robin,
)


def _table(rounds):
    return [[(pair.first, pair.second) for pair in played.pairings] for played in rounds]


def test_fide_berger_tables_for_four_and_six():
    assert _table(berger_rounds(4)) == [
        [(1, 4), (2, 3)],
        [(4, 3), (1, 2)],
        [(2, 4), (3, 1)],
    ]
    assert _table(berger_rounds(6)) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


def test_an_odd_field_sits_one_team_out_each_round():
    rounds = berger_rounds(5)
    assert _table(rounds) == [
        [(2, 5), (3, 4)],
        [(5, 3), (1, 2)],
        [(3, 1), (4, 5)],
        [(1, 4), (2, 3)],
        [(4, 2), (5, 1)],
    ]
    assert [played.bye for played in rounds] == [1, 4, 2, 5, 3]


@pytest.mark.parametrize("cycles", [1, 2])
@pytest.mark.parametrize("team_count", range(2, 129))
def test_every_pair_meets_once_per_cycle(team_count, cycles):
    rounds = berger_rounds(team_count, cycles=cycles)
    per_cycle = team_count - 1 if team_count % 2 == 0 else team_count
    assert len(rounds) == per_cycle * cycles
    assert [played.number for played in rounds] == list(range(1, len(rounds) + 1))
    meetings = Counter()
    listed_first = Counter()
    for played in rounds:
        teams = [team for pair in played.pairings for team in (pair.first, pair.second)]
        if played.bye is not None:
            teams.append(played.bye)
        assert sorted(teams) == list(range(1, team_count + 1)), "a team twice in a round"
        assert (played.bye is None) == (team_count % 2 == 0)
        for pair in played.pairings:
            meetings[frozenset((pair.first, pair.second))] += 1
            listed_first[pair.first] += 1
    assert set(meetings) == {
        frozenset(pair) for pair in itertools.combinations(range(1, team_count + 1), 2)
    }
    assert set(meetings.values()) == {cycles}
    byes = Counter(played.bye for played in rounds if played.bye is not None)
    if team_count % 2:
        assert byes == Counter({team: cycles for team in range(1, team_count + 1)})
    games_each = (team_count - 1) * cycles
    counts = [listed_first[team] for team in range(1, team_count + 1)]
    if cycles == 2:
        assert set(counts) == {games_each // 2}
    else:
        assert min(counts) >= games_each // 2
        assert max(counts) <= (games_each + 1) // 2


def test_a_second_cycle_reverses_every_pairing():
    rounds = berger_rounds(4, cycles=2)
    assert _table(rounds[3:]) == [
        [(4, 1), (3, 2)],
        [(3, 4), (2, 1)],
        [(4, 2), (1, 3)],
    ]


def test_round_robin_structure_shows_the_bye():
    structure = round_robin(3)
    assert structure.kind is StructureKind.ROUND_ROBIN
    assert [
        (m.code, m.round, m.first.label, m.second.label, m.is_bye) for m in structure.matches
    ] == [
        ("R1-1", 1, "Seed 2", "Seed 3", False),
        ("R1-2", 1, "Seed 1", "Bye", True),
        ("R2-1", 2, "Seed 1", "Seed 2", False),
        ("R2-2", 2, "Seed 3", "Bye", True),
        ("R3-1", 3, "Seed 3", "Seed 1", False),
        ("R3-2", 3, "Seed 2", "Bye", True),
    ]
    played = play_through(structure, random.Random(1), one_match_at_a_time=False)
    assert len(played.results) == 3
    assert played.state.is_complete
    assert played.state.placings == ()


@pytest.mark.parametrize(("team_count", "cycles"), [(1, 1), (129, 1), (4, 3), (4, 0)])
def test_round_robin_limits(team_count, cycles):
    with pytest.raises(DomainError):
        berger_rounds(team_count, cycles=cycles)


# Pools -------------------------------------------------------------------------------------------


def test_pools_then_a_knockout_of_placeholders():
    structure = pools_knockout(8, pool_count=2, advancing_per_pool=2, third_place=True)
    assert [(pool.name, pool.seeds) for pool in structure.pools] == [
        ("A", (1, 4, 5, 8)),
        ("B", (2, 3, 6, 7)),
    ]
    pool_a = [m for m in structure.matches if m.pool == "A"]
    assert [(m.code, m.first.seed, m.second.seed) for m in pool_a] == [
        ("A1-1", 1, 8),
        ("A1-2", 4, 5),
        ("A2-1", 8, 5),
        ("A2-2", 1, 4),
        ("A3-1", 4, 8),
        ("A3-2", 5, 1),
    ]
    knockout = [m for m in structure.matches if m.pool is None]
    assert [(m.code, m.first.label, m.second.label) for m in knockout] == [
        ("W1-1", "1st in pool A", "2nd in pool B"),
        ("W1-2", "1st in pool B", "2nd in pool A"),
        ("W2-1", "Winner of W1-1", "Winner of W1-2"),
        ("3P", "Loser of W1-1", "Loser of W1-2"),
    ]
    assert all(m.bracket is BracketPart.POOL for m in structure.matches if m.pool)


def test_pool_places_are_filled_from_the_rankings_of_finished_pools():
    structure = pools_knockout(8, pool_count=2, advancing_per_pool=2)
    pool_results = {}
    for match in structure.matches:
        if match.pool:
            pool_results[match.code] = min(match.first.seed, match.second.seed)
    state = play(structure, pool_results)
    assert state.matches["W1-1"].status is MatchStatus.WAITING
    state = play(structure, pool_results, pool_rankings={"A": [1, 4, 5, 8]})
    assert (state.matches["W1-1"].first, state.matches["W1-1"].second) == (1, None)
    assert (state.matches["W1-2"].first, state.matches["W1-2"].second) == (None, 4)
    rankings = {"A": [1, 4, 5, 8], "B": [3, 2, 6, 7]}
    state = play(structure, pool_results, pool_rankings=rankings)
    assert state.ready == ("W1-1", "W1-2")
    assert state.matches["W1-1"].teams == (1, 2)
    assert state.matches["W1-2"].teams == (3, 4)
    state = play(
        structure, {**pool_results, "W1-1": 2, "W1-2": 3, "W2-1": 3}, pool_rankings=rankings
    )
    assert state.placings == (Placing(1, 3), Placing(2, 2), Placing(3, 1), Placing(3, 4))


def test_a_ranking_for_an_unfinished_or_misstated_pool_is_refused():
    structure = pools_knockout(8, pool_count=2, advancing_per_pool=2)
    with pytest.raises(DomainError) as refused:
        play(structure, {"A1-1": 1}, pool_rankings={"A": [1, 4, 5, 8]})
    assert refused.value.message == (
        "Pool A has not finished: A1-2, A2-1, A2-2, A3-1, A3-2 still to play."
    )
    with pytest.raises(DomainError) as refused:
        play(structure, {}, pool_rankings={"A": [1, 4, 5, 7]})
    assert refused.value.message == (
        "The ranking of pool A must list each of its teams once: seeds 1, 4, 5, 8."
    )
    with pytest.raises(DomainError):
        play(structure, {}, pool_rankings={"Z": [1]})


def test_a_pool_correction_that_changes_the_ranking_resets_the_knockout_it_fed():
    structure = pools_knockout(8, pool_count=2, advancing_per_pool=2)
    results = {m.code: min(m.first.seed, m.second.seed) for m in structure.matches if m.pool}
    rankings = {"A": [1, 4, 5, 8], "B": [2, 3, 6, 7]}
    results.update({"W1-1": 1, "W1-2": 2})
    unchanged = correct_result(structure, results, code="A1-2", winner=5, pool_rankings=rankings)
    assert unchanged.reset == ()
    changed = correct_result(
        structure,
        results,
        code="A1-2",
        winner=5,
        pool_rankings=rankings,
        pool_rankings_after={"A": [1, 5, 4, 8], "B": [2, 3, 6, 7]},
    )
    assert changed.reset == ("W1-2",)


@pytest.mark.parametrize(
    ("pools", "advancing", "first_round"),
    [
        (2, 2, [("A", 1, "B", 2), ("B", 1, "A", 2)]),
        (
            4,
            2,
            [("A", 1, "B", 2), ("D", 1, "C", 2), ("B", 1, "A", 2), ("C", 1, "D", 2)],
        ),
        (
            2,
            4,
            [("A", 1, "B", 4), ("B", 2, "A", 3), ("B", 1, "A", 4), ("A", 2, "B", 3)],
        ),
    ],
)
def test_knockout_entries_keep_pool_mates_apart(pools, advancing, first_round):
    structure = pools_knockout(pools * 4, pool_count=pools, advancing_per_pool=advancing)
    real_first_round = [
        (m.first.pool, m.first.place, m.second.pool, m.second.place)
        for m in structure.matches
        if m.code.startswith("W1-")
    ]
    assert real_first_round == first_round


@pytest.mark.parametrize("pools", range(2, 12))
@pytest.mark.parametrize("advancing", [1, 2, 3])
def test_pool_mates_never_meet_in_the_first_knockout_round(pools, advancing):
    entries = knockout_entries([chr(ord("A") + i) for i in range(pools)], advancing)
    assert sorted((slot.pool, slot.place) for slot in entries) == sorted(
        (chr(ord("A") + i), place) for i in range(pools) for place in range(1, advancing + 1)
    )
    assert [slot.place for slot in entries[:pools]] == [1] * pools
    structure = pools_knockout(pools * 3, pool_count=pools, advancing_per_pool=advancing)
    for match in structure.matches:
        if match.code.startswith("W1-") and not match.is_bye:
            assert match.first.kind is SlotKind.POOL_PLACE
            assert match.first.pool != match.second.pool


def test_pools_then_double_elimination_played_through():
    structure = pools_knockout(
        12, pool_count=3, advancing_per_pool=2, double=True, grand_final_reset=True
    )
    pool_results = {
        m.code: min(m.first.seed, m.second.seed) for m in structure.real_matches if m.pool
    }
    rankings = {pool.name: list(pool.seeds) for pool in structure.pools}
    state = play(structure, pool_results, pool_rankings=rankings)
    knockout_results = {}
    while state.ready:
        for code in state.ready:
            knockout_results[code] = min(state.matches[code].teams)
        state = play(structure, {**pool_results, **knockout_results}, pool_rankings=rankings)
    assert len(knockout_results) == 2 * 6 - 2
    assert [p.seed for p in state.placings] == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize(
    ("teams", "pools", "advancing"), [(8, 2, 5), (8, 2, 0), (4, 1, 1), (30, 12, 1)]
)
def test_impossible_pools_are_refused(teams, pools, advancing):
    with pytest.raises(DomainError):
        pools_knockout(teams, pool_count=pools, advancing_per_pool=advancing)
