"""The tie-break chain: two-way, three-way and cyclic ties, re-applied head-to-head, coin flips.

Every scenario is small enough to check by hand; the expected values are worked out in comments.
The builders at the top are shared with the other standings, stats and ratings tests.
"""

from __future__ import annotations

import json

import pytest

from core.errors import DomainError
from scoring.standings.domain.standings import (
    GameRecord,
    SeasonRules,
    SideTally,
    Standings,
    coin_flip_draw,
    compute_standings,
)

NAMES = {1: "Aces", 2: "Bowers", 3: "Clubs", 4: "Diamonds", 5: "Euchres", 6: "Farmers"}


def game(
    game_id: int,
    side_a: int | tuple[int, ...],
    side_b: int | tuple[int, ...],
    points_a: float,
    points_b: float,
    *,
    night: int | None = None,
    order: int | None = None,
    forfeited_by: str | None = None,
    tally_a: SideTally | None = None,
    tally_b: SideTally | None = None,
    players_a: tuple[int, ...] = (),
    players_b: tuple[int, ...] = (),
) -> GameRecord:
    """A game whose winner follows from the points (level points: a draw)."""
    winner = None if points_a == points_b else ("A" if points_a > points_b else "B")
    if forfeited_by is not None:
        winner = None
    return GameRecord(
        game_id=game_id,
        side_a=side_a if isinstance(side_a, tuple) else (side_a,),
        side_b=side_b if isinstance(side_b, tuple) else (side_b,),
        points_a=points_a,
        points_b=points_b,
        winner=winner,
        night_id=night,
        played_order=game_id if order is None else order,
        forfeited_by=forfeited_by,
        tally_a=tally_a or SideTally(),
        tally_b=tally_b or SideTally(),
        players_a=players_a,
        players_b=players_b,
    )


def beats(results: list[tuple[int, int]], *, start: int = 1) -> list[GameRecord]:
    """Games where the first entrant of each pair beat the second, 10 to 5."""
    return [
        game(start + index, winner, loser, 10, 5) for index, (winner, loser) in enumerate(results)
    ]


def rank(games, tiebreaks, **rules) -> Standings:
    return compute_standings(games, SeasonRules(tiebreaks=tiebreaks, **rules), names=NAMES)


def order_of(standings: Standings) -> list[int]:
    return [row.entrant for row in standings.rows]


def reasons(standings: Standings) -> dict[int, str]:
    return {row.entrant: row.reason for row in standings.rows}


# --- two-way ties ---------------------------------------------------------------------------

# Aces 2-1 (for 26, against 27), Bowers 2-1 (28, 16), Clubs 1-2 (21, 26), Diamonds 1-2 (21, 27).
# Aces beat Bowers; Diamonds beat Clubs.
TWO_WAY = [
    game(1, 1, 2, 10, 8),
    game(2, 3, 1, 10, 6),
    game(3, 2, 3, 10, 4),
    game(4, 1, 4, 10, 9),
    game(5, 2, 4, 10, 2),
    game(6, 4, 3, 10, 7),
]


def test_record_of_every_row():
    standings = rank(TWO_WAY, ("win_pct", "head_to_head", "point_diff"))
    aces = standings.row(1)
    assert (aces.games, aces.wins, aces.losses, aces.draws) == (3, 2, 1, 0)
    assert (aces.points_for, aces.points_against, aces.point_diff) == (26, 27, -1)
    assert aces.win_pct == 2 / 3
    bowers = standings.row(2)
    assert (bowers.points_for, bowers.points_against, bowers.point_diff) == (28, 16, 12)
    assert [row.rank for row in standings.rows] == [1, 2, 3, 4]
    assert all(row.qualified for row in standings.rows)


@pytest.mark.parametrize(
    ("tiebreaks", "expected_order", "expected_reasons"),
    [
        (
            ("win_pct", "head_to_head", "point_diff"),
            [1, 2, 4, 3],
            {
                1: "ahead of Bowers on head-to-head (1–0)",
                2: "behind Aces on head-to-head (0–1)",
                4: "behind Bowers on win percentage (0.333 to 0.667)",
                3: "behind Diamonds on head-to-head (0–1)",
            },
        ),
        (
            ("win_pct", "point_diff", "head_to_head"),
            [2, 1, 3, 4],
            {
                2: "ahead of Aces on point difference (+12 to -1)",
                1: "behind Bowers on point difference (-1 to +12)",
                3: "behind Aces on win percentage (0.333 to 0.667)",
                4: "behind Clubs on point difference (-6 to -5)",
            },
        ),
        (
            # Clubs and Diamonds both scored 21: points for cannot split them, head-to-head does.
            ("wins", "points_for", "head_to_head"),
            [2, 1, 4, 3],
            {
                2: "ahead of Aces on points for (28 to 26)",
                1: "behind Bowers on points for (26 to 28)",
                4: "behind Aces on wins (1 to 2)",
                3: "behind Diamonds on head-to-head (0–1)",
            },
        ),
    ],
)
def test_two_way_ties_under_several_chains(tiebreaks, expected_order, expected_reasons):
    standings = rank(TWO_WAY, tiebreaks)
    assert order_of(standings) == expected_order
    assert reasons(standings) == expected_reasons


def test_two_way_tie_level_on_head_to_head_falls_through_and_says_so():
    # They split their two games; Aces +7 (29 for, 22 against), Bowers +5 (27, 22).
    games = [game(1, 1, 2, 10, 7), game(2, 2, 1, 10, 9), game(3, 1, 3, 10, 5), game(4, 2, 3, 10, 3)]
    standings = rank(games, ("win_pct", "head_to_head", "point_diff"))
    assert order_of(standings) == [1, 2, 3]
    assert reasons(standings) == {
        1: "level on head-to-head (1–1); ahead of Bowers on point difference (+7 to +5)",
        2: "level on head-to-head (1–1); behind Aces on point difference (+5 to +7)",
        3: "behind Bowers on win percentage (0.000 to 0.667)",
    }
    assert standings.row(1).tiebreaks == {
        "win_pct": 2 / 3,
        "head_to_head": "1–1",
        "point_diff": 7,
        "coin_flip": coin_flip_draw(0, 1),
    }
    assert standings.row(1).decided_by == "point_diff"


def test_two_way_tie_between_entrants_who_have_not_met():
    games = [game(1, 1, 3, 10, 5), game(2, 2, 4, 10, 6)]
    standings = rank(games, ("win_pct", "head_to_head", "point_diff"))
    assert order_of(standings) == [1, 2, 4, 3]
    assert reasons(standings) == {
        1: "Aces and Bowers have not played each other; ahead of Bowers on point difference "
        "(+5 to +4)",
        2: "Aces and Bowers have not played each other; behind Aces on point difference (+4 to +5)",
        4: "behind Bowers on win percentage (0.000 to 1.000)",
        3: "Clubs and Diamonds have not played each other; behind Diamonds on point "
        "difference (-5 to -4)",
    }


def test_drawn_head_to_head_is_shown_with_its_draw():
    games = [game(1, 1, 2, 7, 7), game(2, 1, 3, 10, 2), game(3, 2, 3, 10, 5)]
    standings = rank(games, ("win_pct", "head_to_head", "point_diff"))
    assert order_of(standings) == [1, 2, 3]
    assert standings.row(1).win_pct == 0.75
    assert standings.row(1).draws == 1
    assert (
        standings.row(2).reason
        == "level on head-to-head (0–0–1); behind Aces on point difference (+5 to +8)"
    )


# --- three-way ties and cycles --------------------------------------------------------------


def cycle_games(*, aces_beat_diamonds: int = 2, clubs_beat_diamonds: int = 6) -> list[GameRecord]:
    """A round robin of four: Aces beat Bowers, Bowers beat Clubs, Clubs beat Aces; all beat
    Diamonds. Aces, Bowers and Clubs are 2-1; Diamonds 0-3."""
    return [
        game(1, 1, 2, 10, 8),
        game(2, 2, 3, 10, 7),
        game(3, 3, 1, 10, 9),
        game(4, 1, 4, 10, aces_beat_diamonds),
        game(5, 2, 4, 10, 5),
        game(6, 3, 4, 10, clubs_beat_diamonds),
    ]


def test_a_cycle_defeats_head_to_head_and_the_reason_says_so():
    # Differences: Aces 29-20 = +9, Bowers 28-22 = +6, Clubs 27-25 = +2.
    standings = rank(cycle_games(), ("win_pct", "head_to_head", "point_diff"))
    assert order_of(standings) == [1, 2, 3, 4]
    cycle = "head-to-head is a cycle among Aces, Bowers and Clubs"
    assert reasons(standings) == {
        1: f"{cycle}; ahead of Bowers on point difference (+9 to +6)",
        2: f"{cycle}; behind Aces on point difference (+6 to +9)",
        3: f"{cycle}; behind Bowers on point difference (+2 to +6)",
        4: "behind Clubs on win percentage (0.000 to 0.667)",
    }
    assert [row.tiebreaks["head_to_head"] for row in standings.rows] == ["1–1", "1–1", "1–1", None]
    assert [row.decided_by for row in standings.rows] == [
        "point_diff",
        "point_diff",
        "point_diff",
        "win_pct",
    ]


@pytest.mark.parametrize(
    ("tiebreaks", "expected_order", "expected_reason_of_clubs"),
    [
        # Aces +8 (29-21); Bowers +6 (28-22) and Clubs +6 (27-21) stay level on difference, and
        # the chain restarts for the two of them: Bowers beat Clubs.
        (
            ("win_pct", "head_to_head", "point_diff"),
            [1, 2, 3, 4],
            "behind Bowers on head-to-head (0–1)",
        ),
        # Without head-to-head, points for separates them: 28 to 27.
        (
            ("win_pct", "point_diff", "points_for"),
            [1, 2, 3, 4],
            "behind Bowers on points for (27 to 28)",
        ),
        # Head-to-head first: over the whole field it is each one's balance against everyone.
        # Aces, Bowers and Clubs are all +1 (a cycle among them, and each beat Diamonds);
        # difference then splits Aces from the others, and head-to-head is re-applied to those two.
        (
            ("head_to_head", "point_diff"),
            [1, 2, 3, 4],
            "behind Bowers on head-to-head (0–1)",
        ),
        # Nothing after the difference: a coin flip, recorded with its seed.
        (
            ("win_pct", "point_diff"),
            [1, 2, 3, 4],
            "level with Bowers on everything; separated by a recorded coin flip (seed 7)",
        ),
    ],
)
def test_cycle_then_partial_split_restarts_the_chain(
    tiebreaks, expected_order, expected_reason_of_clubs
):
    games = cycle_games(aces_beat_diamonds=3, clubs_beat_diamonds=2)
    standings = rank(games, tiebreaks, coin_flip_seed=7)
    assert order_of(standings) == expected_order
    assert standings.row(3).reason == expected_reason_of_clubs
    assert (standings.row(2).point_diff, standings.row(3).point_diff) == (6, 6)


def test_cycle_reason_on_the_row_split_before_the_restart():
    games = cycle_games(aces_beat_diamonds=3, clubs_beat_diamonds=2)
    standings = rank(games, ("win_pct", "head_to_head", "point_diff"))
    assert standings.row(2).reason == (
        "head-to-head is a cycle among Aces, Bowers and Clubs; "
        "behind Aces on point difference (+6 to +8)"
    )
    # The shown head-to-head is the last group each was compared in.
    assert [row.tiebreaks["head_to_head"] for row in standings.rows] == ["1–1", "1–0", "0–1", None]


def test_three_way_tie_split_in_full_by_head_to_head():
    # Aces, Bowers, Clubs 2-2; Euchres 2-1; Diamonds 1-2. Among the three tied: Aces beat both,
    # Bowers beat Clubs.
    games = beats([(1, 2), (1, 3), (4, 1), (5, 1), (2, 3), (2, 4), (5, 2), (3, 4), (3, 5)])
    standings = rank(games, ("win_pct", "head_to_head", "points_for"))
    assert order_of(standings) == [5, 1, 2, 3, 4]
    assert reasons(standings) == {
        5: "ahead of Aces on win percentage (0.667 to 0.500)",
        1: "behind Euchres on win percentage (0.500 to 0.667)",
        2: "behind Aces on head-to-head among 3 tied (1–1 to 2–0)",
        3: "behind Bowers on head-to-head among 3 tied (0–2 to 1–1)",
        4: "behind Clubs on win percentage (0.333 to 0.500)",
    }


def test_head_to_head_is_re_applied_after_a_partial_split():
    """Four tied at 3-2. Among the four: Bowers +1 (1-0), Clubs +1 (2-1), Aces 0 (1-1), Diamonds
    -2 (0-2). Bowers and Clubs are still level, so head-to-head is re-applied to just those two:
    Bowers beat Clubs. (A tool that applies it once would fall through to the next measure.)"""
    among_the_four = [(2, 3), (3, 1), (3, 4), (1, 4)]
    against_outsiders = [
        (2, 5), (2, 6), (5, 2), (6, 2),
        (3, 5), (6, 3),
        (1, 5), (1, 6), (5, 1),
        (4, 5), (4, 6), (4, 5),
    ]  # fmt: skip
    standings = rank(
        beats(among_the_four + against_outsiders), ("win_pct", "head_to_head", "points_for")
    )
    assert [(row.entrant, row.wins, row.losses) for row in standings.rows] == [
        (2, 3, 2),
        (3, 3, 2),
        (1, 3, 2),
        (4, 3, 2),
        (6, 2, 3),
        (5, 2, 5),
    ]
    assert reasons(standings) == {
        2: "ahead of Clubs on head-to-head (1–0)",
        3: "behind Bowers on head-to-head (0–1)",
        1: "behind Clubs on head-to-head among 4 tied (1–1 to 2–1)",
        4: "behind Aces on head-to-head among 4 tied (0–2 to 1–1)",
        6: "behind Diamonds on win percentage (0.400 to 0.600)",
        5: "behind Farmers on win percentage (0.286 to 0.400)",
    }
    assert {row.entrant: row.tiebreaks["head_to_head"] for row in standings.rows} == {
        2: "1–0",
        3: "0–1",
        1: "1–1",
        4: "0–2",
        6: None,
        5: None,
    }


def test_three_way_level_without_a_cycle_says_level():
    # Aces and Bowers split two games; Clubs met neither. All 2-2 with outsiders 4 and 5.
    games = beats([(1, 2), (2, 1), (1, 4), (5, 1), (2, 4), (5, 2), (3, 4), (3, 5), (4, 3), (5, 3)])
    standings = rank(games, ("win_pct", "head_to_head", "wins"), coin_flip_seed=1234)
    assert standings.rows[0].entrant == 5
    # Ranks 2 to 4 are the three tied at 0.500; the first of them is set against Euchres.
    second, third, fourth = standings.rows[1:4]
    assert second.reason == "behind Euchres on win percentage (0.500 to 0.750)"
    level = "level on head-to-head among Aces, Bowers and Clubs; level with"
    assert third.reason.startswith(level)
    assert fourth.reason.startswith(level)
    assert (third.decided_by, fourth.decided_by) == ("coin_flip", "coin_flip")


def test_a_big_group_names_only_the_first_three():
    # Six entrants in a cycle: 1 beat 2, 2 beat 3, ..., 6 beat 1.
    games = beats([(1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 1)])
    standings = rank(games, ("win_pct", "head_to_head"), coin_flip_seed=1)
    assert standings.rows[1].reason.startswith(
        "head-to-head is a cycle among Aces, Bowers, Clubs and 3 others; level with"
    )


def test_a_very_large_cycle_is_found_without_recursion():
    size = 1500
    games = beats([(entrant, entrant % size + 1) for entrant in range(1, size + 1)])
    standings = compute_standings(games, SeasonRules(tiebreaks=("win_pct", "head_to_head")))
    assert len(standings.rows) == size
    assert standings.rows[1].reason.startswith("head-to-head is a cycle among #1, #2, #3 and 1497")
    assert standings.rows[1].decided_by == "coin_flip"


# --- euchre tie-breaks and Buchholz -----------------------------------------------------------


def test_euchre_tiebreaks_decide_in_chain_order():
    games = [
        game(1, 1, 3, 10, 5, tally_a=SideTally(marches=2, loners_made=0, euchres_inflicted=1)),
        game(2, 2, 4, 10, 5, tally_a=SideTally(marches=2, loners_made=1, euchres_inflicted=0)),
    ]
    by_marches_then_loners = rank(games, ("win_pct", "marches", "loners_made"))
    assert order_of(by_marches_then_loners)[:2] == [2, 1]
    assert by_marches_then_loners.row(1).reason == "behind Bowers on loners made (0 to 1)"
    by_euchres = rank(games, ("win_pct", "euchres_inflicted", "loners_made"))
    assert order_of(by_euchres)[:2] == [1, 2]
    assert by_euchres.row(2).reason == "behind Aces on euchres inflicted (0 to 1)"
    assert (by_euchres.row(1).marches, by_euchres.row(1).euchres_inflicted) == (2, 1)


def test_buchholz_adds_up_the_opponents_scores():
    # Aces beat Clubs (who finish 1-1); Bowers beat Diamonds (0-1). Both 1-0.
    games = [game(1, 1, 3, 10, 5), game(2, 2, 4, 10, 5), game(3, 3, 5, 10, 2)]
    standings = rank(games, ("win_pct", "buchholz"))
    assert order_of(standings)[:2] == [1, 2]
    assert standings.row(1).buchholz == 1.0
    assert standings.row(2).buchholz == 0.0
    assert standings.row(3).buchholz == 1.0  # Aces 1-0 and Euchres 0-1
    assert standings.row(2).reason == "behind Aces on opponents' strength (0 to 1)"


def test_buchholz_in_an_individual_season_averages_the_two_opponents():
    games = [
        game(1, (1, 2), (3, 4), 10, 6),
        game(2, (1, 3), (2, 4), 10, 8),
        game(3, (3, 5), (4, 6), 10, 4),
    ]
    standings = rank(games, ("win_pct", "buchholz"))
    scores = {row.entrant: row.wins for row in standings.rows}
    assert scores == {1: 2, 2: 1, 3: 2, 4: 0, 5: 1, 6: 0}
    # Player 1 met (3, 4) then (2, 4): (2 + 0) / 2 + (1 + 0) / 2 = 1.5
    assert standings.row(1).buchholz == 1.5
    # Player 3 met (1, 2), (2, 4) and (4, 6): 1.5 + 0.5 + 0 = 2.0
    assert standings.row(3).buchholz == 2.0
    # Player 5 is 1-0 like player 1, but met only (4, 6): 0.
    assert standings.row(5).buchholz == 0.0
    assert order_of(standings)[:3] == [1, 5, 3]
    assert standings.row(5).reason == "behind Aces on opponents' strength (0 to 1.5)"


# --- coin flip -------------------------------------------------------------------------------

LEVEL_PAIR = [game(1, 1, 3, 10, 5), game(2, 2, 4, 10, 5)]


def test_coin_flip_is_seeded_recorded_and_shown():
    # SHA-256 draws under seed 1234: Aces 237003802479151, Bowers 22820688875619,
    # Clubs 100037164441434, Diamonds 196502351491742: the same on every machine.
    assert coin_flip_draw(1234, 1) == 237003802479151
    assert coin_flip_draw(1234, 4) == 196502351491742
    standings = rank(LEVEL_PAIR, ("win_pct", "point_diff", "points_for"), coin_flip_seed=1234)
    assert order_of(standings) == [1, 2, 4, 3]
    assert reasons(standings) == {
        1: "level with Bowers on everything; ahead by a recorded coin flip (seed 1234)",
        2: "level with Aces on everything; separated by a recorded coin flip (seed 1234)",
        4: "behind Bowers on win percentage (0.000 to 1.000)",
        3: "level with Diamonds on everything; separated by a recorded coin flip (seed 1234)",
    }
    assert standings.coin_flip_seed == 1234
    assert standings.tiebreaks == ("win_pct", "point_diff", "points_for", "coin_flip")
    assert standings.row(2).tiebreaks["coin_flip"] == 22820688875619
    assert standings.row(2).coin_flip_draw == 22820688875619


def test_coin_flip_is_deterministic_and_depends_on_the_seed():
    orders = set()
    for seed in range(12):
        first = rank(LEVEL_PAIR, ("win_pct",), coin_flip_seed=seed)
        again = rank(list(reversed(LEVEL_PAIR)), ("win_pct",), coin_flip_seed=seed)
        assert first == again
        orders.add(tuple(order_of(first)[:2]))
    assert orders == {(1, 2), (2, 1)}


def test_explicit_coin_flip_at_the_end_of_the_chain_is_allowed():
    standings = rank(LEVEL_PAIR, ("win_pct", "coin_flip"), coin_flip_seed=1234)
    assert standings.tiebreaks == ("win_pct", "coin_flip")
    assert order_of(standings) == [1, 2, 4, 3]


# --- names, precision, output -----------------------------------------------------------------


def test_entrants_without_a_name_are_named_by_id():
    standings = compute_standings(TWO_WAY, SeasonRules(), names={1: "Aces"})
    assert standings.row(2).reason == "behind Aces on head-to-head (0–1)"
    assert standings.row(3).reason == "behind #4 on head-to-head (0–1)"
    assert standings.row(3).name == "#3"


def test_close_win_percentages_are_shown_with_enough_decimals():
    # 41 of 61 = 0.67213..., 43 of 64 = 0.671875: the same to three places.
    games = [game(i, 1, 100 + i, 10, 5) for i in range(41)]
    games += [game(100 + i, 200 + i, 1, 10, 5) for i in range(20)]
    games += [game(300 + i, 2, 400 + i, 10, 5) for i in range(43)]
    games += [game(500 + i, 600 + i, 2, 10, 5) for i in range(21)]
    standings = rank(games, ("win_pct",), min_games=2)  # their one-game opponents are unranked
    assert order_of(standings)[:2] == [1, 2]
    assert standings.row(2).reason == "behind Aces on win percentage (0.6719 to 0.6721)"


def test_a_single_entrant_and_an_empty_season():
    # Listed with no result yet (checked in, or its first game still being played): unranked.
    waiting = compute_standings([], SeasonRules(), entrants=[9])
    assert [(row.rank, row.entrant, row.games, row.reason) for row in waiting.rows] == [
        (None, 9, 0, "unranked: no game finished yet")
    ]
    assert waiting.rows[0].win_pct == 0.0
    alone = compute_standings([game(1, 9, 8, 10, 4)], SeasonRules(), entrants=[9, 7])
    assert [(row.rank, row.entrant, row.games, row.reason) for row in alone.rows] == [
        (1, 9, 1, "ahead of #8 on win percentage (1.000 to 0.000)"),
        (2, 8, 1, "behind #9 on win percentage (0.000 to 1.000)"),
        (None, 7, 0, "unranked: no game finished yet"),
    ]
    assert compute_standings([], SeasonRules()).rows == ()


def test_roster_entrants_without_games_are_listed():
    standings = compute_standings([game(1, 1, 2, 10, 4)], SeasonRules(), entrants=[1, 2, 3])
    # Listed after those with a result, unranked (it was ranked above 2, whose 0-1 is worse
    # on point difference than no game at all).
    assert order_of(standings) == [1, 2, 3]
    assert (standings.row(3).rank, standings.row(3).games, standings.row(3).qualified) == (
        None,
        0,
        False,
    )


def test_snapshot_round_trips_through_json():
    standings = rank(cycle_games(), ("win_pct", "head_to_head", "point_diff"))
    data = json.loads(json.dumps(standings.to_dict()))
    assert Standings.from_dict(data) == standings
    assert data["rows"][0]["tiebreaks"]["head_to_head"] == "1–1"
    assert data["tiebreaks"] == ["win_pct", "head_to_head", "point_diff", "coin_flip"]


def test_the_result_does_not_depend_on_the_order_of_games():
    forwards = rank(cycle_games(), ("win_pct", "head_to_head", "point_diff"))
    backwards = rank(cycle_games()[::-1], ("win_pct", "head_to_head", "point_diff"))
    assert forwards == backwards


# --- chain validation ------------------------------------------------------------------------


def test_an_unknown_tiebreak_is_a_domain_error():
    with pytest.raises(DomainError) as raised:
        SeasonRules(tiebreaks=("win_pct", "goals"))
    assert raised.value.code == "unknown_tiebreak"
    assert raised.value.field == "tiebreaks"
    assert raised.value.message.startswith('"goals" is not a tie-break; choose from win percentage')


@pytest.mark.parametrize(
    ("tiebreaks", "message"),
    [
        (("wins", "wins"), "each tie-break can be used once; wins is repeated"),
        ((), "choose at least one measure to rank by before the coin flip"),
        (("coin_flip",), "choose at least one measure to rank by before the coin flip"),
        (("coin_flip", "wins"), "the coin flip can only be the last tie-break"),
    ],
)
def test_chain_rules(tiebreaks, message):
    with pytest.raises(DomainError, match=message):
        SeasonRules(tiebreaks=tiebreaks)


def test_a_list_chain_is_kept_as_a_tuple():
    assert SeasonRules(tiebreaks=["wins", "points_for"]).tiebreaks == ("wins", "points_for")
