"""No byte a client sends is a server error: a NUL character (which PostgreSQL refuses in text and
in ``jsonb``) or a lone surrogate (which has no UTF-8 form, so an answer echoing it cannot be
written) anywhere in a request (its path, query, headers, cookies or body) is refused with a 400,
on the API in its error shape, before any view reads it.

Run on both databases: on SQLite a NUL is stored as any other character, so the 500s these
requests gave were PostgreSQL's; a lone surrogate echoed in an answer failed on both.
"""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from league.models import AuditEntry, League, Player
from scoring.games.models import Hand
from tests.factories import SeasonFactory, TeamFactory
from tournaments.services.brackets import bracket_create

pytestmark = pytest.mark.django_db

NUL, SURROGATE = "\x00", "\ud800"


def refused(response, *, api: bool) -> None:
    assert response.status_code == 400, (response.status_code, response.content[:300])
    if api:
        assert response["Content-Type"] == "application/json"
        assert set(response.json()) == {"message", "code", "errors"}


@pytest.fixture
def game(make_game):
    return make_game()


@pytest.mark.parametrize(
    "path",
    [
        "/t/1%00/",
        "/t/1%00/qr.svg",
        "/manage/invite/1%00/",
        "/l/a%00b/",
        "/api/v1/games/1%00/",
        "/api/v1/leagues/%00/",
    ],
)
def test_a_nul_in_the_path_is_refused(organiser_client, path):
    refused(organiser_client.get(path), api=path.startswith("/api/"))


def test_a_nul_in_a_captain_link_is_refused_and_writes_nothing(client, game):
    refused(client.post("/t/1%00/hands/", {"key": "k", "number": 1, "makers": "A"}), api=False)
    refused(client.post(f"/t/{game.captain_token}%00/hands/", {"key": "k"}), api=False)
    assert not Hand.objects.exists()


@pytest.mark.parametrize(
    "query",
    [
        "/api/v1/games/?status=%00",
        "/api/v1/teams/?season=1%00",
        "/api/v1/leagues/?x%00=1",
        "/?q=%00",
        "/manage/brackets/new/?season=%00",
    ],
)
def test_a_nul_in_the_query_is_refused(organiser_client, query):
    refused(organiser_client.get(query), api=query.startswith("/api/"))


def test_a_nul_in_a_header_is_refused(api, organiser_api, game):
    hand = {"makers": "A", "tricks_won": 3, "number": 1}
    url = f"/api/v1/games/{game.pk}/hands/"
    refused(
        api.post(url, hand, format="json", HTTP_X_CAPTAIN_TOKEN=f"{game.captain_token}{NUL}"),
        api=True,
    )
    refused(organiser_api.post(url, hand, format="json", HTTP_IDEMPOTENCY_KEY="k\x00"), api=True)
    refused(api.get("/api/v1/leagues/", HTTP_ACCEPT_LANGUAGE=f"en{NUL}"), api=True)
    assert not Hand.objects.exists()


def test_a_nul_in_a_cookie_is_refused(organiser):
    client = Client()
    client.cookies["sessionid"] = f"abc{NUL}"
    refused(client.get("/manage/"), api=False)
    refused(client.get("/api/v1/leagues/"), api=True)


@pytest.mark.parametrize("character", [NUL, SURROGATE], ids=["nul", "surrogate"])
@pytest.mark.parametrize("field", ["makers", "renege", "caller", "tricks_won", "number", "x"])
def test_a_hand_body_with_a_bad_character_is_refused(api, organiser_api, game, character, field):
    body = {"makers": "A", "tricks_won": 3, "number": 1, field: f"A{character}"}
    text = json.dumps(body)  # \u0000 / \ud800 escapes, as a client would send them
    url = f"/api/v1/games/{game.pk}/hands/"
    refused(organiser_api.post(url, text, content_type="application/json"), api=True)
    refused(
        api.post(
            url, text, content_type="application/json", HTTP_X_CAPTAIN_TOKEN=game.captain_token
        ),
        api=True,
    )
    assert not Hand.objects.exists()


@pytest.mark.parametrize("character", [NUL, SURROGATE], ids=["nul", "surrogate"])
def test_a_correction_with_a_bad_character_is_refused(organiser_api, game, character):
    url = f"/api/v1/games/{game.pk}/hands/"
    assert (
        organiser_api.post(url, {"makers": "A", "tricks_won": 3}, format="json").status_code == 201
    )
    for body in (
        {"makers": character, "tricks_won": 3, "reason": "typo"},
        {"makers": "B", "tricks_won": 3, "reason": f"typo{character}"},
    ):
        response = organiser_api.post(
            f"{url}1/correct/", json.dumps(body), content_type="application/json"
        )
        refused(response, api=True)
    assert Hand.objects.get().makers == "A"


@pytest.mark.parametrize("character", [NUL, SURROGATE], ids=["nul", "surrogate"])
def test_any_api_body_with_a_bad_character_is_refused(organiser_api, character):
    for body in (
        {"name": f"Rosie{character}s"},
        {"name": "Rosie's", "description": {f"key{character}": 1}},
        {f"name{character}": "Rosie's"},
    ):
        response = organiser_api.post(
            "/api/v1/leagues/", json.dumps(body), content_type="application/json"
        )
        refused(response, api=True)
    response = organiser_api.post("/api/v1/leagues/", {"name": f"Rosie{NUL}s"})  # a form body
    refused(response, api=True)
    assert League.objects.count() == 1


def test_a_nul_in_a_page_form_is_refused_and_writes_nothing(organiser_client, organiser, league):
    season = SeasonFactory(league=league)
    teams = [TeamFactory(season=season) for _ in range(4)]
    bracket = bracket_create(
        season=season, user=organiser, kind="single", teams=[team.pk for team in teams]
    )
    before = AuditEntry.objects.count()
    response = organiser_client.post(
        f"/manage/brackets/{bracket.pk}/withdraw/", {"team": teams[0].pk, "reason": f"gone{NUL}"}
    )
    refused(response, api=False)
    response = organiser_client.post(f"/manage/leagues/{league.pk}/players/", {"name": f"Zed{NUL}"})
    refused(response, api=False)
    assert AuditEntry.objects.count() == before


@pytest.mark.parametrize(
    "content",
    [b"name,email\nZ\x00ed,\n", b"name,email\nZ\xed\xa0\x80ed,\n"],
    ids=["nul", "surrogate-bytes"],
)
def test_an_uploaded_roster_with_a_bad_character_is_refused(organiser_client, league, content):
    """A file is a body too: the roster CSV's text is read by its form, which says what is wrong."""
    upload = SimpleUploadedFile("roster.csv", content, "text/csv")
    response = organiser_client.post(
        f"/manage/leagues/{league.pk}/players/import/", {"file": upload}
    )
    assert response.status_code == 400
    assert not Player.objects.exists()
