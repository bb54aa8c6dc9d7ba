"""A player's season stats and rating through the public API, read from the snapshot."""

import pytest

from league.models import Player
from tests.factories import LeagueFactory, SeasonFactory
from tests.pages.test_public_pages import known  # noqa: F401  (the known season fixture)

pytestmark = pytest.mark.django_db


def test_a_players_stats_line_and_rating(api, known):  # noqa: F811
    ann = known["teams"]["Aces"].player_one
    response = api.get(f"/api/v1/seasons/{known['season'].pk}/players/{ann.pk}/stats/")
    assert response.status_code == 200
    body = response.json()
    assert (body["season"], body["player"], body["name"]) == (known["season"].pk, ann.pk, "Ann")
    assert body["is_current"] is True
    assert body["standing"] is None  # a team season ranks teams, not players
    stats = body["stats"]
    assert {key: stats[key] for key in ("games", "wins", "losses", "hands", "points_for")} == {
        "games": 1,
        "wins": 1,
        "losses": 0,
        "hands": 3,
        "points_for": 12,
    }
    assert (stats["calls"], stats["calls_made"], stats["loners_marched"]) == (3, 3, 3)
    al = known["teams"]["Aces"].player_two
    assert stats["partners"] == [
        {"other_id": al.pk, "games": 1, "wins": 1, "losses": 0, "draws": 0}
    ]
    assert [pair["other_id"] for pair in stats["opponents"]] == sorted(
        known["teams"]["Bowers"].player_ids
    )
    rating = body["rating"]
    assert (rating["player_id"], rating["games_rated"], rating["wins"]) == (ann.pk, 1, 1)
    assert rating["mu"] > 25


def test_unknown_season_player_or_snapshot_is_a_404(api, known):  # noqa: F811
    season = known["season"].pk
    stranger = Player.objects.create(league=LeagueFactory(), name="Stranger")
    ann = known["teams"]["Aces"].player_one_id
    assert api.get(f"/api/v1/seasons/999999/players/{ann}/stats/").status_code == 404
    missing = api.get(f"/api/v1/seasons/{season}/players/{stranger.pk}/stats/")
    assert missing.status_code == 404
    assert missing.json()["message"] == "no such player in this season's league"
    quiet = SeasonFactory(league=known["league"], name="Quiet")
    none_yet = api.get(f"/api/v1/seasons/{quiet.pk}/players/{ann}/stats/")
    assert none_yet.status_code == 404


def test_the_endpoint_is_in_the_schema(api):
    schema = api.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/seasons/{id}/players/{player_id}/stats/"]["get"]
    assert operation["operationId"] == "seasons_player_stats"
    ref = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    component = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert {"stats", "rating", "standing", "is_current"} <= set(component["properties"])
