"""Single elimination, for every field size from 2 to 128, played through with random results."""

import random

import pytest

from core.errors import DomainError
from tests.domain.brackets_support import (
    favourites,
    first_round_lines,
    play_through,
    teams_by_round,
    underdogs,
)
from tournaments.domain.brackets import BracketPart, MatchStatus, Placing, SlotKind
from tournaments.domain.elimination import single_elimination
from tournaments.domain.seeding import bracket_size, standard_order

FIELD_SIZES = range(2, 129)


@pytest.mark.parametrize("third_place", [False, True], ids=["plain", "third-place"])
@pytest.mark.parametrize("team_count", FIELD_SIZES)
def test_single_elimination_played_through_at_random(team_count, third_place):
    structure = single_elimination(team_count, third_place=third_place)
    has_third_place_match = third_place and team_count >= 4
    expected_matches = team_count - 1 + (1 if has_third_place_match else 0)
    played = play_through(structure, random.Random(team_count * 2 + third_place))
    state = played.state

    assert state.is_complete
    assert state.ready == ()
    assert len(played.results) == expected_matches
    assert len(structure.real_matches) == expected_matches
    assert ("3P" in structure.by_code) is has_third_place_match
    assert structure.third_place is has_third_place_match

    # Out after one loss: nobody plays after losing, except the semi-final losers' 3P match.
    first_loss: dict[int, int] = {}
    for position, match in enumerate(structure.matches):
        match_state = state.matches[match.code]
        if match_state.status is not MatchStatus.DECIDED:
            continue
        for team in match_state.teams:
            if team in first_loss:
                assert match.code == "3P"
        first_loss.setdefault(match_state.loser, position)
    assert len(first_loss) == team_count - 1
    champion = state.champion
    assert champion not in first_loss
    assert set(first_loss) | {champion} == set(range(1, team_count + 1))

    for teams in teams_by_round(structure, state).values():
        assert len(teams) == len(set(teams)), "a team played twice in a round"

    size = bracket_size(team_count)
    assert first_round_lines(structure) == [
        seed if seed <= team_count else None for seed in standard_order(size)
    ]
    bye_matches = [match for match in structure.matches if match.is_bye]
    assert sorted(match.first.seed for match in bye_matches) == list(
        range(1, size - team_count + 1)
    )
    assert all(match.second.kind is SlotKind.BYE for match in bye_matches)

    assert [placing.seed for placing in state.placings if placing.place == 1] == [champion]
    assert sorted(placing.seed for placing in state.placings) == list(range(1, team_count + 1))
    assert _places_by_elimination(structure, state) == {
        placing.seed: placing.place for placing in state.placings
    }


def _places_by_elimination(structure, state):
    """Independent placings: one place below every team knocked out later; a 3P match splits
    its two teams."""
    out_in_round = {}
    rounds = max(match.round for match in structure.matches)
    for match in structure.matches:
        match_state = state.matches[match.code]
        if match_state.status is MatchStatus.DECIDED and match.bracket is BracketPart.WINNERS:
            out_in_round[match_state.loser] = match.round
    out_in_round[state.champion] = rounds + 1
    if "3P" in structure.by_code:
        third = state.matches["3P"]
        out_in_round[third.winner] = rounds - 0.5
        out_in_round[third.loser] = rounds - 0.75
    return {
        team: 1 + sum(1 for other in out_in_round.values() if other > stage)
        for team, stage in out_in_round.items()
    }


def test_twelve_teams_play_eight_nine_five_twelve_seven_ten_six_eleven_first():
    structure = single_elimination(12)
    real_first_round = [
        (match.first.seed, match.second.seed)
        for match in structure.matches
        if match.round == 1 and not match.is_bye
    ]
    assert real_first_round == [(8, 9), (5, 12), (7, 10), (6, 11)]
    assert [match.code for match in structure.matches if match.is_bye] == [
        "W1-1",
        "W1-3",
        "W1-5",
        "W1-7",
    ]


def test_eight_teams_structure_and_labels():
    structure = single_elimination(8, third_place=True)
    assert [(m.code, m.round, m.first.label, m.second.label) for m in structure.matches] == [
        ("W1-1", 1, "Seed 1", "Seed 8"),
        ("W1-2", 1, "Seed 4", "Seed 5"),
        ("W1-3", 1, "Seed 2", "Seed 7"),
        ("W1-4", 1, "Seed 3", "Seed 6"),
        ("W2-1", 2, "Winner of W1-1", "Winner of W1-2"),
        ("W2-2", 2, "Winner of W1-3", "Winner of W1-4"),
        ("W3-1", 3, "Winner of W2-1", "Winner of W2-2"),
        ("3P", 3, "Loser of W2-1", "Loser of W2-2"),
    ]
    assert [(m.code, m.winner_place, m.loser_place) for m in structure.matches] == [
        ("W1-1", None, 5),
        ("W1-2", None, 5),
        ("W1-3", None, 5),
        ("W1-4", None, 5),
        ("W2-1", None, None),
        ("W2-2", None, None),
        ("W3-1", 1, 2),
        ("3P", 3, 4),
    ]


NINTH_TO_TWELFTH = [(9, 9), (9, 10), (9, 11), (9, 12)]


@pytest.mark.parametrize(
    ("team_count", "third_place", "choose", "placings"),
    [
        (8, False, favourites, [(1, 1), (2, 2), (3, 3), (3, 4), (5, 5), (5, 6), (5, 7), (5, 8)]),
        (8, True, favourites, [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (5, 6), (5, 7), (5, 8)]),
        (8, True, underdogs, [(1, 8), (2, 7), (3, 6), (4, 5), (5, 1), (5, 2), (5, 3), (5, 4)]),
        (3, True, favourites, [(1, 1), (2, 2), (3, 3)]),
        (2, True, underdogs, [(1, 2), (2, 1)]),
        (
            12,
            False,
            favourites,
            [(1, 1), (2, 2), (3, 3), (3, 4), (5, 5), (5, 6), (5, 7), (5, 8), *NINTH_TO_TWELFTH],
        ),
        (5, True, favourites, [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]),
        (6, False, favourites, [(1, 1), (2, 2), (3, 3), (3, 4), (5, 5), (5, 6)]),
    ],
)
def test_exact_placings(team_count, third_place, choose, placings):
    structure = single_elimination(team_count, third_place=third_place)
    state = play_through(structure, random.Random(0), choose=choose).state
    assert state.placings == tuple(Placing(place, seed) for place, seed in placings)


def test_two_and_three_teams_get_no_third_place_match():
    """With fewer than 4 teams there are not two semi-final losers: the option adds nothing."""
    for team_count in (2, 3):
        structure = single_elimination(team_count, third_place=True)
        assert "3P" not in structure.by_code
        assert structure.third_place is False
    assert [m.code for m in single_elimination(2).matches] == ["W1-1"]


@pytest.mark.parametrize("team_count", [-1, 0, 1, 4097])
def test_field_size_limits(team_count):
    with pytest.raises(DomainError):
        single_elimination(team_count)
