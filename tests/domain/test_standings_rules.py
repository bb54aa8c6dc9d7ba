"""Season rules around the chain: forfeits, byes, best nights, the minimum of games, individual
seasons, and the checks on the input records."""

from __future__ import annotations

import pytest

from core.errors import DomainError
from scoring.standings.domain.standings import Bye, GameRecord, SeasonRules, compute_standings
from tests.domain.test_standings import NAMES, game, order_of, reasons

CHAIN = ("win_pct", "head_to_head", "point_diff")


def standings(games, *, byes=(), **rules):
    return compute_standings(
        games, SeasonRules(tiebreaks=rules.pop("tiebreaks", CHAIN), **rules), byes=byes, names=NAMES
    )


def record(row):
    return (row.games, row.wins, row.losses, row.draws, row.points_for, row.points_against)


# --- forfeits ----------------------------------------------------------------------------------

# Bowers forfeit to Aces (the 3-0 on the sheet is ignored); Aces beat Clubs 10-6; Bowers beat
# Clubs 10-8.
FORFEIT_SEASON = [
    game(1, 1, 2, 3, 0, forfeited_by="B"),
    game(2, 1, 3, 10, 6),
    game(3, 2, 3, 10, 8),
]


def test_a_forfeit_that_counts_as_a_game_is_a_win_and_a_loss_at_the_forfeit_points():
    table = standings(FORFEIT_SEASON)
    aces, bowers = table.row(1), table.row(2)
    assert record(aces) == (2, 2, 0, 0, 20, 6)
    assert (aces.forfeit_wins, aces.forfeit_losses) == (1, 0)
    assert record(bowers) == (2, 1, 1, 0, 10, 18)
    assert (bowers.forfeit_wins, bowers.forfeit_losses) == (0, 1)
    assert bowers.games_in_season == 2
    assert order_of(table) == [1, 2, 3]


def test_a_forfeit_counts_in_head_to_head_when_it_counts_as_a_game():
    # Diamonds beat Aces and lose to Bowers: both 2-1, and Aces won the forfeit.
    games = [*FORFEIT_SEASON, game(4, 4, 1, 10, 2), game(5, 2, 4, 10, 9)]
    table = standings(games)
    assert order_of(table)[:2] == [1, 2]
    assert table.row(2).reason == "behind Aces on head-to-head (0–1)"


def test_a_forfeit_that_does_not_count_only_moves_points():
    table = standings(FORFEIT_SEASON, forfeit_counts_as_game=False)
    aces, bowers = table.row(1), table.row(2)
    assert record(aces) == (1, 1, 0, 0, 20, 6)
    assert record(bowers) == (1, 1, 0, 0, 10, 18)
    assert (aces.forfeit_wins, bowers.forfeit_losses) == (1, 1)
    assert (aces.games_in_season, bowers.games_in_season) == (1, 1)
    assert reasons(table)[2] == (
        "Aces and Bowers have not played each other; behind Aces on point difference (-8 to +14)"
    )


def test_forfeit_points_follow_the_rule():
    table = standings(FORFEIT_SEASON, forfeit_points_to_winner=6, forfeit_points_to_forfeiter=2)
    assert record(table.row(1)) == (2, 2, 0, 0, 16, 8)
    assert record(table.row(2)) == (2, 1, 1, 0, 12, 14)


def test_a_forfeit_game_takes_its_winner_from_the_forfeiting_side():
    assert game(1, 1, 2, 0, 0, forfeited_by="A").winner == "B"
    with pytest.raises(DomainError, match="the side that forfeited cannot win it"):
        GameRecord(1, (1,), (2,), 10, 0, winner="A", forfeited_by="A")


# --- byes ------------------------------------------------------------------------------------

# Aces: beat Bowers 10-4, lost to Clubs 7-10, lost to Diamonds 6-10; a bye on night 2.
# Their average is 23 / 3 = 7.67 points a game.
BYE_SEASON = [game(1, 1, 2, 10, 4), game(2, 3, 1, 10, 7), game(3, 4, 1, 10, 6)]


@pytest.mark.parametrize(
    ("rules", "games", "wins", "points_for", "win_pct"),
    [
        ({"bye_value": "nothing"}, 3, 1, 23, 1 / 3),
        ({"bye_value": "fixed", "bye_points": 5}, 3, 1, 28, 1 / 3),
        ({"bye_value": "fixed", "bye_points": 5, "bye_counts_as_win": True}, 4, 2, 28, 0.5),
        ({"bye_value": "fixed", "bye_points": 0, "bye_counts_as_win": True}, 4, 2, 23, 0.5),
        ({"bye_value": "average"}, 3, 1, 30.67, 1 / 3),
        ({"bye_value": "average", "bye_counts_as_win": True}, 4, 2, 30.67, 0.5),
    ],
)
def test_bye_values(rules, games, wins, points_for, win_pct):
    table = standings(BYE_SEASON, byes=[Bye(1, night_id=2)], **rules)
    aces = table.row(1)
    assert (aces.games, aces.wins, aces.points_for, aces.win_pct) == (
        games,
        wins,
        points_for,
        win_pct,
    )
    assert (aces.byes, aces.points_against) == (1, 24)
    assert aces.games_in_season == games


def test_an_average_bye_without_games_is_worth_nothing():
    table = standings([], byes=[Bye(7)], bye_value="average")
    assert (table.row(7).points_for, table.row(7).byes) == (0, 1)


def test_two_average_byes_add_up_exactly():
    table = standings(BYE_SEASON, byes=[Bye(1, 2), Bye(1, 3)], bye_value="average")
    assert table.row(1).points_for == 38.34


def test_a_bye_has_no_opponent():
    table = standings(
        BYE_SEASON, byes=[Bye(1)], bye_value="fixed", bye_points=10, bye_counts_as_win=True,
        tiebreaks=("win_pct", "buchholz"),
    )  # fmt: skip
    # Aces' opponents: Bowers 0-1, Clubs 1-0, Diamonds 1-0; the bye adds nothing.
    assert table.row(1).buchholz == 2.0


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (
            {"bye_value": "nothing", "bye_points": 3},
            "a bye worth nothing gives no points and no win",
        ),
        ({"bye_value": "nothing", "bye_counts_as_win": True}, "a bye worth nothing gives"),
        ({"bye_value": "average", "bye_points": 3}, "a bye worth the average takes no fixed"),
        ({"bye_value": "half"}, 'a bye is worth "nothing", a "fixed" amount or the "average"'),
    ],
)
def test_bye_rules_are_checked(rules, message):
    with pytest.raises(DomainError, match=message):
        SeasonRules(**rules)


# --- best nights ----------------------------------------------------------------------------

# Aces, against a different opponent each game:
#   night 1: won 10-5, won 10-8         2 wins, 20 points
#   night 2: lost 9-10, lost 9-10       0 wins, 18 points
#   night 3: won 10-2, lost 0-10        1 win,  10 points
#   no night: won 10-0                  always counts
NIGHTS_SEASON = [
    game(1, 1, 11, 10, 5, night=1),
    game(2, 1, 12, 10, 8, night=1),
    game(3, 1, 13, 9, 10, night=2),
    game(4, 1, 14, 9, 10, night=2),
    game(5, 1, 15, 10, 2, night=3),
    game(6, 1, 16, 0, 10, night=3),
    game(7, 1, 17, 10, 0),
]


def test_every_night_counts_by_default():
    aces = standings(NIGHTS_SEASON).row(1)
    assert record(aces) == (7, 4, 3, 0, 58, 45)
    assert (aces.nights_counted, aces.nights_dropped) == ((1, 2, 3), ())


def test_best_nights_by_wins():
    aces = standings(NIGHTS_SEASON, count_best_nights=2).row(1)
    assert record(aces) == (5, 4, 1, 0, 40, 25)
    assert (aces.nights_counted, aces.nights_dropped) == ((1, 3), (2,))
    assert aces.games_in_season == 7


def test_best_nights_by_points():
    aces = standings(NIGHTS_SEASON, count_best_nights=2, best_nights_by="points").row(1)
    assert record(aces) == (5, 3, 2, 0, 48, 33)
    assert (aces.nights_counted, aces.nights_dropped) == ((1, 2), (3,))


def test_best_nights_level_keep_the_earlier_night():
    games = [game(1, 1, 11, 10, 5, night=4), game(2, 1, 12, 10, 5, night=9)]
    aces = standings(games, count_best_nights=1).row(1)
    assert (aces.nights_counted, aces.nights_dropped, aces.games) == ((4,), (9,), 1)


def test_a_bye_night_can_be_a_best_night():
    games = [game(1, 11, 1, 10, 3, night=1)]
    table = standings(
        games, byes=[Bye(1, night_id=2)], count_best_nights=1,
        bye_value="fixed", bye_points=5, bye_counts_as_win=True,
    )  # fmt: skip
    aces = table.row(1)
    assert (aces.nights_counted, aces.games, aces.wins, aces.points_for) == ((2,), 1, 1, 5)


def test_a_bye_worth_nothing_is_never_a_best_night():
    games = [game(1, 11, 1, 10, 5, night=1)]
    aces = standings(games, byes=[Bye(1, night_id=2)], count_best_nights=1).row(1)
    assert (aces.nights_counted, aces.nights_dropped, aces.games, aces.byes) == ((1,), (), 1, 1)


def test_a_dropped_night_leaves_head_to_head_for_the_entrant_who_dropped_it():
    """Each entrant's standing is its own counted games: Aces drop the night they lost to
    Bowers; Bowers keep it."""
    games = [
        game(1, 2, 1, 10, 2, night=1),
        game(2, 1, 11, 10, 0, night=2),
        game(3, 1, 12, 10, 0, night=3),
        game(4, 2, 13, 10, 0, night=2),
        game(5, 13, 2, 10, 0, night=3),
    ]
    table = standings(games, count_best_nights=2)
    assert record(table.row(1)) == (2, 2, 0, 0, 20, 0)
    assert record(table.row(2)) == (2, 2, 0, 0, 20, 2)
    assert table.row(2).nights_dropped == (3,)
    assert order_of(table)[:2] == [2, 1]
    # Aces are +20 to Bowers' +18, but head-to-head comes first and only Bowers count that game.
    assert table.row(1).reason == "behind Bowers on head-to-head (0–0)"


def test_best_nights_must_be_at_least_one():
    with pytest.raises(DomainError, match="count at least one night"):
        SeasonRules(count_best_nights=0)
    with pytest.raises(DomainError, match='best nights are chosen by "wins" or "points"'):
        SeasonRules(best_nights_by="luck")


# --- minimum of games --------------------------------------------------------------------------


def test_unqualified_entrants_are_listed_after_the_ranked_ones_without_a_rank():
    games = [
        game(1, 1, 2, 10, 0),
        game(2, 1, 3, 10, 0),
        game(3, 2, 3, 10, 5),
        game(4, 4, 3, 10, 0),
        game(5, 5, 3, 10, 9),
    ]
    table = standings(games, min_games=2)
    assert [(row.rank, row.entrant, row.qualified) for row in table.rows] == [
        (1, 1, True),
        (2, 2, True),
        (3, 3, True),
        (None, 4, False),
        (None, 5, False),
    ]
    assert reasons(table)[4] == "unranked: 1 of the 2 games needed to be ranked"
    assert table.row(4).decided_by is None
    assert table.row(3).reason == "behind Bowers on win percentage (0.000 to 0.500)"
    assert table.min_games == 2


def test_min_games_counts_forfeits_only_when_they_count_as_games():
    counted = standings(FORFEIT_SEASON, min_games=2)
    assert [row.rank for row in counted.rows] == [1, 2, 3]
    not_counted = standings(FORFEIT_SEASON, min_games=2, forfeit_counts_as_game=False)
    assert [(row.entrant, row.rank) for row in not_counted.rows] == [(3, 1), (1, None), (2, None)]


def test_min_games_cannot_be_negative():
    with pytest.raises(DomainError, match="the minimum of games cannot be negative"):
        SeasonRules(min_games=-1)


# --- individual seasons and draws ---------------------------------------------------------------


def test_individual_season_scores_each_player_alone():
    games = [
        game(1, (1, 2), (3, 4), 10, 6),
        game(2, (1, 3), (2, 4), 8, 8),
        game(3, (1, 4), (2, 3), 7, 10),
    ]
    table = standings(games, tiebreaks=("points_for", "head_to_head"))
    assert {row.entrant: record(row) for row in table.rows} == {
        1: (3, 1, 1, 1, 25, 24),
        2: (3, 2, 0, 1, 28, 21),
        3: (3, 1, 1, 1, 24, 25),
        4: (3, 0, 2, 1, 21, 28),
    }
    assert order_of(table) == [2, 1, 3, 4]
    assert table.row(1).win_pct == 0.5


# --- input checks ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"side_a": (1,), "side_b": (1,)}, "game 5 has the same entrant on both sides"),
        ({"side_a": (), "side_b": (1,)}, "game 5 needs an entrant on each side"),
        ({"winner": "C"}, "game 5: the winner is side A or B"),
        ({"forfeited_by": "both"}, "game 5: the forfeiting side is A or B"),
        ({"players_a": (1, 2)}, "game 5 names the players of one side only"),
        ({"players_a": (1, 2), "players_b": (2, 3)}, "game 5 has the same entrant on both sides"),
    ],
)
def test_game_records_are_checked(kwargs, message):
    values = {"game_id": 5, "side_a": (1,), "side_b": (2,), "points_a": 10, "points_b": 4}
    values["winner"] = "A"
    with pytest.raises(DomainError, match=message):
        GameRecord(**(values | kwargs))
