"""The organiser publishes a bracket on a night from the bracket's page (a choice of the season's
nights in use, tonight's suggested), then prints the night's tents: one per table of the
bracket's largest round, whose links open the bracket's games. A night that is not the season's
is refused with the reason and nothing is published."""

import datetime
import re

import pytest
from django.test import Client
from django.utils import timezone

from league.models import Night
from scoring.games.models import Game
from tests.api.test_brackets import make_teams, match_game
from tests.factories import NightFactory
from tournaments.models import Bracket
from tournaments.services.brackets.create import bracket_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(make_season):
    return make_season("standard")


@pytest.fixture
def bracket(season, organiser):
    return bracket_create(
        season=season, user=organiser, kind="single", teams=make_teams(season, 8), name="Cup"
    )


def test_publish_on_tonight_and_print_its_tents(organiser_client, season, bracket):
    last_week = NightFactory(season=season, date=timezone.localdate() - datetime.timedelta(7))
    tonight = NightFactory(season=season, date=timezone.localdate(), venue="Rosie's")
    archived = NightFactory(season=season, date=timezone.localdate() + datetime.timedelta(7))
    Night.objects.filter(pk=archived.pk).update(archived_at=timezone.now())

    html = organiser_client.get(f"/manage/brackets/{bracket.pk}/").content.decode()
    options = re.findall(r'<option value="(\d*)"( selected)?>', html)
    assert options == [("", ""), (str(last_week.pk), ""), (str(tonight.pk), " selected")]

    response = organiser_client.post(
        f"/manage/brackets/{bracket.pk}/publish/", {"night": tonight.pk}
    )
    assert response.status_code == 302
    bracket.refresh_from_db()
    assert (bracket.status, bracket.night_id) == (Bracket.Status.PUBLISHED, tonight.pk)
    assert sorted(Game.objects.filter(night=tonight).values_list("table_number", flat=True)) == [
        1,
        2,
        3,
        4,
    ]
    page = organiser_client.get(f"/manage/brackets/{bracket.pk}/").content.decode()
    assert f'href="/manage/nights/{tonight.pk}/tents/"' in page
    desk = organiser_client.get(f"/manage/nights/{tonight.pk}/").content.decode()
    assert f'Played tonight: <a href="/manage/brackets/{bracket.pk}/">Cup</a>' in desk

    tents = organiser_client.get(f"/manage/nights/{tonight.pk}/tents/").content.decode()
    found = re.findall(r'<p class="big">Table (\d+)</p>.*?/tables/([A-Za-z0-9_-]+)/', tents, re.S)
    assert [int(number) for number, _token in found] == [1, 2, 3, 4]
    first = match_game(bracket.pk, "W1-1")
    assert first.table_number == 1
    scanned = Client().get(f"/tables/{found[0][1]}/")
    assert (scanned.status_code, scanned["Location"]) == (302, f"/t/{first.captain_token}/")


@pytest.mark.parametrize("night", ["other season", "99999999999999999999999", "x"])
def test_a_night_not_of_the_season_is_refused(organiser_client, bracket, make_season, night):
    other = NightFactory(season=make_season("standard"))
    value = str(other.pk) if night == "other season" else night
    response = organiser_client.post(f"/manage/brackets/{bracket.pk}/publish/", {"night": value})
    assert response.status_code == 409
    assert "Pick a night of this bracket&#x27;s season." in response.content.decode()
    bracket.refresh_from_db()
    assert bracket.status == Bracket.Status.DRAFT
    assert not Game.objects.exists()


def test_no_night_publishes_games_without_tables(organiser_client, season, bracket):
    NightFactory(season=season, date=timezone.localdate())
    response = organiser_client.post(f"/manage/brackets/{bracket.pk}/publish/", {"night": ""})
    assert response.status_code == 302
    assert set(Game.objects.values_list("night_id", "table_number")) == {(None, None)}
