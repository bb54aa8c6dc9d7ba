"""Properties of the standings over random seasons (hypothesis): whatever the games and rules,
the ranking is a permutation, does not depend on input order, follows its own chain, and a win
never hurts."""

from __future__ import annotations

import json
import random
from itertools import pairwise

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.standings.domain.standings import (
    GROUP_MEASURES,
    MEASURE_LABELS,
    Bye,
    SeasonRules,
    SideTally,
    Standings,
    compute_standings,
)
from tests.domain.test_standings import game

MEASURES = [name for name in MEASURE_LABELS if name != "coin_flip"]
PROPERTY_SETTINGS = settings(
    max_examples=80,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@st.composite
def season_rules(draw, *, first: str | None = None) -> SeasonRules:
    chain = draw(st.permutations(MEASURES))
    chain = chain[: draw(st.integers(1, len(chain)))]
    if first is not None:
        chain = [first, *(name for name in chain if name != first)]
    bye_value = draw(st.sampled_from(["nothing", "fixed", "average"]))
    return SeasonRules(
        tiebreaks=tuple(chain),
        count_best_nights=draw(st.one_of(st.none(), st.integers(1, 3))),
        best_nights_by=draw(st.sampled_from(["wins", "points"])),
        min_games=draw(st.integers(0, 3)),
        forfeit_counts_as_game=draw(st.booleans()),
        bye_value=bye_value,
        bye_points=draw(st.integers(0, 6)) if bye_value == "fixed" else 0,
        bye_counts_as_win=draw(st.booleans()) if bye_value != "nothing" else False,
        coin_flip_seed=draw(st.integers(0, 2**31)),
    )


@st.composite
def seasons(draw):
    """(games, byes, roster) of a team season or an individual one."""
    individual = draw(st.booleans())
    roster = list(range(1, draw(st.integers(4 if individual else 2, 8)) + 1))
    games = []
    for game_id in range(draw(st.integers(0, 24))):
        size = 4 if individual else 2
        seated = draw(st.lists(st.sampled_from(roster), min_size=size, max_size=size, unique=True))
        side_a, side_b = (
            (tuple(seated[:2]), tuple(seated[2:])) if individual else (seated[0], seated[1])
        )
        tallies = st.builds(SideTally, st.integers(0, 2), st.integers(0, 1), st.integers(0, 2))
        games.append(
            game(
                game_id,
                side_a,
                side_b,
                draw(st.integers(0, 12)),
                draw(st.integers(0, 12)),
                night=draw(st.one_of(st.none(), st.integers(1, 4))),
                forfeited_by=draw(st.sampled_from([None, None, None, None, "A", "B"])),
                tally_a=draw(tallies),
                tally_b=draw(tallies),
            )
        )
    byes = draw(
        st.lists(
            st.builds(Bye, st.sampled_from(roster), st.one_of(st.none(), st.integers(1, 4))),
            max_size=4,
        )
    )
    return games, byes, roster


def rounded(value):
    return round(value, 9) if isinstance(value, float) else value


@PROPERTY_SETTINGS
@given(seasons(), season_rules())
def test_the_ranking_is_a_permutation_with_ranks_one_to_n(season, rules):
    games, byes, roster = season
    standings = compute_standings(games, rules, byes=byes, entrants=roster)
    assert sorted(row.entrant for row in standings.rows) == roster
    ranked = [row for row in standings.rows if row.qualified]
    assert [row.rank for row in ranked] == list(range(1, len(ranked) + 1))
    assert standings.rows[: len(ranked)] == tuple(ranked)
    assert all(row.rank is None for row in standings.rows[len(ranked) :])
    # Ranked: enough games, and a result to rank by (a game or a bye); listed but unranked else.
    assert all(
        (
            row.games_in_season >= rules.min_games
            and bool(row.games_in_season or row.games or row.byes)
        )
        == row.qualified
        for row in standings.rows
    )
    assert all(row.reason for row in standings.rows)


@PROPERTY_SETTINGS
@given(seasons(), season_rules(), st.randoms(use_true_random=False))
def test_the_standings_do_not_depend_on_input_order(season, rules, shuffler: random.Random):
    games, byes, roster = season
    expected = compute_standings(games, rules, byes=byes, entrants=roster)
    games, byes, roster = list(games), list(byes), list(roster)
    for items in (games, byes, roster):
        shuffler.shuffle(items)
    assert compute_standings(games, rules, byes=byes, entrants=roster) == expected


@PROPERTY_SETTINGS
@given(seasons(), season_rules())
def test_each_row_sits_below_the_row_above_on_the_measure_it_names(season, rules):
    """At the measure that decided two neighbours, the upper one is strictly ahead, and every
    measure before it in the chain (other than the head-to-head ones, which are relative to the
    tied group) is level."""
    games, byes, roster = season
    standings = compute_standings(games, rules, byes=byes, entrants=roster)
    ranked = [row for row in standings.rows if row.qualified]
    chain = standings.tiebreaks
    for above, row in pairwise(ranked):
        decided = chain.index(row.decided_by)
        for measure in chain[:decided]:
            if measure not in GROUP_MEASURES:
                assert rounded(above.tiebreaks[measure]) == rounded(row.tiebreaks[measure])
        if row.decided_by not in GROUP_MEASURES:
            assert rounded(above.tiebreaks[row.decided_by]) > rounded(row.tiebreaks[row.decided_by])
    if chain[0] not in GROUP_MEASURES:
        values = [rounded(row.tiebreaks[chain[0]]) for row in ranked]
        assert values == sorted(values, reverse=True)


@PROPERTY_SETTINGS
@given(seasons(), season_rules(first="wins"), st.data())
def test_adding_a_win_adds_one_win_and_never_lowers_the_rank(season, rules, data):
    games, byes, roster = season
    winner = data.draw(st.sampled_from(roster))
    before = compute_standings(games, rules, byes=byes, entrants=roster)
    if games and len(games[0].side_a) == 2:
        extra = game(1000, (winner, 97), (98, 99), 10, 0)  # with and against newcomers
    else:
        extra = game(1000, winner, 99, 10, 0)
    after = compute_standings([*games, extra], rules, byes=byes, entrants=roster)
    assert after.row(winner).wins == before.row(winner).wins + 1
    assert after.row(winner).losses == before.row(winner).losses
    if before.row(winner).qualified:
        # Among the entrants of before (a newcomer partner shares the win and may go above).
        assert place_among(after, roster, winner) <= place_among(before, roster, winner)


def place_among(standings: Standings, entrants: list[int], entrant: int) -> int:
    ranked = [row.entrant for row in standings.rows if row.qualified and row.entrant in entrants]
    return ranked.index(entrant)


@PROPERTY_SETTINGS
@given(seasons(), season_rules())
def test_wins_and_losses_balance_in_a_team_season_without_dropped_games(season, rules):
    games, byes, roster = season
    assume(not games or len(games[0].side_a) == 1)
    rules = SeasonRules(tiebreaks=rules.tiebreaks, forfeit_counts_as_game=True)
    standings = compute_standings(games, rules, byes=byes, entrants=roster)
    assert sum(row.wins for row in standings.rows) == sum(row.losses for row in standings.rows)
    assert sum(row.games for row in standings.rows) == 2 * len(games)
    assert sum(row.point_diff for row in standings.rows) == 0


@PROPERTY_SETTINGS
@given(seasons(), season_rules())
def test_the_snapshot_round_trips_through_json(season, rules):
    games, byes, roster = season
    standings = compute_standings(games, rules, byes=byes, entrants=roster)
    assert Standings.from_dict(json.loads(json.dumps(standings.to_dict()))) == standings
