"""Ratings through openskill: winners gain, draws between equals change no mu, partners rotate,
games are taken in played order, and the same games always give the same ratings."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from core.errors import DomainError
from scoring.standings.domain.ratings import (
    Prior,
    RatingSettings,
    compute_ratings,
    rated_last_alike,
    ratings_after,
)
from scoring.standings.domain.standings import GameRecord
from tests.domain.test_standings import game


def by_player(ratings):
    return {rating.player_id: rating for rating in ratings}


def test_winners_gain_and_losers_lose_exactly_as_openskill_says():
    ratings = by_player(compute_ratings([game(1, (1, 2), (3, 4), 10, 6)]))
    model = PlackettLuce()
    [[w1, _], [_, l2]] = model.rate(
        [[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[1, 2]
    )
    assert (ratings[1].mu, ratings[1].sigma) == (w1.mu, w1.sigma)
    assert (ratings[4].mu, ratings[4].sigma) == (l2.mu, l2.sigma)
    assert ratings[1].mu == pytest.approx(26.964294621803063)
    assert ratings[3].mu == pytest.approx(23.035705378196937)
    assert ratings[1].ordinal == pytest.approx(w1.mu - 3 * w1.sigma)
    assert ratings[1].display_rating == round(1000 + 40 * (w1.mu - 3 * w1.sigma))
    assert (ratings[1].games_rated, ratings[1].wins, ratings[1].losses) == (1, 1, 0)
    assert (ratings[3].wins, ratings[3].losses) == (0, 1)


def test_a_draw_between_newcomers_moves_no_mu():
    ratings = by_player(compute_ratings([game(1, (1, 2), (3, 4), 8, 8)]))
    assert {rating.mu for rating in ratings.values()} == {25.0}
    assert ratings[1].draws == 1
    assert ratings[1].sigma < 25 / 3


def test_a_newcomer_displays_1000():
    (rating,) = compute_ratings([], priors={7: Prior(mu=25.0, sigma=25 / 3)})
    assert (rating.player_id, rating.display_rating, rating.games_rated) == (7, 1000, 0)


def test_rating_follows_a_player_across_rotating_partners():
    # Player 1 wins with 2, then with 3, then with 4; each other player wins once and loses twice.
    games = [
        game(1, (1, 2), (3, 4), 10, 5),
        game(2, (1, 3), (2, 4), 10, 5),
        game(3, (1, 4), (2, 3), 10, 5),
    ]
    ratings = compute_ratings(games)
    assert ratings[0].player_id == 1
    one = by_player(ratings)[1]
    assert (one.games_rated, one.wins) == (3, 3)
    others = [by_player(ratings)[p] for p in (2, 3, 4)]
    assert all((r.games_rated, r.wins, r.losses) == (3, 1, 2) for r in others)
    assert all(r.mu < one.mu for r in others)


def test_teams_rate_their_players_not_the_team_ids():
    games = [GameRecord(1, (10,), (20,), 10, 2, "A", players_a=(1, 2), players_b=(3, 4))]
    assert sorted(rating.player_id for rating in compute_ratings(games)) == [1, 2, 3, 4]


def test_games_are_rated_in_played_order_whatever_the_input_order():
    games = [
        game(1, (1, 2), (3, 4), 10, 5, order=3),
        game(2, (1, 3), (2, 4), 4, 10, order=1),
        game(3, (1, 4), (2, 3), 10, 9, order=2),
        game(4, (1, 2), (3, 4), 10, 9, order=2),
    ]
    expected = compute_ratings(games)
    assert compute_ratings(games[::-1]) == expected
    assert compute_ratings([games[2], games[0], games[3], games[1]]) == expected
    # Order matters to the maths, so played order is really used:
    reordered = [GameRecord(**{**g.__dict__, "played_order": 10 - g.played_order}) for g in games]
    assert compute_ratings(reordered) != expected


def test_forfeits_are_not_rated():
    games = [game(1, (1, 2), (3, 4), 0, 0, forfeited_by="B"), game(2, (1, 3), (5, 6), 10, 4)]
    ratings = by_player(compute_ratings(games))
    assert (ratings[4].games_rated, ratings[4].mu, ratings[4].sigma) == (0, 25.0, 25 / 3)
    assert ratings[1].games_rated == 1


def test_priors_carry_a_rating_in():
    games = [game(1, (1, 2), (3, 4), 10, 5)]
    fresh = by_player(compute_ratings(games))
    carried = by_player(compute_ratings(games, priors={1: Prior(mu=30.0, sigma=2.0)}))
    assert carried[1].mu > 30.0
    assert carried[1].sigma < 2.1
    assert carried[1].mu - 30.0 < fresh[1].mu - 25.0  # a surer rating moves less


@pytest.mark.parametrize(
    "model",
    [
        "plackett_luce",
        "bradley_terry_full",
        "bradley_terry_part",
        "thurstone_mosteller_full",
        "thurstone_mosteller_part",
    ],
)
def test_every_model_makes_winners_gain(model):
    ratings = by_player(
        compute_ratings([game(1, (1, 2), (3, 4), 10, 6)], RatingSettings(model=model))
    )
    assert ratings[1].mu > 25.0 > ratings[3].mu


def test_settings_are_checked():
    with pytest.raises(DomainError, match='"elo" is not a rating model; choose from plackett_luce'):
        RatingSettings(model="elo")
    with pytest.raises(DomainError, match="sigma and beta must be positive"):
        RatingSettings(sigma=0)


def test_ratings_are_json_able():
    (first, *_) = compute_ratings([game(1, (1, 2), (3, 4), 10, 6)])
    assert json.loads(json.dumps(first.to_dict())) == first.to_dict()
    assert set(first.to_dict()) == {
        "player_id",
        "mu",
        "sigma",
        "ordinal",
        "display_rating",
        "games_rated",
        "wins",
        "losses",
        "draws",
    }


def _openskill_reference(games, settings=None):
    """The ratings as openskill's own ``rate`` gives them, game by game in played order (the
    way :func:`compute_ratings` worked before it did the arithmetic itself)."""
    from scoring.standings.domain.ratings import MODELS, ORDINAL_Z

    settings = settings or RatingSettings()
    model = MODELS[settings.model](
        mu=settings.mu, sigma=settings.sigma, beta=settings.beta, tau=settings.tau
    )
    ratings, results = {}, {}
    for one in sorted(games, key=lambda g: (g.played_order, g.game_id)):
        sides = (one.players("A"), one.players("B"))
        for player in (*sides[0], *sides[1]):
            if player not in ratings:
                ratings[player], results[player] = model.rating(), [0, 0, 0]
        ranks = [1, 1] if one.winner is None else [1, 2] if one.winner == "A" else [2, 1]
        rated = model.rate([[ratings[p] for p in side] for side in sides], ranks=ranks)
        for side, team, rank, other in zip(sides, rated, ranks, ranks[::-1], strict=True):
            for player, rating in zip(side, team, strict=True):
                ratings[player] = rating
                results[player][2 if rank == other else 0 if rank < other else 1] += 1
    return {
        player: (rating.mu, rating.sigma, rating.ordinal(z=ORDINAL_Z), *results[player])
        for player, rating in ratings.items()
    }


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.integers(1, 9), min_size=4, max_size=4, unique=True),
            st.sampled_from(["A", "B", None]),
        ),
        max_size=40,
    ),
    st.sampled_from(["plackett_luce", "bradley_terry_full", "thurstone_mosteller_part"]),
)
def test_ratings_are_openskills_to_the_last_bit(played, model):
    """The season's own arithmetic (``_plackett_luce``) gives exactly openskill's floats, over
    any games in any order, draws included; other models go through openskill itself."""
    games = [
        GameRecord(
            game_id=number,
            side_a=(seats[0], seats[2]),
            side_b=(seats[1], seats[3]),
            points_a=10 if winner == "A" else 5,
            points_b=10 if winner == "B" else 5,
            winner=winner,
            played_order=(number * 7) % 5,
        )
        for number, (seats, winner) in enumerate(played)
    ]
    settings_ = RatingSettings(model=model)
    expected = _openskill_reference(games, settings_)
    got = {
        r.player_id: (r.mu, r.sigma, r.ordinal, r.wins, r.losses, r.draws)
        for r in compute_ratings(games, settings_)
    }
    assert got == expected


def test_games_rated_last_give_the_played_order_ratings_when_no_later_game_shares_a_player():
    """Game 1 was played before game 2; rated last, it gives the ratings of played order to the
    last bit when the two share no player, and ``rated_last_alike`` says exactly when."""
    first = ((1, 2), (3, 4), "A", False)
    for second_seats, alike in (((5, 6), (7, 8)), True), (((5, 6), (7, 1)), False):
        second = (*second_seats, "B", False)
        played = [(1, (1, 2, 3, 4)), (2, (*second_seats[0], *second_seats[1]))]
        assert rated_last_alike(played, {1}) is alike
        in_order = ratings_after([first, second])
        first_last = ratings_after([second, first])
        assert (in_order == first_last) is alike
