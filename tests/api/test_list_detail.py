"""Every list endpoint lists exactly what its detail endpoint serves (on the demo league, which
holds a team season with a schedule and a bracket, and an individual season with a rotation)."""

from io import StringIO

import pytest
from django.core.management import call_command

from league.models import League, Night, Player, Rulebook, Season, Team
from scoring.games.models import Game
from tournaments.models import Bracket

pytestmark = pytest.mark.django_db

RESOURCES = {
    "leagues": League,
    "seasons": Season,
    "players": Player,
    "teams": Team,
    "games": Game,
    "brackets": Bracket,
    "nights": Night,
    "rulebooks": Rulebook,
}


def listed_ids(api, address: str) -> list[int]:
    ids: list[int] = []
    while address:
        body = api.get(address).json()
        rows = body["results"] if isinstance(body, dict) else body
        ids += [row["id"] for row in rows]
        address = body.get("next") if isinstance(body, dict) else None
    return ids


@pytest.mark.parametrize("resource", RESOURCES)
def test_a_list_holds_every_object_its_detail_serves(api, resource):
    call_command("demo_league", stdout=StringIO())
    listed = listed_ids(api, f"/api/v1/{resource}/")
    served = [
        pk
        for pk in RESOURCES[resource].objects.values_list("pk", flat=True)
        if api.get(f"/api/v1/{resource}/{pk}/").status_code == 200
    ]
    assert served  # the demo holds some of each
    assert sorted(listed) == sorted(served)


def test_the_nights_of_a_team_season_are_listed(api):
    call_command("demo_league", stdout=StringIO())
    season = Season.objects.get(name="Fall 2026")
    listed = listed_ids(api, f"/api/v1/nights/?season={season.pk}")
    assert sorted(listed) == sorted(season.nights.values_list("pk", flat=True))
    assert len(listed) == 3
