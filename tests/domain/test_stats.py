"""Player and team stats on hand-made games, every count worked out by hand below."""

from __future__ import annotations

import json

import pytest

from core.errors import DomainError
from scoring.standings.domain.standings import GameRecord, SideTally
from scoring.standings.domain.stats import (
    HandRecord,
    PairRecord,
    player_stats,
    side_tallies,
    team_stats,
)
from tests.domain.test_standings import game

# Seats clockwise: 1, 3, 2, 4. Side A (seats 0 and 2) is players 1 and 2; side B is 3 and 4.
SEATS = (1, 3, 2, 4)


def hand(number, makers, tricks=None, **facts) -> HandRecord:
    return HandRecord(
        game_id=1, number=number, seats=SEATS, makers=makers, tricks_won=tricks, **facts
    )


HANDS = [
    hand(1, "A", 3, caller_id=1),  # made by 1
    hand(2, "A", 5, caller_id=2),  # march by 1 and 2
    hand(3, "B", 1, caller_id=3),  # 3 and 4 euchred
    hand(4, "A", 5, caller_id=1, caller_alone=True),  # 1's loner marched; 2 sits out
    # 4 goes alone, 2 defends alone: 4 is euchred by 2; 3 and 1 sit out.
    hand(5, "B", 2, caller_id=4, caller_alone=True, defender_alone=True, lone_defender_id=2),
    HandRecord(game_id=1, number=6, seats=SEATS, makers=None, thrown_in=True),
    hand(7, "A", None, caller_id=2, renege="B"),  # B reneged: 2's call stands
    hand(8, "B", 4, caller_id=None),  # made, caller not recorded
    hand(9, "A", None, caller_id=1, renege="A"),  # 1's own side reneged
]

# Game 1 is the hands above (A won 10-7); game 2: (1, 3) lost 6-10 to (2, 4); game 3: (1, 4)
# drew 8-8 with (2, 3); game 4: (3, 4) forfeited to (1, 2).
GAMES = [
    game(1, (1, 2), (3, 4), 10, 7),
    game(2, (1, 3), (2, 4), 6, 10),
    game(3, (1, 4), (2, 3), 8, 8),
    game(4, (1, 2), (3, 4), 0, 0, forfeited_by="B"),
]


def by_player():
    return {stats.player_id: stats for stats in player_stats(GAMES, HANDS)}


HAND_COUNTS = (
    "hands",
    "calls",
    "calls_made",
    "marches",
    "loners_tried",
    "loners_made",
    "loners_marched",
    "euchres_suffered",
    "euchres_inflicted",
    "reneges",
)


@pytest.mark.parametrize(
    ("player", "expected"),
    [
        # 8 hands (6 was thrown in). Calls 1, 4, 9; made good 1 and 4. Marches 2 and 4. Loner 4.
        # Inflicted 3 (sat out 5, where 2 defended alone). Reneged in 9.
        (1, (8, 3, 2, 2, 1, 1, 1, 0, 1, 1)),
        # Calls 2 and 7, both good (B reneged in 7). March 2 (sat out 4). Inflicted 3 and 5.
        (2, (8, 2, 2, 1, 0, 0, 0, 0, 2, 1)),
        # Call 3, euchred. Suffered 3 (sat out 5). Reneged in 7.
        (3, (8, 1, 0, 0, 0, 0, 0, 1, 0, 1)),
        # Lone call 5, euchred. Suffered 3 and 5. Reneged in 7.
        (4, (8, 1, 0, 0, 1, 0, 0, 2, 0, 1)),
    ],
)
def test_hand_counts_per_player(player, expected):
    stats = by_player()[player]
    assert tuple(getattr(stats, name) for name in HAND_COUNTS) == expected


def test_records_and_points_per_player_leave_forfeits_apart():
    stats = by_player()
    one, two = stats[1], stats[2]
    assert (one.games, one.wins, one.losses, one.draws) == (3, 1, 1, 1)
    assert (one.forfeit_wins, one.forfeit_losses) == (1, 0)
    assert (one.points_for, one.points_against, one.points_per_game) == (24, 25, 8.0)
    assert (two.games, two.wins, two.losses, two.draws) == (3, 2, 0, 1)
    assert (two.points_for, two.points_against, two.points_per_game) == (28, 21, 28 / 3)
    assert (stats[3].forfeit_wins, stats[3].forfeit_losses) == (0, 1)


def test_partner_and_opponent_records():
    stats = by_player()
    assert stats[1].partners == (
        PairRecord(other_id=2, games=1, wins=1, losses=0, draws=0),
        PairRecord(other_id=3, games=1, wins=0, losses=1, draws=0),
        PairRecord(other_id=4, games=1, wins=0, losses=0, draws=1),
    )
    assert stats[1].opponents == (
        PairRecord(other_id=2, games=2, wins=0, losses=1, draws=1),
        PairRecord(other_id=3, games=2, wins=1, losses=0, draws=1),
        PairRecord(other_id=4, games=2, wins=1, losses=1, draws=0),
    )
    assert stats[2].opponents == (
        PairRecord(other_id=1, games=2, wins=1, losses=0, draws=1),
        PairRecord(other_id=3, games=2, wins=2, losses=0, draws=0),
        PairRecord(other_id=4, games=2, wins=1, losses=0, draws=1),
    )


def test_player_stats_are_sorted_and_json_able():
    stats = player_stats(GAMES, HANDS)
    assert [s.player_id for s in stats] == [1, 2, 3, 4]
    data = json.loads(json.dumps(stats[0].to_dict()))
    assert data["partners"][0] == {"other_id": 2, "games": 1, "wins": 1, "losses": 0, "draws": 0}
    assert data["calls_made"] == 2


def test_an_unknown_lone_caller_leaves_both_partners_in_play():
    hands = [hand(1, "A", 5, caller_id=None, caller_alone=True)]
    stats = {s.player_id: s for s in player_stats([GAMES[0]], hands)}
    assert (stats[1].marches, stats[2].marches) == (1, 1)
    assert (stats[1].loners_tried, stats[2].loners_tried) == (0, 0)


# --- team stats ----------------------------------------------------------------------------

TEAM_GAMES = [
    GameRecord(1, (10,), (20,), 10, 7, "A", players_a=(1, 2), players_b=(3, 4)),
    GameRecord(2, (20,), (30,), 10, 10, None, players_a=(3, 4), players_b=(5, 6)),
    GameRecord(3, (30,), (10,), 0, 0, None, forfeited_by="A", players_a=(5, 6), players_b=(1, 2)),
]


def test_team_stats_count_the_side_as_a_whole():
    teams = {stats.team_id: stats for stats in team_stats(TEAM_GAMES, HANDS)}
    ten, twenty = teams[10], teams[20]
    # Team 10 made trump in 1, 2, 4, 7 and 9 (good in all but 9), marched 2 and 4 (a loner),
    # euchred the makers in 3 and 5, reneged in 9.
    assert tuple(getattr(ten, name) for name in HAND_COUNTS) == (8, 5, 4, 2, 1, 1, 1, 0, 2, 1)
    # Team 20 made trump in 3, 5 and 8 (good in 8), its loner in 5 euchred, reneged in 7.
    assert tuple(getattr(twenty, name) for name in HAND_COUNTS) == (8, 3, 1, 0, 1, 0, 0, 2, 0, 1)
    assert (ten.games, ten.wins, ten.forfeit_wins, ten.points_for, ten.points_against) == (
        1,
        1,
        1,
        10,
        7,
    )
    assert (twenty.games, twenty.wins, twenty.losses, twenty.draws) == (2, 0, 1, 1)
    assert twenty.points_per_game == 8.5
    assert twenty.opponents == (
        PairRecord(other_id=10, games=1, wins=0, losses=1, draws=0),
        PairRecord(other_id=30, games=1, wins=0, losses=0, draws=1),
    )
    assert teams[30].forfeit_losses == 1
    assert json.loads(json.dumps(ten.to_dict()))["opponents"][0]["other_id"] == 20


def test_team_stats_refuse_individual_games():
    with pytest.raises(ValueError, match="game 1 is not a team game"):
        team_stats(GAMES, [])


def test_team_stats_need_the_game_of_every_hand():
    with pytest.raises(ValueError, match="hand 1 belongs to game 1, not given"):
        team_stats(TEAM_GAMES[1:], HANDS[:1])


# --- side tallies ------------------------------------------------------------------------------


def test_side_tallies_feed_the_euchre_tiebreaks():
    other_game = HandRecord(game_id=2, number=1, seats=SEATS, makers="B", tricks_won=5)
    assert side_tallies([*HANDS, other_game]) == {
        1: (
            SideTally(marches=2, loners_made=1, euchres_inflicted=2),
            SideTally(marches=0, loners_made=0, euchres_inflicted=0),
        ),
        2: (SideTally(), SideTally(marches=1)),
    }


# --- hand checks -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        ({"seats": (1, 1, 2, 3)}, "hand 1 of game 1 needs four different players"),
        ({"makers": None, "thrown_in": True}, "was thrown in: it has no makers, tricks or renege"),
        ({"makers": None}, "hand 1 of game 1: say which side made trump"),
        ({"tricks_won": 6}, "tricks are 0 to 5"),
        ({"tricks_won": None}, "say how many tricks the makers took"),
        ({"renege": "C"}, "the side that reneged is A or B"),
        ({"caller_id": 3}, "the caller sits on the makers' side"),
        ({"lone_defender_id": 3}, "the lone defender sits on the defending side and went alone"),
        (
            {"defender_alone": True, "lone_defender_id": 2},
            "the lone defender sits on the defending side",
        ),
    ],
)
def test_hand_records_are_checked(facts, message):
    values = {
        "game_id": 1,
        "number": 1,
        "seats": SEATS,
        "makers": "A",
        "tricks_won": 3,
        "caller_id": 1,
    }
    with pytest.raises(DomainError, match=message):
        HandRecord(**(values | facts))
