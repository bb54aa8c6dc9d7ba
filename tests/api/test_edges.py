"""What a client may send that the API must refuse cleanly, in its error shape: junk or
out-of-range ids (404), junk filters (400), out-of-range pagination (clamped), bodies that are not
a JSON object (400) or too large (413), strings over their limit (400). Run on both databases:
an id beyond bigint only fails on PostgreSQL."""

import json

import pytest

from league.models import League
from scoring.games.models import Hand
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db

HUGE = "99999999999999999999"
ERROR_KEYS = {"message", "code", "errors"}


def error_of(response, status):
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) >= ERROR_KEYS
    return body


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/games/abc/",
        f"/api/v1/games/{HUGE}/",
        "/api/v1/games/abc/hands/",
        "/api/v1/brackets/abc/",
        f"/api/v1/nights/{HUGE}/",
        "/api/v1/nights/false/",
        f"/api/v1/seasons/{HUGE}/standings/",
    ],
)
def test_junk_and_out_of_range_ids_are_404_in_the_error_shape(api, path):
    assert error_of(api.get(path), 404)["code"] == "not_found"


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/games/abc/hands/",
        "/api/v1/games/abc/final-score/",
        f"/api/v1/brackets/{HUGE}/publish/",
        "/api/v1/nights/abc/check-in/",
        "/api/v1/nights/false/plan/",
        f"/api/v1/nights/{HUGE}/archive/",
        "/api/v1/seasons/abc/archive/",
        f"/api/v1/brackets/{HUGE}/restore/",
        "/api/v1/seasons/999999/restore/",
    ],
)
def test_writes_to_junk_ids_are_404(organiser_api, path):
    error_of(organiser_api.post(path, {}, format="json"), 404)


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/leagues/abc/",
        f"/api/v1/seasons/{HUGE}/",
        "/api/v1/nights/999999/",
        "/api/v1/brackets/0/",
    ],
)
def test_updates_of_junk_ids_are_404(organiser_api, path):
    error_of(organiser_api.patch(path, {"name": "x"}, format="json"), 404)


def test_pages_with_out_of_range_ids_are_404(client, organiser_client):
    assert client.get(f"/l/nope/s/{HUGE}/").status_code == 404
    assert organiser_client.get(f"/manage/seasons/{HUGE}/").status_code == 404


@pytest.mark.parametrize(
    "query",
    [
        "/api/v1/games/?season=abc",
        "/api/v1/games/?status=nope",
        "/api/v1/teams/?season=true",
        "/api/v1/nights/?season=true",
        "/api/v1/players/?league=true",
        f"/api/v1/seasons/?league={HUGE}",
        "/api/v1/brackets/?season=abc",
        "/api/v1/seasons/?archived=maybe",
        "/api/v1/nights/?archived=2",
        "/api/v1/brackets/?archived=yes-please",
    ],
)
def test_junk_filters_are_400_naming_the_filter(api, query):
    body = error_of(api.get(query), 400)
    assert body["code"] == "invalid"
    assert set(body["errors"]) == {query.split("?")[1].split("=")[0]}


def test_pagination_is_clamped(api, league):
    for n in range(3):
        League.objects.create(name=f"More {n}", slug=f"more-{n}")
    response = api.get("/api/v1/leagues/?limit=9223372036854775808&offset=99999999999999999999")
    assert response.status_code == 200
    assert response.json()["results"] == []
    response = api.get("/api/v1/leagues/?limit=2&offset=abc")
    assert [row["slug"] for row in response.json()["results"]] == [
        league.slug,
        "more-0",
    ]
    assert len(api.get("/api/v1/leagues/?limit=100000").json()["results"]) == 4


@pytest.mark.parametrize("body", ["[1, 2]", '"a string"', "null", "{not json"])
def test_a_body_that_is_not_a_json_object_is_400(organiser_api, body):
    response = organiser_api.post("/api/v1/leagues/", body, content_type="application/json")
    assert error_of(response, 400)["code"] == "parse_error"
    assert League.objects.count() == 1


def test_an_oversized_body_is_413_and_an_oversized_string_400(organiser_api, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    big = json.dumps({"name": "Big", "description": "x" * 20_000})
    response = organiser_api.post("/api/v1/leagues/", big, content_type="application/json")
    assert error_of(response, 413)["code"] == "too_large"
    response = organiser_api.post(
        "/api/v1/leagues/", {"name": "Long", "description": "x" * 5000}, format="json"
    )
    assert set(error_of(response, 400)["errors"]) == {"description"}
    assert League.objects.count() == 1


def test_sides_are_null_not_empty_and_private_notes_are_left_out(api):
    game = GameFactory()
    body = api.get(f"/api/v1/games/{game.pk}/").json()
    assert body["winner"] is None
    assert "dispute_reason" not in body


NESTED = "[" * 5000 + "]" * 5000


def nested_value(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


@pytest.mark.parametrize("door", ["captain", "organiser"])
@pytest.mark.parametrize(
    "body",
    [NESTED, *(f'{{"makers": {nested_value(n)}, "tricks_won": 3}}' for n in (5000, 40))],
    ids=["array-5000", "field-5000", "field-40"],
)
def test_a_hand_body_nested_too_deeply_is_400(api, organiser_api, make_game, door, body):
    """Past about 1000 levels Python's JSON parser raises RecursionError (not ValueError), on the
    DRF parser (a captain's header) and on the organiser's fast path alike."""
    game = make_game()
    client, headers = organiser_api, {}
    if door == "captain":
        client, headers = api, {"HTTP_X_CAPTAIN_TOKEN": game.captain_token}
    response = client.post(
        f"/api/v1/games/{game.pk}/hands/", body, content_type="application/json", **headers
    )
    assert error_of(response, 400)["code"] == "parse_error"
    assert not Hand.objects.exists()


@pytest.mark.parametrize("depth", [300, 5000])
def test_a_related_id_nested_too_deeply_is_400(organiser_api, depth):
    """A list of lists as a related id: Django's lookups recurse once a level (RecursionError at
    about 300), so the parser refuses any body nested more than 32 deep."""
    body = f'{{"name": "Deep", "league": {nested_value(depth)}}}'
    response = organiser_api.post("/api/v1/seasons/", body, content_type="application/json")
    assert error_of(response, 400) == {
        "message": "the body is nested more than 32 arrays or objects deep",
        "code": "parse_error",
        "errors": {},
    }
