"""Playing results through a structure: statuses, refusals, placings so far, corrections."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import DomainError
from tests.domain.brackets_support import downstream, favourites, play_through
from tournaments.domain.brackets import (
    BYE,
    MatchState,
    MatchStatus,
    Placing,
    correct_result,
    play,
    structure_as_dict,
)
from tournaments.domain.elimination import double_elimination, single_elimination

W, R, D, B, V = (
    MatchStatus.WAITING,
    MatchStatus.READY,
    MatchStatus.DECIDED,
    MatchStatus.BYE,
    MatchStatus.VOID,
)


def test_a_fresh_bracket_is_ready_where_both_teams_are_known():
    state = play(single_elimination(6), {})
    assert dict(state.matches) == {
        "W1-1": MatchState("W1-1", B, 1, BYE, winner=1, loser=BYE),
        "W1-2": MatchState("W1-2", R, 4, 5),
        "W1-3": MatchState("W1-3", B, 2, BYE, winner=2, loser=BYE),
        "W1-4": MatchState("W1-4", R, 3, 6),
        "W2-1": MatchState("W2-1", W, 1, None),
        "W2-2": MatchState("W2-2", W, 2, None),
        "W3-1": MatchState("W3-1", W, None, None),
    }
    assert state.ready == ("W1-2", "W1-4")
    assert state.placings == ()
    assert state.is_complete is False
    assert state.champion is None


def test_results_move_teams_on_and_place_the_knocked_out():
    structure = single_elimination(6)
    state = play(structure, {"W1-2": 5, "W1-4": 3})
    assert state.matches["W2-1"] == MatchState("W2-1", R, 1, 5)
    assert state.matches["W2-2"] == MatchState("W2-2", R, 2, 3)
    assert state.placings == (Placing(5, 4), Placing(5, 6))
    state = play(structure, {"W1-2": 5, "W1-4": 3, "W2-1": 5, "W2-2": 2})
    assert state.ready == ("W3-1",)
    assert state.placings == (Placing(3, 1), Placing(3, 3), Placing(5, 4), Placing(5, 6))
    assert state.played == ("W1-2", "W1-4", "W2-1", "W2-2")


@pytest.mark.parametrize(
    ("results", "message"),
    [
        ({"W9-1": 1}, "There is no match W9-1 in this bracket."),
        ({"W1-1": 1}, "W1-1 is a bye: it has no result."),
        ({"W2-1": 1}, "W2-1 cannot have a result yet: its teams are not known."),
        ({"W1-2": 1}, "Seed 1 is not in match W1-2 (seeds 4 and 5)."),
    ],
)
def test_impossible_results_are_refused(results, message):
    with pytest.raises(DomainError) as refused:
        play(single_elimination(6), results)
    assert refused.value.message == message


def _to_the_grand_final(structure):
    """Favourites win everything up to the grand final."""
    results = {}
    state = play(structure, results)
    while state.ready and state.ready != ("GF1",):
        for code in state.ready:
            results[code] = min(state.matches[code].teams)
        state = play(structure, results)
    return results


def test_the_reset_is_void_when_the_winners_bracket_champion_wins_the_first_final():
    structure = double_elimination(4, grand_final_reset=True)
    results = _to_the_grand_final(structure)
    assert play(structure, results).matches["GF1"] == MatchState("GF1", R, 1, 2)
    assert play(structure, results).matches["GF2"] == MatchState("GF2", W, None, None)
    state = play(structure, {**results, "GF1": 1})
    assert state.matches["GF2"] == MatchState("GF2", V, 1, 2)
    assert state.is_complete
    assert state.placings[:2] == (Placing(1, 1), Placing(2, 2))
    with pytest.raises(DomainError) as refused:
        play(structure, {**results, "GF1": 1, "GF2": 1})
    assert refused.value.message == ("GF2 was not needed: the winners' bracket champion won GF1.")


def test_the_reset_is_played_when_the_losers_bracket_champion_wins_the_first_final():
    structure = double_elimination(4, grand_final_reset=True)
    results = {**_to_the_grand_final(structure), "GF1": 2}
    state = play(structure, results)
    assert state.matches["GF2"] == MatchState("GF2", R, 2, 1)
    assert state.ready == ("GF2",)
    assert state.champion is None
    assert [placing.seed for placing in state.placings] == [3, 4]
    state = play(structure, {**results, "GF2": 1})
    assert state.placings == (Placing(1, 1), Placing(2, 2), Placing(3, 3), Placing(4, 4))


# Corrections ------------------------------------------------------------------------------------


def test_correcting_a_first_round_match_resets_only_the_path_it_fed():
    structure = single_elimination(8, third_place=True)
    results = play_through(structure, random.Random(0), choose=favourites).results
    correction = correct_result(structure, results, code="W1-2", winner=5)
    assert correction.reset == ("W2-1", "W3-1", "3P")
    assert correction.results == {"W1-1": 1, "W1-2": 5, "W1-3": 2, "W1-4": 3, "W2-2": 2}
    state = play(structure, correction.results)
    assert state.ready == ("W2-1",)
    assert state.matches["W2-1"].teams == (1, 5)


def test_correcting_a_match_whose_winner_has_not_played_on_resets_nothing():
    structure = single_elimination(8)
    results = {"W1-1": 1, "W1-2": 4, "W1-3": 2}
    correction = correct_result(structure, results, code="W1-2", winner=5)
    assert correction.reset == ()
    assert correction.results == {"W1-1": 1, "W1-2": 5, "W1-3": 2}


def test_correcting_a_winners_bracket_match_resets_both_paths_in_a_double_elimination():
    structure = double_elimination(8, grand_final_reset=True)
    results = play_through(structure, random.Random(0), choose=favourites).results
    correction = correct_result(structure, results, code="W2-1", winner=4)
    assert correction.reset == ("W3-1", "L2-2", "L3-1", "L4-1", "GF1")
    assert set(correction.results) == set(results) - set(correction.reset)


def test_correcting_the_first_grand_final_resets_a_played_reset():
    structure = double_elimination(4, grand_final_reset=True)
    results = {**_to_the_grand_final(structure), "GF1": 2, "GF2": 1}
    correction = correct_result(structure, results, code="GF1", winner=1)
    assert correction.reset == ("GF2",)
    assert play(structure, correction.results).matches["GF2"].status is V
    back = correct_result(structure, correction.results, code="GF1", winner=2)
    assert back.reset == ()
    assert play(structure, back.results).ready == ("GF2",)


@pytest.mark.parametrize(
    ("code", "winner", "message"),
    [
        ("W3-1", 1, "Match W3-1 has no result to correct."),
        ("W1-2", 1, "Seed 1 did not play in match W1-2."),
        ("X1", 1, "There is no match X1 in this bracket."),
    ],
)
def test_impossible_corrections_are_refused(code, winner, message):
    structure = single_elimination(8)
    with pytest.raises(DomainError) as refused:
        correct_result(structure, {"W1-1": 1, "W1-2": 4}, code=code, winner=winner)
    assert refused.value.message == message


def test_keeping_the_same_winner_resets_nothing():
    structure = single_elimination(4)
    results = {"W1-1": 1, "W1-2": 2, "W2-1": 1}
    assert correct_result(structure, results, code="W1-1", winner=1).reset == ()


@settings(max_examples=150, deadline=None)
@given(
    team_count=st.integers(min_value=2, max_value=40),
    double=st.booleans(),
    option=st.booleans(),
    seed=st.integers(min_value=0, max_value=2**32),
    stop_after=st.floats(min_value=0.2, max_value=1.0),
)
def test_a_correction_resets_exactly_the_played_matches_downstream(
    team_count, double, option, seed, stop_after
):
    """Whatever has been played, a correction resets the decided matches the corrected one
    feeds, directly or not, and nothing else; the corrected results play on."""
    rng = random.Random(seed)
    structure = (
        double_elimination(team_count, grand_final_reset=option)
        if double
        else single_elimination(team_count, third_place=option)
    )
    everything = play_through(structure, rng).results
    kept = dict(list(everything.items())[: max(1, int(len(everything) * stop_after))])
    code = rng.choice(sorted(kept))
    teams = play(structure, kept).matches[code].teams
    new_winner = teams[0] if kept[code] == teams[1] else teams[1]
    correction = correct_result(structure, kept, code=code, winner=new_winner)
    assert set(correction.reset) == set(kept) & downstream(structure, code)
    after = play(structure, correction.results)
    assert after.matches[code].winner == new_winner
    for other in set(kept) - set(correction.reset) - {code}:
        assert after.matches[other].winner == kept[other]


def test_structure_as_dict_is_what_the_blank_sheet_shows():
    described = structure_as_dict(double_elimination(3, grand_final_reset=True))
    assert described["kind"] == "double"
    assert described["teams"] == 3
    assert [
        (m["code"], m["round"], [s["label"] for s in m["slots"]], m["is_bye"])
        for m in described["matches"]
    ] == [
        ("W1-1", 1, ["Seed 1", "Bye"], True),
        ("W1-2", 1, ["Seed 2", "Seed 3"], False),
        ("W2-1", 2, ["Winner of W1-1", "Winner of W1-2"], False),
        ("L1-1", 1, ["Loser of W1-1", "Loser of W1-2"], True),
        ("L2-1", 2, ["Loser of W2-1", "Winner of L1-1"], False),
        ("GF1", 1, ["Winner of W2-1", "Winner of L2-1"], False),
        ("GF2", 2, ["Winner of GF1", "Loser of GF1"], False),
    ]
    assert described["matches"][1]["slots"] == [
        {"kind": "seed", "label": "Seed 2", "seed": 2},
        {"kind": "seed", "label": "Seed 3", "seed": 3},
    ]
    assert described["matches"][3]["slots"][0] == {
        "kind": "loser",
        "label": "Loser of W1-1",
        "match": "W1-1",
    }
