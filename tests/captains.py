"""Captains who play whole games through the hands API, as a table's phone does (``X-Captain-
Token``), from the test's own thread: Django's test client, not a browser or the live server, for
the games a test needs over but does not watch."""

from django.test import Client


def play_through_the_api(games, *, makers: str = "A"):
    """Each game's captain records five marches for ``makers`` (10–0 under standard rules)."""
    captain = Client()
    for game in games:
        for hand in range(1, 6):
            response = captain.post(
                f"/api/v1/games/{game.pk}/hands/",
                {"makers": makers, "tricks_won": 5, "number": hand},
                HTTP_X_CAPTAIN_TOKEN=game.captain_token,
                content_type="application/json",
            )
            assert response.status_code == 201, response.content
        game.refresh_from_db()
        assert game.status == "finished", (game.pk, game.status, game.score_a, game.score_b)
