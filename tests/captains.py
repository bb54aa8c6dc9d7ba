"""Captains who play games through the hands API, as a table's phone does (``X-Captain-Token``),
from the test's own thread: Django's test client, not a browser or the live server, for the games
a test needs played but does not watch."""

from django.test import Client


def post_marches(game, numbers, *, makers: str = "A") -> None:
    """The game's captain records hands ``numbers``, each a march for ``makers`` (2 points)."""
    captain = Client()
    for number in numbers:
        response = captain.post(
            f"/api/v1/games/{game.pk}/hands/",
            {"makers": makers, "tricks_won": 5, "number": number},
            HTTP_X_CAPTAIN_TOKEN=game.captain_token,
            content_type="application/json",
        )
        assert response.status_code == 201, response.content


def play_through_the_api(games, *, makers: str = "A") -> None:
    """Each game's captain records five marches for ``makers`` (10–0 under standard rules)."""
    for game in games:
        post_marches(game, range(1, 6), makers=makers)
        game.refresh_from_db()
        assert game.status == "finished", (game.pk, game.status, game.score_a, game.score_b)
