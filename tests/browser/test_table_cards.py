"""The table tents, a table card's waiting page and a new season's dashboard checklist in a real
Chromium, at 360×640 and 1280×800, with axe-core finding nothing; the table card opens round 1's
game and, once round 2 starts, round 2's, from the same link."""

import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from league.models import Season
from scoring.games.models import Game
from tests.browser.conftest import axe_violations
from tests.browser.test_nights import logged_in, play_round_through_the_api
from tests.factories import NightFactory, PlayerFactory, SeasonFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}


def both_sizes(page, shot, state):
    shot(page, f"{state}-phone", full_page=False)
    page.set_viewport_size(DESKTOP)
    shot(page, f"{state}-desktop", full_page=False)
    page.set_viewport_size({"width": 360, "height": 640})


def test_one_table_card_for_the_night(organiser, league, new_phone, live_server, shot):
    season = SeasonFactory(
        league=league, format=Season.Format.INDIVIDUAL, rulebook__slug="standard"
    )
    night = NightFactory(season=season, venue="Rosie's")
    page = logged_in(new_phone, live_server, organiser)
    page.goto(f"{live_server.url}/manage/seasons/{season.pk}/")
    expect(page.locator("details.checklist summary")).to_contain_text("next, roster")
    assert axe_violations(page) == []
    both_sizes(page, shot, "dashboard")

    players = [PlayerFactory(league=league, name=f"Player {n}") for n in range(8)]
    client = Client()
    client.force_login(organiser)
    client.post(f"/manage/nights/{night.pk}/check-in/roster/")
    client.post(f"/manage/nights/{night.pk}/plan/", {"rounds": 3})
    client.post(f"/manage/nights/{night.pk}/publish/")
    assert len(players) == 8

    page.goto(f"{live_server.url}/manage/nights/{night.pk}/tents/")
    expect(page.locator("section.tent")).to_have_count(2)
    assert axe_violations(page) == []
    both_sizes(page, shot, "tents")
    link = page.locator("section.tent .link").first.inner_text()
    assert re.fullmatch(r"http://.+/tables/[A-Za-z0-9_-]+/", link)

    table = new_phone().new_page()  # a captain's phone: no account
    table.clock.install()  # its timers run as usual, and the test may move them on
    table.goto(link)
    expect(table.locator("[data-waiting]")).to_contain_text("Waiting for round 1")
    assert axe_violations(table) == []
    both_sizes(table, shot, "table-waiting")

    page.goto(f"{live_server.url}/manage/nights/{night.pk}/")
    page.get_by_role("button", name="Start round 1").click()
    expect(page.locator(".table-card")).to_have_count(2)
    # The waiting page moves on to the game by itself: htmx polls it every 15 s, which the
    # page's clock is moved on through rather than waited out.
    round_one = Game.objects.get(night=night, round_number=1, table_number=1)
    table.clock.run_for(15_000)
    expect(table).to_have_url(f"{live_server.url}/t/{round_one.captain_token}/")
    play_round_through_the_api(night, 1)
    page.goto(f"{live_server.url}/manage/nights/{night.pk}/")
    page.get_by_role("button", name="Start round 2").click()
    table.goto(link)
    round_two = Game.objects.get(night=night, round_number=2, table_number=1)
    expect(table).to_have_url(f"{live_server.url}/t/{round_two.captain_token}/")
    both_sizes(page, shot, "desk-round-2")
