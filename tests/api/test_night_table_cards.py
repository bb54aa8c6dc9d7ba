"""The night desk's newer doors through the API: check in the whole roster in one change, and
the night's table cards (one link per table for the whole night, organisers only)."""

import pytest

from league.models import Attendance, AuditEntry, Season
from tests.factories import LeagueRoleFactory, PlayerFactory, SeasonFactory
from tournaments.models import TableCard

pytestmark = pytest.mark.django_db


@pytest.fixture
def night_id(organiser_api, league):
    season = SeasonFactory(
        league=league, format=Season.Format.INDIVIDUAL, rulebook__slug="standard"
    )
    for n in range(9):
        PlayerFactory(league=league, name=f"P{n}")
    response = organiser_api.post(
        "/api/v1/nights/", {"season": season.pk, "date": "2026-12-01", "venue": "Rosie's"}
    )
    assert response.status_code == 201, response.data
    return response.data["id"]


def test_check_in_the_whole_roster_once(organiser_api, night_id):
    for _ in range(2):
        response = organiser_api.post(f"/api/v1/nights/{night_id}/check-in-roster/")
        assert response.status_code == 200, response.data
    assert Attendance.objects.filter(night_id=night_id).count() == 9
    assert AuditEntry.objects.filter(action="attendance.check_in_all").count() == 1


def test_table_cards_are_the_organisers(organiser_api, api, night_id):
    organiser_api.post(f"/api/v1/nights/{night_id}/check-in-roster/")
    organiser_api.post(f"/api/v1/nights/{night_id}/plan/", {"rounds": 3}, format="json")
    response = organiser_api.get(f"/api/v1/nights/{night_id}/table-cards/")
    assert response.status_code == 200, response.data
    tokens = dict(TableCard.objects.filter(night_id=night_id).values_list("number", "token"))
    assert response.data == [
        {"number": number, "url": f"http://testserver/tables/{tokens[number]}/"}
        for number in (1, 2)
    ]
    assert organiser_api.get(f"/api/v1/nights/{night_id}/table-cards/").data == response.data
    assert api.get(f"/api/v1/nights/{night_id}/table-cards/").status_code in (401, 403)
    stranger = LeagueRoleFactory().user
    api.force_authenticate(stranger)
    assert api.get(f"/api/v1/nights/{night_id}/table-cards/").status_code == 403
    assert api.post(f"/api/v1/nights/{night_id}/check-in-roster/").status_code == 403
