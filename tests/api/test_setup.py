"""Setting up a league through the API: leagues, rulebooks (presets, custom, preview, new
versions), seasons, players, teams and games; the schema; health."""

import pytest
from django.core.management import call_command

from league.api.serializers import RulebookOptionsSerializer
from league.domain.rules import Rulebook as Rules
from league.models import League, LeagueRole, Player, Rulebook, Season, Team
from scoring.games.models import Game, Hand
from scoring.standings.tasks import sweep_stale_seasons

pytestmark = pytest.mark.django_db


def test_organiser_sets_up_a_league_end_to_end(organiser_api, organiser):
    league = organiser_api.post("/api/v1/leagues/", {"name": "Church Hall Euchre"}, format="json")
    assert league.status_code == 201, league.json()
    league_id = league.json()["id"]
    assert league.json()["slug"] == "church-hall-euchre"
    assert LeagueRole.objects.get(league_id=league_id).user == organiser

    season = organiser_api.post(
        "/api/v1/seasons/",
        {"league": league_id, "name": "Winter", "format": "teams", "preset": "family"},
        format="json",
    ).json()
    assert season["rulebook"]["preset"] == "family"
    assert season["rulebook"]["options"]["defender_alone"] == "always"

    ids = [
        organiser_api.post(
            "/api/v1/players/", {"league": league_id, "name": name}, format="json"
        ).json()["id"]
        for name in ("Ann", "Ben", "Cal", "Dee")
    ]
    team_a = organiser_api.post(
        "/api/v1/teams/",
        {"season": season["id"], "name": "Aces", "player_one": ids[0], "player_two": ids[2]},
        format="json",
    ).json()
    team_b = organiser_api.post(
        "/api/v1/teams/",
        {"season": season["id"], "name": "Bowers", "player_one": ids[1], "player_two": ids[3]},
        format="json",
    ).json()
    game = organiser_api.post(
        "/api/v1/games/",
        {
            "season": season["id"],
            "seats": ids,
            "team_a": team_a["id"],
            "team_b": team_b["id"],
            "first_dealer_seat": 3,
        },
        format="json",
    )
    assert game.status_code == 201, game.json()
    assert (game.json()["next_dealer_seat"], game.json()["status"]) == (3, "scheduled")
    hand = organiser_api.post(
        f"/api/v1/games/{game.json()['id']}/hands/",
        {"makers": "B", "defender_alone": True, "tricks_won": 2},
        format="json",
        HTTP_IDEMPOTENCY_KEY="first",
    ).json()
    assert (hand["points_a"], hand["summary"]) == (4, "Euchred by a lone defender: A +4")


def test_teams_must_sit_on_their_side(organiser_api, make_season, league):
    season = make_season()
    players = [Player.objects.create(league=league, name=f"P{n}") for n in range(4)]
    team = Team.objects.create(
        season=season, name="T", player_one=players[0], player_two=players[1]
    )
    response = organiser_api.post(
        "/api/v1/games/",
        {"season": season.pk, "seats": [p.pk for p in players], "team_a": team.pk},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"] == {
        "team_a": ["T's players must sit on its side of the table"]
    }
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    ("payload", "field", "message"),
    [
        ({"name": ""}, "name", "may not be blank"),
        ({"name": "Dup"}, None, "already exists"),
    ],
)
def test_league_errors(organiser_api, payload, field, message):
    organiser_api.post("/api/v1/leagues/", {"name": "Dup"}, format="json")
    before = League.objects.count()
    response = organiser_api.post("/api/v1/leagues/", payload, format="json")
    assert response.status_code in (400, 409)
    assert message in response.json()["message"]
    if field:
        assert field in response.json()["errors"]
    assert League.objects.count() == before


def test_roster_names_are_unique_per_league(organiser_api, league):
    first = organiser_api.post(
        "/api/v1/players/", {"league": league.pk, "name": "Ann  Lee"}, format="json"
    )
    assert first.json()["name"] == "Ann Lee"
    again = organiser_api.post(
        "/api/v1/players/", {"league": league.pk, "name": "Ann Lee"}, format="json"
    )
    assert again.status_code == 409
    assert again.json() == {
        "message": "Ann Lee is already on this league's roster",
        "code": "conflict",
        "errors": {},
    }
    assert Player.objects.count() == 1


def test_a_player_is_on_one_team_per_season(organiser_api, make_season, league):
    season = make_season()
    ann, ben, cal = (Player.objects.create(league=league, name=n) for n in ("Ann", "Ben", "Cal"))
    organiser_api.post(
        "/api/v1/teams/",
        {"season": season.pk, "name": "One", "player_one": ann.pk, "player_two": ben.pk},
        format="json",
    )
    clash = organiser_api.post(
        "/api/v1/teams/",
        {"season": season.pk, "name": "Two", "player_one": cal.pk, "player_two": ann.pk},
        format="json",
    )
    assert clash.status_code == 400
    assert clash.json()["message"] == (
        f"a player can be on only one team in a season: {ann.name} is already on One"
    )
    assert clash.json()["errors"] == {"player_two": [clash.json()["message"]]}
    assert Team.objects.count() == 1


def test_a_season_whose_partners_rotate_has_no_teams(
    organiser_api, organiser_client, make_season, league
):
    season = make_season(format=Season.Format.INDIVIDUAL)
    ann, ben = (Player.objects.create(league=league, name=n) for n in ("Ann", "Ben"))
    team = {"name": "Aces", "player_one": ann.pk, "player_two": ben.pk}
    refused = organiser_api.post("/api/v1/teams/", {"season": season.pk, **team}, format="json")
    assert refused.status_code == 400
    assert refused.json()["message"] == (
        "this season's partners rotate: teams are for seasons of fixed partnerships"
    )
    # The page's form too, which the season's menu does not link to for such a season.
    page = organiser_client.post(f"/manage/seasons/{season.pk}/teams/", team, follow=True)
    assert "teams are for seasons of fixed partnerships" in page.content.decode()
    assert not Team.objects.exists()


def test_other_leagues_organisers_cannot_write(api, league, django_user_model):
    outsider = django_user_model.objects.create_user("outsider", password="long-enough-pass")
    api.force_authenticate(outsider)
    response = api.post("/api/v1/players/", {"league": league.pk, "name": "Sneaky"}, format="json")
    assert response.status_code == 403
    assert Player.objects.count() == 0
    anonymous = type(api)().post("/api/v1/leagues/", {"name": "X"}, format="json")
    assert anonymous.status_code in (401, 403)


def test_presets_are_listed_with_a_slug_and_a_line(api):
    presets = api.get("/api/v1/rulebooks/presets/").json()
    assert [preset["slug"] for preset in presets] == [
        "standard",
        "csl",
        "family",
        "progressive",
        "points-or-time",
        "timed",
    ]
    csl = presets[1]
    assert csl["options"]["lone_caller_euchred_points"] == 4
    assert csl["options"]["stick_the_dealer"] is True
    assert all(preset["description"] for preset in presets)


def test_options_serializer_covers_every_rulebook_option():
    assert set(RulebookOptionsSerializer().fields) == set(Rules().to_options())


@pytest.mark.parametrize(
    ("rulebook", "hand", "expected"),
    [
        ("standard", {"makers": "A", "tricks_won": 5}, (2, 0, "March! A +2")),
        (
            "csl",
            {"makers": "B", "caller_alone": True, "tricks_won": 2},
            (4, 0, "Euchred a loner: A +4"),
        ),
        (
            "standard",
            {"makers": "B", "caller_alone": True, "tricks_won": 2},
            (2, 0, "Euchred a loner: A +2"),
        ),
    ],
)
def test_preview_scores_without_writing(api, rulebook, hand, expected):
    response = api.post(
        "/api/v1/rulebooks/preview/", {"rulebook": rulebook, "hand": hand}, format="json"
    )
    assert response.status_code == 200
    body = response.json()
    assert (body["points_a"], body["points_b"], body["summary"]) == expected
    assert Hand.objects.count() == 0 and Rulebook.objects.count() == 0


def test_preview_errors(api):
    bad = api.post(
        "/api/v1/rulebooks/preview/",
        {"rulebook": "csl", "hand": {"thrown_in": True}},
        format="json",
    )
    assert bad.status_code == 400
    assert bad.json()["message"] == (
        "a thrown-in hand is not allowed when stick the dealer is on: the dealer must name trump"
    )
    unknown = api.post(
        "/api/v1/rulebooks/preview/",
        {"rulebook": "nope", "hand": {"makers": "A", "tricks_won": 3}},
        format="json",
    )
    assert unknown.status_code == 400 and "preset slug" in unknown.json()["message"]


def test_custom_rulebook_and_preview_by_id(organiser_api, league, api):
    response = organiser_api.post(
        "/api/v1/rulebooks/",
        {
            "league": league.pk,
            "name": "House",
            "preset": "standard",
            "options": {"target_score": 11, "renege_penalty": "deduct_guilty"},
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    options = response.json()["options"]
    assert (options["target_score"], options["renege_penalty"], options["march_points"]) == (
        11,
        "deduct_guilty",
        2,
    )
    preview = api.post(
        "/api/v1/rulebooks/preview/",
        {
            "rulebook": str(response.json()["id"]),
            "hand": {"makers": "A", "tricks_won": 3, "renege": "B"},
        },
        format="json",
    ).json()
    assert (preview["points_a"], preview["points_b"]) == (0, -2)
    bad = organiser_api.post(
        "/api/v1/rulebooks/",
        {"league": league.pk, "name": "Bad", "options": {"target_score": 0, "wild": 1}},
        format="json",
    )
    assert bad.status_code == 400
    assert bad.json()["errors"] == {"options.wild": ["unknown rulebook option"]}
    assert Rulebook.objects.count() == 1


def test_changing_rules_makes_a_new_version_and_rederives(
    organiser_api, make_game, django_capture_on_commit_callbacks
):
    game = make_game("standard")
    organiser_api.post(
        f"/api/v1/games/{game.pk}/hands/", {"makers": "A", "tricks_won": 5}, format="json"
    )
    old = game.season.rulebook
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser_api.post(
            f"/api/v1/seasons/{game.season_id}/rules/",
            {"options": {"march_points": 3}},
            format="json",
        )
    assert response.status_code == 202
    season = Season.objects.get(pk=game.season_id)
    assert season.rulebook_id != old.pk
    assert (season.rulebook.version, season.rulebook.previous_id) == (2, old.pk)
    old.refresh_from_db()
    assert old.options["march_points"] == 2  # never edited in place
    hand = Hand.objects.get(game=game)  # the on-commit task ran eagerly
    assert (hand.points_a, hand.rulebook_id) == (3, season.rulebook_id)
    game.refresh_from_db()
    assert game.score_a == 3
    assert sweep_stale_seasons() == {"rederive": [], "recompute": [], "race": []}


def test_rules_change_refused_when_a_recorded_hand_breaks_them(organiser_api, make_game):
    game = make_game("standard")
    organiser_api.post(f"/api/v1/games/{game.pk}/hands/", {"thrown_in": True}, format="json")
    response = organiser_api.post(
        f"/api/v1/seasons/{game.season_id}/rules/",
        {"options": {"stick_the_dealer": True}},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["message"].startswith("hand 1 of game")
    assert Rulebook.objects.count() == 1
    assert Season.objects.get().rulebook.options["stick_the_dealer"] is False


def test_schema_is_valid_without_warnings(capsys):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", "/dev/null")
    captured = capsys.readouterr()
    assert "Warning" not in captured.err and "Error" not in captured.err


def test_docs_and_schema_are_served(api):
    assert api.get("/api/docs/").status_code == 200
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert "/api/v1/games/{id}/hands/" in schema["paths"]
    assert "/api/v1/rulebooks/preview/" in schema["paths"]


def test_healthz_reports_database_and_broker(client):
    response = client.get("/healthz")
    assert response.status_code == 200, response.json()
    assert response.json()["database"] == "ok"
    assert response.json()["broker"].startswith("ok")


def test_admin_lists_every_model(admin_client):
    from django.apps import apps
    from django.contrib import admin

    ours = [
        m
        for m in apps.get_models()
        if m._meta.app_label in ("league", "scoring", "standings", "tournaments")
    ]
    assert len(ours) >= 20
    for model in ours:
        assert admin.site.is_registered(model), model._meta.label
        path = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        assert admin_client.get(path).status_code == 200, path


def test_rules_change_with_an_undone_hand_that_the_new_rules_forbid(
    organiser_api, make_game, django_capture_on_commit_callbacks
):
    game = make_game("standard")
    organiser_api.post(f"/api/v1/games/{game.pk}/hands/", {"thrown_in": True}, format="json")
    organiser_api.post(f"/api/v1/games/{game.pk}/hands/undo/", {"number": 1}, format="json")
    organiser_api.post(
        f"/api/v1/games/{game.pk}/hands/", {"makers": "A", "tricks_won": 5}, format="json"
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser_api.post(
            f"/api/v1/seasons/{game.season_id}/rules/",
            {"options": {"stick_the_dealer": True}},
            format="json",
        )
    assert response.status_code == 202, response.json()
    season = Season.objects.get(pk=game.season_id)
    assert not Hand.objects.filter(game=game).exclude(rulebook=season.rulebook).exists()
    assert [(h.status, h.outcome) for h in Hand.objects.filter(game=game).order_by("pk")] == [
        ("voided", "thrown_in"),
        ("active", "march"),
    ]
    assert sweep_stale_seasons() == {"rederive": [], "recompute": [], "race": []}
