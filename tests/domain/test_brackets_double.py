"""Double elimination, for every field size from 2 to 128, and where the losers drop."""

import itertools
import random

import pytest

from tests.domain.brackets_support import (
    favourites,
    first_round_lines,
    play_through,
    teams_by_round,
    underdogs,
)
from tournaments.domain.brackets import BracketPart, MatchStatus, Placing, SlotKind, Structure
from tournaments.domain.elimination import double_elimination, losers_drop_order
from tournaments.domain.seeding import bracket_size, standard_order

FIELD_SIZES = range(2, 129)


@pytest.mark.parametrize("reset", [False, True], ids=["one-final", "reset"])
@pytest.mark.parametrize("team_count", FIELD_SIZES)
def test_double_elimination_played_through_at_random(team_count, reset):
    structure = double_elimination(team_count, grand_final_reset=reset)
    played = play_through(structure, random.Random(team_count * 2 + reset))
    state = played.state
    final = state.matches["GF1"]
    losers_champion_won_the_final = final.winner == final.second
    reset_played = reset and losers_champion_won_the_final

    assert state.is_complete
    assert len(played.results) == 2 * team_count - 2 + (1 if reset_played else 0)
    assert ("GF2" in played.results) is reset_played
    if reset:
        expected = MatchStatus.DECIDED if reset_played else MatchStatus.VOID
        assert state.matches["GF2"].status is expected

    champion = state.champion
    losses = played.losses
    for team in range(1, team_count + 1):
        if team == champion:
            assert losses[team] == (1 if losers_champion_won_the_final else 0)
        elif not reset and team == final.first and losers_champion_won_the_final:
            # Without a reset, the winners' bracket champion is runner-up after one loss.
            assert losses[team] == 1
        else:
            assert losses[team] == 2, f"seed {team} lost {losses[team]} times"

    # Nobody plays after a second loss.
    beaten: dict[int, int] = {}
    for match in structure.matches:
        match_state = state.matches[match.code]
        if match_state.status is MatchStatus.DECIDED:
            assert all(beaten.get(team, 0) < 2 for team in match_state.teams)
            beaten[match_state.loser] = beaten.get(match_state.loser, 0) + 1

    for teams in teams_by_round(structure, state).values():
        assert len(teams) == len(set(teams)), "a team played twice in a round"

    size = bracket_size(team_count)
    assert first_round_lines(structure) == [
        seed if seed <= team_count else None for seed in standard_order(size)
    ]

    assert sorted(placing.seed for placing in state.placings) == list(range(1, team_count + 1))
    assert _places_by_elimination(structure, state) == {
        placing.seed: placing.place for placing in state.placings
    }


def _places_by_elimination(structure: Structure, state):
    """Independent placings: one place below every team knocked out at a later stage."""
    stage = {}
    for match in structure.matches:
        match_state = state.matches[match.code]
        if match_state.status is not MatchStatus.DECIDED:
            continue
        if match.bracket is BracketPart.LOSERS:
            stage[match_state.loser] = match.round
        elif match.bracket is BracketPart.FINAL:
            stage[match_state.loser] = 1000
            stage[match_state.winner] = 1001
    return {
        team: 1 + sum(1 for other in stage.values() if other > own) for team, own in stage.items()
    }


def test_eight_team_structure():
    structure = double_elimination(8, grand_final_reset=True)
    assert [(m.code, m.round, m.first.label, m.second.label) for m in structure.matches] == [
        ("W1-1", 1, "Seed 1", "Seed 8"),
        ("W1-2", 1, "Seed 4", "Seed 5"),
        ("W1-3", 1, "Seed 2", "Seed 7"),
        ("W1-4", 1, "Seed 3", "Seed 6"),
        ("W2-1", 2, "Winner of W1-1", "Winner of W1-2"),
        ("W2-2", 2, "Winner of W1-3", "Winner of W1-4"),
        ("W3-1", 3, "Winner of W2-1", "Winner of W2-2"),
        ("L1-1", 1, "Loser of W1-1", "Loser of W1-2"),
        ("L1-2", 1, "Loser of W1-3", "Loser of W1-4"),
        # The second round's losers drop in reverse order: no rematch of W1 in L2.
        ("L2-1", 2, "Loser of W2-2", "Winner of L1-1"),
        ("L2-2", 2, "Loser of W2-1", "Winner of L1-2"),
        ("L3-1", 3, "Winner of L2-1", "Winner of L2-2"),
        ("L4-1", 4, "Loser of W3-1", "Winner of L3-1"),
        ("GF1", 1, "Winner of W3-1", "Winner of L4-1"),
        ("GF2", 2, "Winner of GF1", "Loser of GF1"),
    ]
    assert structure.by_code["GF2"].reset_of == "GF1"
    assert [(m.code, m.loser_place) for m in structure.matches if m.loser_place] == [
        ("L1-1", 7),
        ("L1-2", 7),
        ("L2-1", 5),
        ("L2-2", 5),
        ("L3-1", 4),
        ("L4-1", 3),
        ("GF1", 2),
        ("GF2", 2),
    ]


def test_two_teams_meet_again_in_the_grand_final():
    structure = double_elimination(2, grand_final_reset=True)
    assert [(m.code, m.first.label, m.second.label) for m in structure.matches] == [
        ("W1-1", "Seed 1", "Seed 2"),
        ("GF1", "Winner of W1-1", "Loser of W1-1"),
        ("GF2", "Winner of GF1", "Loser of GF1"),
    ]


def upset_first_final(code, teams):
    """Favourites win, except that the losers' bracket champion wins the first grand final."""
    return teams[1] if code == "GF1" else min(teams)


FIFTH_TO_EIGHTH = [(5, 5), (5, 6), (7, 7), (7, 8)]
NINTH_TO_TWELFTH = [(9, 9), (9, 10), (9, 11), (9, 12)]


@pytest.mark.parametrize(
    ("team_count", "reset", "choose", "placings", "matches"),
    [
        (8, True, favourites, [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (5, 6), (7, 7), (7, 8)], 14),
        (8, True, underdogs, [(1, 8), (2, 7), (3, 6), (4, 5), (5, 3), (5, 4), (7, 1), (7, 2)], 14),
        (8, True, upset_first_final, [(1, 1), (2, 2), (3, 3), (4, 4), *FIFTH_TO_EIGHTH], 15),
        (8, False, upset_first_final, [(1, 2), (2, 1), (3, 3), (4, 4), *FIFTH_TO_EIGHTH], 14),
        (8, False, underdogs, [(1, 8), (2, 7), (3, 6), (4, 5), (5, 3), (5, 4), (7, 1), (7, 2)], 14),
        (5, True, favourites, [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)], 8),
        (3, True, underdogs, [(1, 3), (2, 2), (3, 1)], 4),
        (
            12,
            False,
            favourites,
            [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (5, 6), (7, 7), (7, 8), *NINTH_TO_TWELFTH],
            22,
        ),
    ],
)
def test_exact_placings(team_count, reset, choose, placings, matches):
    structure = double_elimination(team_count, grand_final_reset=reset)
    played = play_through(structure, random.Random(0), choose=choose)
    assert played.state.placings == tuple(Placing(place, seed) for place, seed in placings)
    assert len(played.results) == matches


def test_byes_carry_into_the_losers_bracket_and_are_never_played():
    """5 teams in 8 lines: three W1 byes leave L1 with one team and one empty match."""
    structure = double_elimination(5)
    assert [m.code for m in structure.matches if m.is_bye] == [
        "W1-1",
        "W1-3",
        "W1-4",
        "L1-1",
        "L1-2",
        "L2-2",
    ]
    assert len(structure.real_matches) == 2 * 5 - 2


# Where rematches can happen --------------------------------------------------------------------


def _routes(structure: Structure, size: int):
    """From the structure alone: each (line, first-loss round) → the losers' matches in order."""
    rounds = size.bit_length() - 1
    feeds: dict[tuple[SlotKind, str], str] = {}
    for match in structure.matches:
        for slot in match.slots:
            if slot.kind in (SlotKind.WINNER, SlotKind.LOSER):
                feeds[(slot.kind, slot.match)] = match.code

    def losers_path(line: int, lost_in: int) -> list[str]:
        code = feeds[(SlotKind.LOSER, f"W{lost_in}-{(line >> lost_in) + 1}")]
        path = []
        while code.startswith("L"):
            path.append(code)
            code = feeds[(SlotKind.WINNER, code)]
        return path

    return {
        (line, lost_in): losers_path(line, lost_in)
        for line in range(size)
        for lost_in in range(1, rounds + 1)
    }


def earliest_rematch_round(structure: Structure, size: int) -> int | None:
    """The earliest losers' round in which two teams that met in the winners' bracket can meet
    again, over every possible set of results.

    Teams on lines a and b meet in the winners' bracket in round q (the highest bit in which a
    and b differ); one loses there, the other loses later, in round r > q (or never). Both then
    go up the losers' bracket from where they dropped; they meet again at the first match their
    paths share, if both win until then — which results can always arrange.
    """
    routes = _routes(structure, size)
    rounds = size.bit_length() - 1
    earliest = None
    for line_a, line_b in itertools.combinations(range(size), 2):
        met_in = (line_a ^ line_b).bit_length()
        for loser, winner in ((line_a, line_b), (line_b, line_a)):
            beaten_path = routes[(loser, met_in)]
            for lost_later in range(met_in + 1, rounds + 1):
                shared = [code for code in routes[(winner, lost_later)] if code in beaten_path]
                if shared:
                    meeting = structure.by_code[shared[0]].round
                    earliest = meeting if earliest is None else min(earliest, meeting)
    return earliest


@pytest.mark.parametrize(
    ("size", "earliest", "losers_rounds"),
    [(4, 2, 2), (8, 3, 4), (16, 4, 6), (32, 5, 8), (64, 7, 10), (128, 8, 12)],
)
def test_a_dropped_team_cannot_meet_a_team_it_beat_until_late(size, earliest, losers_rounds):
    """The drop order pushes the first possible rematch late (natural order: round 2)."""
    structure = double_elimination(size)
    assert max(m.round for m in structure.matches if m.bracket is BracketPart.LOSERS) == (
        losers_rounds
    )
    assert earliest_rematch_round(structure, size) == earliest


def _earliest_for_orders(size: int, orders: dict[int, tuple[int, ...]]) -> int:
    """``earliest_rematch_round`` for an abstract losers' bracket with the given drop orders."""
    rounds = size.bit_length() - 1

    def path(line: int, lost_in: int) -> list[tuple[int, int]]:
        if lost_in == 1:
            losers_round, index = 1, line >> 2
        else:
            losers_round, index = 2 * (lost_in - 1), orders[lost_in][line >> lost_in]
        steps = []
        while losers_round <= 2 * (rounds - 1):
            steps.append((losers_round, index))
            if losers_round % 2 == 0:
                index //= 2
            losers_round += 1
        return steps

    earliest = 10**6
    for line_a, line_b in itertools.combinations(range(size), 2):
        met_in = (line_a ^ line_b).bit_length()
        for loser, winner in ((line_a, line_b), (line_b, line_a)):
            beaten_path = path(loser, met_in)
            for lost_later in range(met_in + 1, rounds + 1):
                shared = [step for step in path(winner, lost_later) if step in beaten_path]
                if shared:
                    earliest = min(earliest, shared[0][0])
    return earliest


@pytest.mark.parametrize("size", [8, 16])
def test_no_drop_order_at_all_does_better(size):
    """Every permutation of every winners' round's drop order, against the engine's choice."""
    rounds = size.bit_length() - 1
    choices = [list(itertools.permutations(range(size >> r))) for r in range(2, rounds + 1)]
    best = max(
        _earliest_for_orders(size, dict(zip(range(2, rounds + 1), combo, strict=True)))
        for combo in itertools.product(*choices)
    )
    assert best == earliest_rematch_round(double_elimination(size), size)
    natural = {r: tuple(range(size >> r)) for r in range(2, rounds + 1)}
    assert _earliest_for_orders(size, natural) == 2


def test_drop_orders():
    assert losers_drop_order(8, 1) == (0, 0, 1, 1)
    assert losers_drop_order(8, 2) == (1, 0)
    assert losers_drop_order(16, 2) == (3, 2, 1, 0)
    assert losers_drop_order(16, 3) == (0, 1)
    assert losers_drop_order(32, 2) == (7, 6, 5, 4, 3, 2, 1, 0)
    assert losers_drop_order(32, 3) == (1, 0, 3, 2)
    for size in (8, 16, 32, 64, 128, 256, 512, 1024):
        for winners_round in range(2, size.bit_length()):
            order = losers_drop_order(size, winners_round)
            assert sorted(order) == list(range(size >> winners_round))
