"""Seeding a bracket from the standings before the season is complete (issue 31, item 4): the
API and the workspace's form say what is unfinished (nights left, games being played or not
started) and build nothing until the organiser confirms; by hand, or once the season is
complete, nothing is asked."""

import datetime

import pytest
from django.test import Client

from league.models import Night
from scoring.games import services as scoring
from scoring.games.models import Game
from tests.api.test_brackets import bracket_rows, make_teams, play_season, seats
from tournaments.models import Bracket

pytestmark = pytest.mark.django_db

UNFINISHED = (
    "The season is not finished: 2 nights not finished (from Tue 6 Oct 2026), 1 game being played, "
    "1 game not started. Seeds from the standings now may not be the final ones: confirm to "
    "seed from the standings as they are."
)


@pytest.fixture
def teams(make_season):
    season = make_season("standard")
    teams = make_teams(season, 5)
    play_season(season, teams)  # the standings rank the teams
    return teams


@pytest.fixture
def unfinished(teams):
    """Two nights still to come, a game under way on the first, another not started."""
    season = teams[0].season
    first, _second = (
        Night.objects.create(season=season, date=datetime.date(2026, 10, day)) for day in (6, 13)
    )
    Night.objects.create(
        season=season, date=datetime.date(2026, 9, 29), status=Night.Status.FINISHED
    )
    playing = scoring.game_create(
        season=season,
        seats=seats(teams[0], teams[1]),
        team_a=teams[0],
        team_b=teams[1],
        night=first,
    )
    Game.objects.filter(pk=playing.pk).update(status=Game.Status.IN_PROGRESS)
    scoring.game_create(
        season=season,
        seats=seats(teams[2], teams[3]),
        team_a=teams[2],
        team_b=teams[3],
        night=first,
    )
    return season


def body(season, **extra):
    return {"season": season.pk, "kind": "single", "team_count": 4, **extra}


def test_the_api_says_what_is_unfinished_and_builds_nothing(organiser_api, unfinished):
    before = bracket_rows()
    refused = organiser_api.post("/api/v1/brackets/", body(unfinished), format="json")
    assert refused.status_code == 409
    assert (refused.json()["code"], refused.json()["message"]) == ("season_unfinished", UNFINISHED)
    assert bracket_rows() == before

    built = organiser_api.post(
        "/api/v1/brackets/", body(unfinished, confirm_unfinished=True), format="json"
    )
    assert built.status_code == 201, built.json()
    assert [entry["standing_rank"] for entry in built.json()["entries"]] == [1, 2, 3, 4]


def test_seeds_by_hand_are_not_asked_about(organiser_api, unfinished, teams):
    response = organiser_api.post(
        "/api/v1/brackets/",
        {"season": unfinished.pk, "kind": "single", "teams": [team.pk for team in teams[:4]]},
        format="json",
    )
    assert response.status_code == 201


def test_a_complete_season_is_not_asked_about(organiser_api, teams):
    season = teams[0].season
    Night.objects.create(season=season, date=datetime.date(2026, 9, 29), status="finished")
    response = organiser_api.post("/api/v1/brackets/", body(season), format="json")
    assert response.status_code == 201


def test_the_form_warns_and_needs_the_confirmation(organiser, unfinished):
    client = Client()
    client.force_login(organiser)
    url = "/manage/brackets/new/"
    form = client.get(url, {"season": unfinished.pk}).content.decode()
    assert (
        "<strong>The season is not finished:</strong> 2 nights not finished (from Tue 6 Oct 2026), "
        "1 game being played, 1 game not started." in form
    )
    assert 'name="confirm_unfinished"' in form

    fields = {"season": unfinished.pk, "kind": "single", "seeding": "standings", "team_count": 4}
    refused = client.post(url, fields)
    assert refused.status_code == 400
    assert UNFINISHED in refused.content.decode().replace("&#x27;", "'")
    assert not Bracket.objects.exists()

    built = client.post(url, {**fields, "confirm_unfinished": "on"})
    assert built.status_code == 302
    assert Bracket.objects.get().entries.count() == 4


def test_what_is_unfinished_in_words():
    from tournaments.selectors.season_progress import SeasonProgress

    night = Night(date=datetime.date(2026, 9, 22))
    assert SeasonProgress([night], 1, 0).words() == (
        "1 night not finished (Tue 22 Sep 2026), 1 game being played"
    )
    assert SeasonProgress([], 0, 3).words() == "3 games not started"
    assert SeasonProgress([], 0, 0).is_complete and SeasonProgress([], 0, 0).words() == ""
