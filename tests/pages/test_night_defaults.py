"""Sensible defaults at the night desk (issue 31, item 4): a night's plan starts from the rounds
that fit the night (the season's usual rounds, else the last night's, else a few that fit an
evening), never the full cycle (11 rounds for 12 players)."""

import datetime
import re

import pytest

from tests.factories import NightFactory, PlayerFactory
from tournaments.services import nights as night_services

pytestmark = pytest.mark.django_db


def check_in(night, players, user):
    for player in players:
        night_services.night_check_in(night=night, player=player, user=user)


def rounds_field(client, night) -> tuple[str, str]:
    html = client.get(f"/manage/nights/{night.pk}/").content.decode()
    value = re.search(r'<input id="rounds" name="rounds"[^>]* value="(\d+)"', html).group(1)
    hint = re.search(r'<p class="hint"><small>(.*?)</small>', html).group(1)
    return value, hint


def test_twelve_players_start_from_three_rounds_not_eleven(organiser_client, night, organiser):
    check_in(night, [PlayerFactory(league=night.season.league) for _ in range(12)], organiser)
    value, hint = rounds_field(organiser_client, night)
    assert value == "3"
    assert hint == (
        "3: what fits an evening. 12 players: up to 11 rounds (the full cycle) without "
        "repeating a partner."
    )


def test_sixteen_players_start_from_five(organiser_client, night, organiser):
    check_in(night, [PlayerFactory(league=night.season.league) for _ in range(16)], organiser)
    assert rounds_field(organiser_client, night)[0] == "5"


def test_the_seasons_usual_rounds_come_first(organiser_client, night, organiser):
    season = night.season
    season.usual_rounds = 4
    season.save(update_fields=["usual_rounds"])
    check_in(night, [PlayerFactory(league=season.league) for _ in range(12)], organiser)
    assert rounds_field(organiser_client, night) == (
        "4",
        "4: the season&#x27;s usual rounds a night. 12 players: up to 11 rounds (the full "
        "cycle) without repeating a partner.",
    )


def test_else_the_last_nights_rounds(organiser_client, night, organiser):
    players = [PlayerFactory(league=night.season.league) for _ in range(8)]
    last = NightFactory(season=night.season, date=night.date - datetime.timedelta(weeks=1))
    check_in(last, players, organiser)
    night_services.night_plan(night=last, rounds=6, user=organiser)
    check_in(night, players, organiser)
    value, hint = rounds_field(organiser_client, night)
    assert (value, hint.split(".")[0]) == ("6", "6: as many as the last night")


def test_never_more_than_the_full_cycle(organiser_client, night, organiser):
    season = night.season
    season.usual_rounds = 9
    season.save(update_fields=["usual_rounds"])
    check_in(night, [PlayerFactory(league=season.league) for _ in range(4)], organiser)
    value, hint = rounds_field(organiser_client, night)
    assert (value, hint.split(".")[0]) == ("3", "3: the full cycle of 4 players")


def test_a_planned_night_shows_its_own_rounds(organiser_client, night, organiser):
    check_in(night, [PlayerFactory(league=night.season.league) for _ in range(8)], organiser)
    night_services.night_plan(night=night, rounds=2, user=organiser)
    value, hint = rounds_field(organiser_client, night)
    assert value == "2" and hint.startswith("8 players:")
