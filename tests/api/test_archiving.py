"""Archiving and the organiser's updates through the API (issue 32, item 7): nights, seasons and
brackets are archived, not deleted (``POST …/archive/``, ``…/restore/``); archived ones leave the
lists, the public pages and the standings and come back exactly; leagues, seasons and brackets
are renamed and nights rescheduled with ``PATCH``. Each change is audited; bad input is a 400 that
writes nothing; another league's organiser is refused."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.models import Attendance, AuditEntry, League, Night, Season
from scoring.games import services
from scoring.games.models import Game, Hand
from scoring.standings.services.recompute import season_standings_recompute
from tests.factories import LeagueRoleFactory, race_season
from tests.fuzz.seed import seed_league
from tournaments.models import Bracket, BracketEntry, BracketMatch

pytestmark = pytest.mark.django_db


def client_of(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def stranger():
    """An organiser of another league."""
    return client_of(LeagueRoleFactory(user__username="stranger").user)


@pytest.fixture
def played(league, django_capture_on_commit_callbacks):
    """A team season whose night's two games are over (10-4 and 10-8), beside seven earlier
    games of no night, with its standings computed."""
    season, _teams, night, tonight = race_season(league, night_status="finished")
    with django_capture_on_commit_callbacks(execute=True):
        services.game_record_final_score(game=tonight[0], score_a=10, score_b=4)
        services.game_record_final_score(game=tonight[1], score_a=10, score_b=8)
    return season, night, tonight


def standings_rows(api, season) -> list:
    response = api.get(f"/api/v1/seasons/{season.pk}/standings/")
    assert response.status_code == 200, response.data
    return response.data["standings"]["rows"]


def night_rows(night) -> dict:
    """Everything stored about a night, as rows."""
    return {
        "night": list(Night.objects.filter(pk=night.pk).values()),
        "attendance": list(Attendance.objects.filter(night=night).values()),
        "games": list(Game.objects.filter(night=night).order_by("pk").values()),
        "hands": list(Hand.objects.filter(game__night=night).order_by("pk").values()),
    }


def public(path: str) -> str:
    response = Client().get(path)
    assert response.status_code == 200, path
    return response.content.decode()


def wins_of(rows, name) -> int:
    return next(row["wins"] for row in rows if row["name"] == name)


def test_an_archived_night_leaves_lists_pages_and_standings_and_comes_back_exactly(
    organiser, organiser_api, api, played, django_capture_on_commit_callbacks
):
    season, night, tonight = played
    league_page = f"/l/{season.league.slug}/"
    season_page = f"{league_page}s/{season.pk}/"
    night_page = f"{season_page}nights/{night.pk}/"
    rows_before = standings_rows(api, season)
    stored_before = night_rows(night)
    assert wins_of(rows_before, "Aces") == 4
    assert wins_of(rows_before, "Bowers") == 3
    assert [n["id"] for n in api.get("/api/v1/nights/", {"season": season.pk}).data["results"]] == [
        night.pk
    ]
    assert f"nights/{night.pk}/" in public(season_page)
    public(night_page)
    player_page = f"{league_page}players/{tonight[0].seat_0_id}/"
    assert tonight[0].pk in [game.pk for game in Client().get(player_page).context["games"]]

    with django_capture_on_commit_callbacks(execute=True):
        archived = organiser_api.post(f"/api/v1/nights/{night.pk}/archive/", {"reason": "wrong"})
    assert archived.status_code == 200, archived.data
    assert archived.data["id"] == night.pk and archived.data["archived_at"] is not None

    # Gone: from the API's lists and detail, the public pages, the standings (its two games).
    assert api.get("/api/v1/nights/", {"season": season.pk}).data["results"] == []
    assert api.get(f"/api/v1/nights/{night.pk}/").status_code == 404
    assert api.get("/api/v1/games/", {"night": night.pk}).data["results"] == []
    assert api.get(f"/api/v1/games/{tonight[0].pk}/").status_code == 404
    assert f"nights/{night.pk}/" not in public(season_page)
    assert f"nights/{night.pk}/" not in public(league_page)
    assert Client().get(night_page).status_code == 404
    assert Client().get(f"/nights/{night.pk}/").status_code == 404
    listed = Client().get(player_page).context["games"]
    assert tonight[0].pk not in [game.pk for game in listed]
    rows_archived = standings_rows(api, season)
    assert wins_of(rows_archived, "Aces") == 3
    assert wins_of(rows_archived, "Bowers") == 2
    assert sum(row["games"] for row in rows_archived) == 2 * 7
    # The incremental fold that dropped the night's games equals a recompute from nothing.
    season_standings_recompute(season_id=season.pk, force=True)
    assert standings_rows(api, season) == rows_archived
    # Kept: every row of the night, as it was (but the two archive fields).
    kept = night_rows(night)
    assert kept["night"][0]["archived_at"] is not None
    assert kept["night"][0]["archived_by_id"] is not None
    assert {k: v for k, v in kept.items() if k != "night"} == {
        k: v for k, v in stored_before.items() if k != "night"
    }
    # An organiser lists it; anyone else sees no archived night at all.
    listed = organiser_api.get("/api/v1/nights/", {"archived": "true"}).data["results"]
    assert [n["id"] for n in listed] == [night.pk]
    assert api.get("/api/v1/nights/", {"archived": "true"}).data["results"] == []
    assert api.get("/api/v1/nights/", {"archived": "perhaps"}).status_code == 400

    with django_capture_on_commit_callbacks(execute=True):
        restored = organiser_api.post(f"/api/v1/nights/{night.pk}/restore/")
    assert restored.status_code == 200, restored.data
    assert restored.data["archived_at"] is None
    assert night_rows(night) == stored_before
    games_back = api.get("/api/v1/games/", {"night": night.pk}).data["results"]
    assert sorted(game["id"] for game in games_back) == sorted(game.pk for game in tonight)
    assert standings_rows(api, season) == rows_before
    assert f"nights/{night.pk}/" in public(season_page)
    public(night_page)

    trail = AuditEntry.objects.filter(target_type="night", target_id=night.pk)
    name = organiser.get_username()
    assert list(trail.order_by("pk").values_list("action", "actor_label", "reason")) == [
        ("night.archive", name, "wrong"),
        ("night.restore", name, ""),
    ]
    assert trail.order_by("pk").first().before == {"archived_at": None, "archived_by": None}


def test_archiving_twice_or_restoring_what_is_in_use_is_a_conflict(organiser_api, played):
    _season, night, _ = played
    assert organiser_api.post(f"/api/v1/nights/{night.pk}/restore/").status_code == 409
    assert organiser_api.post(f"/api/v1/nights/{night.pk}/archive/").status_code == 200
    again = organiser_api.post(f"/api/v1/nights/{night.pk}/archive/")
    assert again.status_code == 409
    assert AuditEntry.objects.filter(action="night.archive").count() == 1
    assert organiser_api.post("/api/v1/nights/999999/archive/").status_code == 404


def test_another_leagues_organiser_can_neither_archive_restore_nor_update(stranger, played, api):
    season, night, _ = played
    bracket_league = seed_league()
    bracket = Bracket.objects.get(pk=bracket_league.ids["bracket"][0])
    before = AuditEntry.objects.count()
    for path in (
        f"/api/v1/nights/{night.pk}/archive/",
        f"/api/v1/seasons/{season.pk}/archive/",
        f"/api/v1/brackets/{bracket.pk}/archive/",
    ):
        assert stranger.post(path).status_code == 403, path
        assert api.post(path).status_code in (401, 403), path
    client_of(bracket_league.organiser).post(f"/api/v1/brackets/{bracket.pk}/archive/")
    assert stranger.post(f"/api/v1/brackets/{bracket.pk}/restore/").status_code == 403
    for path, body in (
        (f"/api/v1/leagues/{season.league_id}/", {"name": "Mine now"}),
        (f"/api/v1/seasons/{season.pk}/", {"name": "Mine now"}),
        (f"/api/v1/nights/{night.pk}/", {"date": "2026-12-24"}),
    ):
        assert stranger.patch(path, body, format="json").status_code == 403, path
    assert Night.objects.get(pk=night.pk).archived_at is None
    assert Bracket.objects.get(pk=bracket.pk).archived_at is not None
    assert League.objects.get(pk=season.league_id).name != "Mine now"
    assert Season.objects.get(pk=season.pk).name == "Spring"
    assert AuditEntry.objects.count() == before + 1  # the owner's own archive only


def test_an_archived_season_takes_its_nights_and_brackets_out_of_sight_and_back():
    seeded = seed_league()
    owner = client_of(seeded.organiser)
    anyone = APIClient()
    teams_season, individual = seeded.ids["season"]
    season = Season.objects.get(pk=teams_season)
    season_standings_recompute(season_id=teams_season, force=True)
    standings_before = anyone.get(f"/api/v1/seasons/{teams_season}/standings/").data
    bracket = seeded.ids["bracket"][0]
    league_page = f"/l/{season.league.slug}/"
    season_before = anyone.get(f"/api/v1/seasons/{teams_season}/").data
    bracket_before = anyone.get(f"/api/v1/brackets/{bracket}/").data
    bracket_rows = list(BracketMatch.objects.filter(bracket_id=bracket).values()) + list(
        BracketEntry.objects.filter(bracket_id=bracket).values()
    )
    assert season.name in public(league_page)

    answer = owner.post(f"/api/v1/seasons/{teams_season}/archive/")
    assert answer.status_code == 200, answer.data
    assert answer.data["archived_at"] is not None
    ids = [s["id"] for s in anyone.get("/api/v1/seasons/").data["results"]]
    assert teams_season not in ids and individual in ids
    assert anyone.get(f"/api/v1/seasons/{teams_season}/").status_code == 404
    assert anyone.get(f"/api/v1/seasons/{teams_season}/standings/").status_code == 404
    assert anyone.get(f"/api/v1/seasons/{teams_season}/race/").status_code == 404
    assert anyone.get("/api/v1/teams/", {"season": teams_season}).data["results"] == []
    assert anyone.get("/api/v1/brackets/").data == []
    assert anyone.get(f"/api/v1/brackets/{bracket}/").status_code == 404
    assert Client().get(f"/brackets/{bracket}/").status_code == 404
    assert season.name not in public(league_page)
    assert Client().get(f"{league_page}s/{teams_season}/").status_code == 404
    mine = owner.get("/api/v1/seasons/", {"archived": "true"}).data["results"]
    assert [s["id"] for s in mine] == [teams_season]
    # A bracket of an archived season comes back with its season, not alone.
    assert owner.post(f"/api/v1/brackets/{bracket}/archive/").status_code == 409

    assert owner.post(f"/api/v1/seasons/{teams_season}/restore/").status_code == 200
    assert anyone.get(f"/api/v1/seasons/{teams_season}/").data == season_before
    assert len(anyone.get("/api/v1/teams/", {"season": teams_season}).data["results"]) == 4
    assert anyone.get(f"/api/v1/seasons/{teams_season}/standings/").data == standings_before
    assert anyone.get(f"/api/v1/brackets/{bracket}/").data == bracket_before
    assert (
        list(BracketMatch.objects.filter(bracket_id=bracket).values())
        + list(BracketEntry.objects.filter(bracket_id=bracket).values())
        == bracket_rows
    )
    assert season.name in public(league_page)


def test_an_archived_bracket_leaves_the_lists_and_comes_back():
    seeded = seed_league()
    owner = client_of(seeded.organiser)
    bracket = seeded.ids["bracket"][0]
    before = APIClient().get(f"/api/v1/brackets/{bracket}/").data
    assert owner.post(f"/api/v1/brackets/{bracket}/archive/").status_code == 200
    assert APIClient().get("/api/v1/brackets/").data == []
    assert [b["id"] for b in owner.get("/api/v1/brackets/", {"archived": "true"}).data] == [bracket]
    assert APIClient().get(f"/api/v1/brackets/{bracket}/").status_code == 404
    assert owner.post(f"/api/v1/brackets/{bracket}/restore/").status_code == 200
    assert APIClient().get(f"/api/v1/brackets/{bracket}/").data == before
    actions = AuditEntry.objects.filter(target_type="bracket").order_by("pk")
    assert list(actions.values_list("action", flat=True)) == ["bracket.archive", "bracket.restore"]


def test_rename_and_reschedule(organiser_api, played):
    season, night, _ = played
    league = season.league
    answer = organiser_api.patch(
        f"/api/v1/leagues/{league.pk}/", {"name": "  Rosie's   Tuesday "}, format="json"
    )
    assert answer.status_code == 200, answer.data
    assert answer.data["name"] == "Rosie's Tuesday"
    answer = organiser_api.patch(f"/api/v1/seasons/{season.pk}/", {"name": "Fall"}, format="json")
    assert answer.status_code == 200 and answer.data["name"] == "Fall"
    answer = organiser_api.patch(
        f"/api/v1/nights/{night.pk}/", {"date": "2026-12-24", "venue": "The Lamb"}, format="json"
    )
    assert answer.status_code == 200, answer.data
    assert (answer.data["date"], answer.data["venue"]) == ("2026-12-24", "The Lamb")
    trail = AuditEntry.objects.filter(league=league).order_by("pk")
    season_entry = trail.get(action="season.rename")
    assert (season_entry.before, season_entry.after) == ({"name": "Spring"}, {"name": "Fall"})
    league_entry = trail.get(action="league.update")
    assert league_entry.after == {"name": "Rosie's Tuesday", "description": ""}
    night_entry = trail.get(action="night.reschedule")
    assert night_entry.after == {"date": "2026-12-24", "venue": "The Lamb"}
    assert night_entry.before["date"] == night.date.isoformat()
    # A change to nothing writes nothing.
    count = trail.count()
    assert organiser_api.patch(f"/api/v1/seasons/{season.pk}/", {"name": "Fall"}).status_code == 200
    assert AuditEntry.objects.filter(league=league).count() == count


def test_a_bracket_is_renamed():
    seeded = seed_league()
    owner = client_of(seeded.organiser)
    bracket = seeded.ids["bracket"][0]
    answer = owner.patch(f"/api/v1/brackets/{bracket}/", {"name": "The Cup"}, format="json")
    assert answer.status_code == 200, answer.data
    assert answer.data["name"] == "The Cup"
    entry = AuditEntry.objects.get(action="bracket.rename")
    assert entry.after == {"name": "The Cup"}


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("leagues/{league}/", {"name": "   "}, "name"),
        ("seasons/{season}/", {"name": ""}, "name"),
        ("seasons/{season}/", {"name": "x" * 121}, "name"),
        ("nights/{night}/", {"date": "not a date"}, "date"),
        ("nights/{night}/", {"date": "2026-13-01"}, "date"),
        ("nights/{night}/", {"venue": "v" * 121}, "venue"),
        ("nights/{night}/archive/", {"reason": "r" * 501}, "reason"),
    ],
)
def test_bad_input_is_a_400_that_writes_nothing(organiser_api, played, path, body, field):
    season, night, _ = played
    url = "/api/v1/" + path.format(league=season.league_id, season=season.pk, night=night.pk)
    before = (
        list(League.objects.values()),
        list(Season.objects.values()),
        list(Night.objects.values()),
        AuditEntry.objects.count(),
    )
    method = organiser_api.post if url.endswith("archive/") else organiser_api.patch
    answer = method(url, body, format="json")
    assert answer.status_code == 400, answer.data
    assert field in answer.json()["errors"], answer.json()
    after = (
        list(League.objects.values()),
        list(Season.objects.values()),
        list(Night.objects.values()),
        AuditEntry.objects.count(),
    )
    assert after == before


def test_a_night_outside_its_season_or_a_name_taken_is_refused(organiser_api, league, played):
    season, night, _ = played
    Season.objects.filter(pk=season.pk).update(
        starts_on="2026-09-01", ends_on="2026-12-31", name="Spring"
    )
    night.refresh_from_db()
    late = organiser_api.patch(f"/api/v1/nights/{night.pk}/", {"date": "2027-01-05"})
    assert late.status_code == 400 and "date" in late.json()["errors"]
    from tests.factories import SeasonFactory

    SeasonFactory(league=league, name="Winter")
    taken = organiser_api.patch(f"/api/v1/seasons/{season.pk}/", {"name": "Winter"})
    assert taken.status_code == 409, taken.data
    assert Season.objects.get(pk=season.pk).name == "Spring"
    assert Night.objects.get(pk=night.pk).date == night.date
    assert not AuditEntry.objects.filter(action__in=("night.reschedule", "season.rename")).exists()
