"""A season's dashboard says what to do next (rulebook, roster, teams or nights, schedule,
publish), each step a link, and ticks each off once done."""

import re

import pytest

from league.models import Season
from tests.factories import NightFactory, PlayerFactory, SeasonFactory
from tests.pages.night_desk import post

pytestmark = pytest.mark.django_db


def steps(client, season) -> list[tuple[str, str, str]]:
    """(state, label, link) per step: state is "done", "next" or ""."""
    html = client.get(f"/manage/seasons/{season.pk}/").content.decode()
    return re.findall(r'<li class="(done|next|)"><a href="([^"]+)">.*?<b>([^<]+)</b>', html, re.S)


def test_a_new_individual_season_is_walked_to_a_published_night(organiser_client, league):
    season = SeasonFactory(
        league=league, format=Season.Format.INDIVIDUAL, rulebook__slug="standard"
    )
    page = organiser_client.get(f"/manage/seasons/{season.pk}/").content.decode()
    assert "Set-up: next, <b>roster</b>" in page
    assert "No games yet" in page and "Disputed" not in page
    assert [(state, label) for state, _, label in steps(organiser_client, season)] == [
        ("done", "Rulebook"),
        ("next", "Roster"),
        ("", "Nights"),
        ("", "Schedule"),
        ("", "Publish"),
    ]
    players = [PlayerFactory(league=league, name=f"P{n}") for n in range(4)]
    night = NightFactory(season=season)
    found = steps(organiser_client, season)
    assert [state for state, _, _ in found] == ["done", "done", "done", "next", ""]
    assert found[3][1] == f"/manage/nights/{night.pk}/"  # the step is a link to the night desk
    for player in players:
        post(organiser_client, f"/manage/nights/{night.pk}/check-in/", {"player": player.pk})
    post(organiser_client, f"/manage/nights/{night.pk}/plan/", {"rounds": 3})
    assert [state for state, _, _ in steps(organiser_client, season)][3:] == ["done", "next"]
    post(organiser_client, f"/manage/nights/{night.pk}/publish/")
    assert [state for state, _, _ in steps(organiser_client, season)] == ["done"] * 5
    page = organiser_client.get(f"/manage/seasons/{season.pk}/").content.decode()
    assert "Set-up: all 5 steps done" in page


def test_a_team_season_asks_for_teams_and_a_schedule(organiser_client, league):
    season = SeasonFactory(league=league, format=Season.Format.TEAMS)
    for n in range(4):
        PlayerFactory(league=league, name=f"P{n}")
    found = steps(organiser_client, season)
    assert [(state, label) for state, _, label in found] == [
        ("done", "Rulebook"),
        ("done", "Roster"),
        ("next", "Teams"),
        ("", "Nights"),
        ("", "Schedule"),
        ("", "Publish"),
    ]
    assert found[2][1] == f"/manage/seasons/{season.pk}/teams/"
    assert found[4][1] == f"/manage/seasons/{season.pk}/schedule/" or "schedule" in found[4][1]
