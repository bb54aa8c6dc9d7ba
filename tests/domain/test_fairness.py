"""The season fairness report (tournaments.domain.fairness), without a database: a small season
counted by hand, ratings at the time of each game checked against the league's own ratings, the
Monte Carlo estimate against a probability worked out on paper, and (hypothesis) every count
against a brute-force count of the season's seats."""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import DomainError
from scoring.standings.domain.ratings import RatingSettings, ratings_after
from tournaments.domain.fairness import (
    PairCount,
    PlayedGame,
    SatOut,
    fairness_report,
    monte_carlo,
)

# Three games among five players (seats 0 and 2 against 1 and 3), in played order.
SMALL = [
    PlayedGame(1, (1, 2, 3, 4), "A", played_order=1),  # 1 & 3 beat 2 & 4
    PlayedGame(2, (1, 3, 2, 5), "B", played_order=2),  # 3 & 5 beat 1 & 2
    PlayedGame(3, (1, 2, 3, 4), "A", played_order=3),  # 1 & 3 beat 2 & 4 again
]
SMALL_BYES = [SatOut(5, 1, 1), SatOut(4, 1, 2), SatOut(5, 1, 3)]


def display(rows, player: int) -> float:
    """A player's display rating, unrounded, from the ratings' own lines."""
    line = next(row for row in rows if row.player_id == player)
    return 1000 + 40 * line.ordinal


def test_a_small_season_counted_by_hand():
    report = fairness_report(games=SMALL, byes=SMALL_BYES, runs=0)

    assert report.games_played == 3
    partnered = {(p.first, p.second): p.partnered for p in report.pairs if p.partnered}
    assert partnered == {(1, 3): 2, (2, 4): 2, (1, 2): 1, (3, 5): 1}
    opposed = {(p.first, p.second): p.opposed for p in report.pairs if p.opposed}
    assert opposed == {(1, 2): 2, (1, 4): 2, (2, 3): 3, (3, 4): 2, (1, 3): 1, (1, 5): 1, (2, 5): 1}
    assert report.pairs[0] == PairCount(1, 3, partnered=2, opposed=1)
    assert (report.most_partnered, report.repeated_partnerships) == (2, 2)
    assert (report.most_opposed, report.repeated_oppositions) == (3, 4)
    assert (report.fewest_byes, report.most_byes) == (0, 2)

    lines = {line.player_id: line for line in report.players}
    assert [line.byes for line in report.players] == [0, 0, 0, 1, 2]
    assert [line.games for line in report.players] == [3, 3, 3, 2, 1]
    one = lines[1]
    assert (one.distinct_partners, one.most_with_one_partner) == (2, 2)
    assert (one.distinct_opponents, one.most_against_one_opponent) == (4, 2)
    assert (lines[2].distinct_opponents, lines[2].most_against_one_opponent) == (3, 3)  # 1, 3, 5
    assert (lines[5].distinct_partners, lines[5].distinct_opponents) == (1, 2)


def test_ratings_are_read_at_the_time_of_each_game():
    report = fairness_report(games=SMALL, byes=SMALL_BYES, runs=0)
    lines = {line.player_id: line for line in report.players}
    side = {g.game_id: (g.side_a, g.side_b, g.winner, False) for g in SMALL}
    after_1 = ratings_after([side[1]])  # what the ratings said before game 2
    after_2 = ratings_after([side[1], side[2]])  # before game 3
    after_3 = ratings_after([side[1], side[2], side[3]])

    # Player 5 played game 2 only: with 3 (a winner of game 1) against 1 (a winner) and 2.
    r = {p: display(after_1, p) for p in (1, 2, 3, 4)}
    assert lines[5].strength_of_schedule == pytest.approx((r[1] + r[2]) / 2, abs=0.05)
    assert lines[5].average_partner_rating == pytest.approx(r[3], abs=0.05)
    field = (r[1] + r[2] + r[3] + r[4] + 1000) / 5  # 5 is new: 1000
    assert lines[5].partner_luck == pytest.approx(r[3] - field, abs=0.05)

    # Player 4: game 1 against 1 and 3, all newcomers (1000), then game 3 against them again.
    s = {p: display(after_2, p) for p in (1, 2, 3, 4, 5)}
    expected = (1000 + (s[1] + s[3]) / 2) / 2
    assert lines[4].strength_of_schedule == pytest.approx(expected, abs=0.05)
    field_before_3 = sum(s.values()) / 5
    luck = ((1000 - 1000) + (s[2] - field_before_3)) / 2
    assert lines[4].partner_luck == pytest.approx(luck, abs=0.05)
    assert lines[4].rating_now == round(display(after_3, 4))
    assert report.field_rating == pytest.approx(
        sum(display(after_3, p) for p in range(1, 6)) / 5, abs=0.05
    )


def test_games_still_to_play_count_in_the_simulation_only():
    later = PlayedGame(4, (4, 5, 2, 1), is_finished=False)
    with_later = fairness_report(games=[*SMALL, later], byes=SMALL_BYES, runs=50)
    without = fairness_report(games=SMALL, byes=SMALL_BYES, runs=50)
    assert with_later.pairs == without.pairs
    assert with_later.players == without.players
    assert (with_later.monte_carlo.games, without.monte_carlo.games) == (4, 3)


def test_the_estimate_matches_a_probability_worked_out_on_paper():
    """Two teams, one game: the stronger team finishes first exactly when it wins that game,
    with probability Φ((60 − 50) / (2β)) = Φ(1.2) ≈ 0.885 for β = 25/6."""
    game = PlayedGame(1, (1, 3, 2, 4), team_a=10, team_b=20)
    estimate = monte_carlo(
        games=[game],
        skills={1: 30.0, 2: 30.0, 3: 25.0, 4: 25.0},
        season_format="teams",
        teams={10: (1, 2), 20: (3, 4)},
        runs=2000,
        seed=7,
        settings=RatingSettings(),
    )
    exact = 0.5 * (1 + math.erf(1.2 / math.sqrt(2)))
    assert estimate.strongest_id == 10
    # 2,000 runs: the standard error is √(0.885·0.115/2000) ≈ 0.007; allow 4 of them.
    assert estimate.strongest_first_chance == pytest.approx(exact, abs=0.03)
    assert sum(chance.first_chance for chance in estimate.chances) == pytest.approx(1.0)


def test_the_estimate_is_seeded_and_shares_ties():
    again = [fairness_report(games=SMALL, byes=SMALL_BYES, runs=300, seed=5) for _ in range(2)]
    assert again[0].monte_carlo == again[1].monte_carlo
    # Equal skills, one game: its two winners tie for first, each run's first place shared.
    even = monte_carlo(
        games=[PlayedGame(1, (1, 2, 3, 4))],
        skills={},
        season_format="individual",
        teams={},
        runs=400,
        seed=3,
        settings=RatingSettings(),
    )
    assert sum(chance.first_chance for chance in even.chances) == pytest.approx(1.0)
    assert all(0.15 < chance.first_chance < 0.35 for chance in even.chances)
    assert even.strongest_id == 1  # every skill equal: the lowest id


def test_an_empty_season_and_bad_input():
    empty = fairness_report(games=[], byes=[])
    assert (empty.games_played, empty.pairs, empty.players) == (0, (), ())
    assert empty.monte_carlo.strongest_first_chance is None
    with pytest.raises(DomainError, match="runs"):
        fairness_report(games=SMALL, runs=-1)
    with pytest.raises(DomainError, match="format"):
        fairness_report(games=SMALL, season_format="pairs")
    with pytest.raises(DomainError, match="four different players"):
        PlayedGame(9, (1, 1, 2, 3))


# --- every count against a brute-force count of the seats ---------------------------------


@st.composite
def seasons(draw):
    roster = list(range(1, draw(st.integers(4, 10)) + 1))
    games = []
    for game_id in range(1, draw(st.integers(0, 25)) + 1):
        seats = tuple(draw(st.permutations(roster))[:4])
        games.append(
            PlayedGame(
                game_id,
                seats,
                draw(st.sampled_from(["A", "B", None])),
                played_order=draw(st.integers(0, 5)),
                is_finished=draw(st.booleans()),
            )
        )
    byes = [SatOut(player) for player in draw(st.lists(st.sampled_from(roster), max_size=15))]
    return roster, games, byes


@given(seasons())
@settings(
    max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
def test_every_count_equals_a_brute_force_count_of_the_seats(season):
    roster, games, byes = season
    report = fairness_report(games=games, byes=byes, runs=20)
    played = [g for g in games if g.is_finished]

    brute_partnered, brute_opposed = {}, {}
    for first, second in combinations(roster, 2):
        together = apart = 0
        for game in played:
            where = {seat: index % 2 for index, seat in enumerate(game.seats)}
            if first in where and second in where:
                if where[first] == where[second]:
                    together += 1
                else:
                    apart += 1
        if together or apart:
            brute_partnered[(first, second)] = together
            brute_opposed[(first, second)] = apart
    assert {(p.first, p.second): p.partnered for p in report.pairs} == brute_partnered
    assert {(p.first, p.second): p.opposed for p in report.pairs} == brute_opposed
    assert report.most_partnered == max(brute_partnered.values(), default=0)
    assert report.most_opposed == max(brute_opposed.values(), default=0)
    assert report.repeated_partnerships == sum(n >= 2 for n in brute_partnered.values())
    assert report.repeated_oppositions == sum(n >= 2 for n in brute_opposed.values())
    assert report.games_played == len(played)

    sat_out = Counter(bye.player_id for bye in byes)
    seen = {p for g in played for p in g.seats} | set(sat_out)
    assert [line.player_id for line in report.players] == sorted(seen)
    for line in report.players:
        player = line.player_id
        mine = [g for g in played if player in g.seats]
        partners = Counter(
            next(
                other
                for index, other in enumerate(g.seats)
                if other != player and index % 2 == g.seats.index(player) % 2
            )
            for g in mine
        )
        opponents = Counter(
            other
            for g in mine
            for index, other in enumerate(g.seats)
            if index % 2 != g.seats.index(player) % 2
        )
        assert line.games == len(mine)
        assert line.byes == sat_out[player]
        assert line.distinct_partners == len(partners)
        assert line.distinct_opponents == len(opponents)
        assert line.most_with_one_partner == max(partners.values(), default=0)
        assert line.most_against_one_opponent == max(opponents.values(), default=0)
        assert (line.strength_of_schedule is None) == (not mine)
    byes_of = [sat_out[p] for p in sorted(seen)]
    assert (report.fewest_byes, report.most_byes) == (
        min(byes_of, default=0),
        max(byes_of, default=0),
    )
    if report.monte_carlo.chances:
        total = sum(chance.first_chance for chance in report.monte_carlo.chances)
        assert total == pytest.approx(1.0, abs=1e-3)


@pytest.mark.parametrize(
    ("measure", "expected"),
    [
        ("wins", {1: 0.25, 3: 0.25, 5: 0.25, 7: 0.25}),  # one win each: a four-way tie
        ("win_pct", {1: 0.0, 3: 1 / 3, 5: 1 / 3, 7: 1 / 3}),  # 1 won one of two
    ],
)
def test_the_estimate_ranks_by_the_season_measure(measure, expected):
    """Skills 100 against 0 make every result certain (Φ(±12) rounds to 1 or 0): 1 and 3 beat
    2 and 4, then 5 and 7 beat 1 and 6."""
    games = [PlayedGame(1, (1, 2, 3, 4)), PlayedGame(2, (1, 5, 6, 7))]
    skills = {1: 100.0, 2: 0.0, 3: 100.0, 4: 0.0, 5: 100.0, 6: 0.0, 7: 100.0}
    estimate = monte_carlo(
        games=games,
        skills=skills,
        season_format="individual",
        teams={},
        runs=100,
        seed=1,
        settings=RatingSettings(),
        measure=measure,
    )
    chances = {chance.entrant_id: chance.first_chance for chance in estimate.chances}
    assert {player: chances[player] for player in expected} == pytest.approx(expected, abs=1e-4)
    assert estimate.measure == measure
