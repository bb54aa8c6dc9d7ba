"""The rounds a night's plan starts from (tournaments.domain.rotation_chart.default_rounds)."""

import pytest

from tournaments.domain.rotation_chart import DefaultRounds, default_rounds


@pytest.mark.parametrize(
    ("players", "rounds"),
    [(4, 3), (5, 3), (8, 3), (12, 3), (13, 4), (16, 5), (20, 5), (40, 5)],
)
def test_what_fits_an_evening(players, rounds):
    assert default_rounds(players) == DefaultRounds(rounds, "what fits an evening")


def test_usual_then_last_then_the_evening():
    assert default_rounds(12, usual=4, last=6) == DefaultRounds(
        4, "the season's usual rounds a night"
    )
    assert default_rounds(12, last=6) == DefaultRounds(6, "as many as the last night")


def test_capped_at_the_full_cycle():
    assert default_rounds(4, usual=8) == DefaultRounds(3, "the full cycle of 4 players")
    assert default_rounds(6, last=9) == DefaultRounds(6, "the full cycle of 6 players")


def test_fewer_than_four_players_still_start_somewhere():
    assert default_rounds(0).rounds == 3
