"""The tie-breaks the world uses: head-to-head points and point difference among the tied
(re-applied to any smaller group still tied, the UEFA way), Buchholz cut 1 and median,
Sonneborn-Berger and the progressive score.

Every value is worked out by hand in the comments; the builders come from ``test_standings``.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import DomainError
from scoring.standings.domain.season_totals import SeasonTotals
from scoring.standings.domain.standings import MEASURE_LABELS, SeasonRules, compute_standings
from scoring.standings.domain.standings.records import entrant_entries, record_of_entries
from scoring.standings.domain.standings.tiebreaks import Ranker
from tests.domain.test_standings import NAMES, game

A, B, C, D, E = 1, 2, 3, 4, 5  # Aces, Bowers, Clubs, Diamonds, Euchres


def rank(games, chain, **options):
    return compute_standings(games, SeasonRules(tiebreaks=chain, **options), names=NAMES)


def order(standings):
    return [row.name for row in standings.rows]


def reasons(standings):
    return {row.name: row.reason for row in standings.rows}


# The cycle of the issue: Aces beat Bowers 10–7, Bowers beat Clubs 10–8, Clubs beat Aces 10–6.
# Each is 1–1. Among the three, point differences: Aces +3 −4 = −1, Bowers −3 +2 = −1,
# Clubs −2 +4 = +2. Clubs go first; Aces and Bowers, still level, are compared again between
# themselves alone: Aces beat Bowers 10–7, +3 to −3.
CYCLE = [game(1, A, B, 10, 7), game(2, B, C, 10, 8), game(3, C, A, 10, 6)]


def test_the_cycle_orders_clubs_aces_bowers_on_head_to_head_point_difference_re_applied():
    standings = rank(CYCLE, ("wins", "head_to_head_diff"))
    assert order(standings) == ["Clubs", "Aces", "Bowers"]
    assert [row.decided_by for row in standings.rows] == ["head_to_head_diff"] * 3
    assert reasons(standings) == {
        "Clubs": "ahead of Aces on head-to-head point difference among 3 tied (+2 to -1)",
        "Aces": "behind Clubs on head-to-head point difference among 3 tied (-1 to +2)",
        "Bowers": "behind Aces on head-to-head point difference (-3 to +3)",
    }
    # each row shows its value in the last tied group it was compared in
    assert [row.tiebreaks["head_to_head_diff"] for row in standings.rows] == [2, 3, -3]


def test_after_a_head_to_head_cycle_the_point_difference_decides_and_the_reason_says_both():
    standings = rank(CYCLE, ("wins", "head_to_head", "head_to_head_diff", "points_for"))
    assert order(standings) == ["Clubs", "Aces", "Bowers"]
    cycle = "head-to-head is a cycle among Aces, Bowers and Clubs"
    assert reasons(standings) == {
        "Clubs": f"{cycle}; ahead of Aces on head-to-head point difference among 3 tied (+2 to -1)",
        "Aces": f"{cycle}; behind Clubs on head-to-head point difference among 3 tied (-1 to +2)",
        # re-applied from the top between Aces and Bowers: Aces beat Bowers
        "Bowers": "behind Aces on head-to-head (0–1)",
    }


def test_head_to_head_points_on_the_cycle():
    # points scored among the three: Clubs 8 + 10 = 18, Bowers 7 + 10 = 17, Aces 10 + 6 = 16
    standings = rank(CYCLE, ("wins", "head_to_head_points"))
    assert order(standings) == ["Clubs", "Bowers", "Aces"]
    assert [row.tiebreaks["head_to_head_points"] for row in standings.rows] == [18, 17, 16]
    assert reasons(standings)["Aces"] == (
        "behind Bowers on head-to-head points among 3 tied (16 to 17)"
    )


def test_head_to_head_points_are_re_applied_to_the_two_still_level():
    # Aces beat Bowers 10–4, Bowers beat Clubs 10–8, Clubs beat Aces 10–8: among the three,
    # Aces 10 + 8 = 18, Clubs 8 + 10 = 18, Bowers 4 + 10 = 14. Aces and Clubs again, alone:
    # Clubs beat Aces 10–8, so Clubs 10 to Aces 8.
    games = [game(1, A, B, 10, 4), game(2, B, C, 10, 8), game(3, C, A, 10, 8)]
    standings = rank(games, ("wins", "head_to_head_points"))
    assert order(standings) == ["Clubs", "Aces", "Bowers"]
    assert reasons(standings) == {
        "Clubs": "ahead of Aces on head-to-head points (10 to 8)",
        "Aces": "behind Clubs on head-to-head points (8 to 10)",
        "Bowers": "behind Aces on head-to-head points among 3 tied (14 to 18)",
    }
    assert [row.tiebreaks["head_to_head_points"] for row in standings.rows] == [10, 8, 14]


def test_head_to_head_points_count_only_games_among_the_tied():
    # Aces and Bowers have one win each (Clubs two, Diamonds none); Aces won their meeting 10–9
    # but Bowers beat Diamonds 10–0 and Clubs beat Aces 10–2. Among the two: Aces +1, Bowers −1,
    # whatever happened against the others.
    games = [game(1, A, B, 10, 9), game(2, B, D, 10, 0), game(3, C, A, 10, 2), game(4, C, D, 10, 5)]
    standings = rank(games, ("wins", "head_to_head_diff", "point_diff"))
    assert order(standings) == ["Clubs", "Aces", "Bowers", "Diamonds"]
    assert reasons(standings)["Bowers"] == "behind Aces on head-to-head point difference (-1 to +1)"
    # on the whole season's point difference it would have gone the other way: +9 to -7
    assert order(rank(games, ("wins", "point_diff")))[1:3] == ["Bowers", "Aces"]


def test_head_to_head_points_that_cannot_split_fall_through_and_say_why():
    # Aces and Bowers each beat the other 10–8 (level at 0 among the two) and beat Clubs, Aces
    # 12–0 and Bowers 10–5: points for 10 + 8 + 12 = 30 against 8 + 10 + 10 = 28.
    games = [
        game(1, A, B, 10, 8),
        game(2, B, A, 10, 8),
        game(3, A, C, 12, 0),
        game(4, B, C, 10, 5),
    ]
    standings = rank(games, ("win_pct", "head_to_head_diff", "points_for"))
    assert order(standings) == ["Aces", "Bowers", "Clubs"]
    level = "level on head-to-head point difference (0)"
    assert reasons(standings)["Bowers"] == f"{level}; behind Aces on points for (28 to 30)"
    # two who never met
    games = [game(1, A, C, 10, 2), game(2, B, D, 10, 5)]
    standings = rank(games, ("wins", "head_to_head_points", "point_diff"))
    assert reasons(standings)["Bowers"] == (
        "Aces and Bowers have not played each other; behind Aces on point difference (+5 to +8)"
    )
    standings = rank(
        [game(1, A, D, 10, 2), game(2, B, D, 10, 2), game(3, C, D, 10, 2)],
        ("wins", "head_to_head_diff", "point_diff"),
    )
    assert reasons(standings)["Bowers"].startswith(
        "no head-to-head games among Aces, Bowers and Clubs; "
    )


def test_head_to_head_points_in_an_individual_season_count_a_game_once():
    # Players 1–4; side A is the first pair.
    #   game 1: (1, 2) beat (3, 4) 10–6; game 2: (1, 3) beat (2, 4) 10–8;
    #   game 3: (2, 3) beat (1, 4) 10–6 (listed as (1, 4) v (2, 3), 6–10).
    # Wins: 1, 2 and 3 have 2, player 4 none. Among {1, 2, 3} every game had one of them
    # opposite, counted once even when both of the other side are in the group:
    #   player 1: 10 + 10 + 6 = 26 for, 6 + 8 + 10 = 24 against: +2
    #   player 2: 10 + 8 + 10 = 28 for, 6 + 10 + 6 = 22 against: +6
    #   player 3: 6 + 10 + 10 = 26 for, 10 + 8 + 6 = 24 against: +2
    # Then 1 and 3 alone: games 1 and 3 (each had the other opposite): 1 scored 10 + 6 and let
    # in 6 + 10 = 0, and so did 3: level, so the coin flip decides.
    games = [
        game(1, (1, 2), (3, 4), 10, 6),
        game(2, (1, 3), (2, 4), 10, 8),
        game(3, (1, 4), (2, 3), 6, 10),
    ]
    standings = rank(games, ("wins", "head_to_head_diff"))
    assert order(standings)[0] == "Bowers"
    assert standings.rows[0].tiebreaks["head_to_head_diff"] == 6
    assert reasons(standings)["Bowers"] == (
        "ahead of " + standings.rows[1].name + " on head-to-head point difference among 3 tied "
        "(+6 to +2)"
    )
    assert {row.name for row in standings.rows[1:3]} == {"Aces", "Clubs"}
    assert [row.tiebreaks["head_to_head_diff"] for row in standings.rows[1:3]] == [0, 0]
    assert standings.rows[2].reason.startswith("level on head-to-head point difference (0); ")
    assert standings.rows[2].decided_by == "coin_flip"
    points = rank(games, ("wins", "head_to_head_points"))
    assert points.rows[0].tiebreaks["head_to_head_points"] == 28


# Four teams, six games in played order (the order is the game id):
#   1: Aces beat Bowers 10–5      4: Bowers beat Diamonds 10–2
#   2: Clubs beat Diamonds 10–7   5: Diamonds beat Aces 10–9
#   3: Aces beat Clubs 10–8       6: Clubs beat Bowers 10–6
# Scores (wins): Aces 2, Bowers 1, Clubs 2, Diamonds 1.
# Opponents' scores game by game:
#   Aces: Bowers 1, Clubs 2, Diamonds 1      Buchholz 4, cut 1: 3, median 1
#   Bowers: Aces 2, Diamonds 1, Clubs 2      Buchholz 5, cut 1: 4, median 2
#   Clubs: Diamonds 1, Aces 2, Bowers 1      Buchholz 4, cut 1: 3, median 1
#   Diamonds: Clubs 2, Bowers 1, Aces 2      Buchholz 5, cut 1: 4, median 2
# Sonneborn-Berger (the scores of those beaten): Aces 1 + 2 = 3, Bowers 1, Clubs 1 + 1 = 2,
# Diamonds 2.
# Progressive (score after each game): Aces 1, 2, 2 = 5; Bowers 0, 1, 1 = 2; Clubs 1, 1, 2 = 4;
# Diamonds 0, 0, 1 = 1.
SEASON = [
    game(1, A, B, 10, 5),
    game(2, C, D, 10, 7),
    game(3, A, C, 10, 8),
    game(4, B, D, 10, 2),
    game(5, D, A, 10, 9),
    game(6, C, B, 10, 6),
]
CHESS = ("buchholz", "buchholz_cut1", "buchholz_median", "sonneborn_berger", "progressive")


def test_each_chess_tie_break_value_by_hand():
    standings = rank(SEASON, ("wins", *CHESS))
    values = {row.name: [row.tiebreaks[name] for name in CHESS] for row in standings.rows}
    assert values == {
        "Aces": [4, 3, 1, 3, 5],
        "Bowers": [5, 4, 2, 1, 2],
        "Clubs": [4, 3, 1, 2, 4],
        "Diamonds": [5, 4, 2, 2, 1],
    }


def test_sonneborn_berger_ranks_by_the_strength_of_those_beaten():
    standings = rank(SEASON, ("wins", "sonneborn_berger"))
    assert order(standings) == ["Aces", "Clubs", "Diamonds", "Bowers"]
    assert reasons(standings) == {
        "Aces": "ahead of Clubs on strength of the opponents beaten (3 to 2)",
        "Clubs": "behind Aces on strength of the opponents beaten (2 to 3)",
        "Diamonds": "behind Clubs on wins (1 to 2)",
        "Bowers": "behind Diamonds on strength of the opponents beaten (1 to 2)",
    }


def test_progressive_score_rewards_early_wins():
    standings = rank(SEASON, ("wins", "progressive"))
    assert order(standings) == ["Aces", "Clubs", "Bowers", "Diamonds"]
    assert reasons(standings)["Diamonds"] == "behind Bowers on progressive score (1 to 2)"


def test_progressive_score_follows_the_played_order_not_the_game_ids():
    # The same games, Diamonds' win over Aces played first: Aces 0, 1, 2 = 3; Diamonds 1, 1, 1 = 3
    games = [*SEASON[:4], game(5, D, A, 10, 9, order=0), SEASON[5]]
    values = {row.name: row.tiebreaks["progressive"] for row in rank(games, ("progressive",)).rows}
    assert values == {"Aces": 3, "Bowers": 2, "Clubs": 4, "Diamonds": 3}


def test_buchholz_cut_1_and_median_split_what_buchholz_cannot():
    # Euchres and Clubs beat Diamonds; Aces beat Bowers; Bowers beat Diamonds. Every one of them
    # has one win. Buchholz: Aces 1 (Bowers), Bowers 1 + 0 (Aces, Diamonds), Clubs 0, Euchres 0.
    # Less the weakest: Aces' only game goes (0), Bowers keep Aces' 1.
    games = [game(1, A, B, 10, 5), game(2, C, D, 10, 5), game(3, E, D, 10, 5), game(4, B, D, 10, 5)]
    standings = rank(games, ("wins", "buchholz", "buchholz_cut1"))
    assert order(standings)[:2] == ["Bowers", "Aces"]
    assert reasons(standings)["Bowers"] == (
        "ahead of Aces on opponents' strength less the weakest (1 to 0)"
    )
    # the median drops the strongest too: Bowers' 1 and 0 both go
    median = rank(games, ("wins", "buchholz", "buchholz_median"))
    assert [row.tiebreaks["buchholz_median"] for row in median.rows[:2]] == [0, 0]
    assert median.rows[1].decided_by == "coin_flip"


def test_byes_add_nothing_to_the_game_by_game_measures():
    from scoring.standings.domain.standings import Bye

    rules = SeasonRules(
        tiebreaks=("wins", "progressive", "sonneborn_berger"),
        bye_value="fixed",
        bye_points=10,
        bye_counts_as_win=True,
    )
    standings = compute_standings(
        [game(1, A, B, 10, 5)], rules, byes=[Bye(B, night_id=1)], names=NAMES
    )
    rows = {row.name: row for row in standings.rows}
    assert (rows["Bowers"].wins, rows["Bowers"].tiebreaks["progressive"]) == (1, 0)
    assert rows["Aces"].tiebreaks["sonneborn_berger"] == 1  # Bowers' score counts the bye


@pytest.mark.parametrize(
    "measure",
    [
        "head_to_head_points",
        "head_to_head_diff",
        "buchholz_cut1",
        "buchholz_median",
        "sonneborn_berger",
        "progressive",
    ],
)
def test_each_new_tie_break_is_chosen_by_name_and_ranks_game_by_game(measure):
    rules = SeasonRules(tiebreaks=("wins", measure))
    assert measure in MEASURE_LABELS
    assert rules.ranks_game_by_game and rules.measures_each_game
    assert rules.chain == ("wins", measure, "coin_flip")
    # the running totals cannot rank them: the service ranks the games instead
    with pytest.raises(ValueError, match="need each game"):
        SeasonTotals(is_teams=True).standings(rules, entrants=[], names={}, buchholz={})


def test_the_old_measures_still_rank_from_the_totals_and_a_misspelt_one_is_named():
    assert not SeasonRules().ranks_game_by_game
    assert SeasonRules(count_best_nights=2).ranks_game_by_game
    assert not SeasonRules(count_best_nights=2).measures_each_game
    with pytest.raises(DomainError) as error:
        SeasonRules(tiebreaks=("wins", "head_to_head_difference"))
    assert "head-to-head point difference (head_to_head_diff)" in str(error.value)


@st.composite
def team_games(draw):
    count = draw(st.integers(1, 12))
    games = []
    for game_id in range(1, count + 1):
        side_a, side_b = draw(st.lists(st.integers(1, 5), min_size=2, max_size=2, unique=True))
        points_a, points_b = draw(st.integers(0, 12)), draw(st.integers(0, 12))
        games.append(game(game_id, side_a, side_b, points_a, points_b))
    return games


@settings(max_examples=60, deadline=None, database=None)
@given(team_games(), st.sets(st.integers(1, 5), min_size=2))
def test_head_to_head_points_of_any_group_add_up_to_the_games_among_it(games, members):
    """Counted by brute force: in a team season the group's head-to-head points are the points
    of the games between two of its members, and its point differences add up to nothing."""
    rules = SeasonRules(tiebreaks=("head_to_head_diff", "head_to_head_points"))
    entrants = sorted({e for g in games for e in (*g.side_a, *g.side_b)} | members)
    records = {
        entrant: record_of_entries(entries, rules)
        for entrant, entries in entrant_entries(games, (), rules).items()
    }
    for entrant in entrants:
        records.setdefault(entrant, record_of_entries([], rules))
    group = sorted(members)
    points = Ranker(records, rules, NAMES).group_points(group)
    among = [g for g in games if {*g.side_a, *g.side_b} <= members]
    assert sum(points.value("head_to_head_points", e) for e in group) == sum(
        g.points_a + g.points_b for g in among
    )
    assert sum(points.value("head_to_head_diff", e) for e in group) == 0
    assert points.met == bool(among)
