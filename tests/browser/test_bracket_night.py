"""A bracket published on tonight from its page in a real Chromium at 360×640 (tonight suggested
in the form), tents printed for the night (one per table of the bracket's largest round), and a
table's card opening the bracket game at that table; axe-core finds nothing on either page;
screenshots at 360×640 and 1280×800."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring.games.models import Game
from tests.api.test_brackets import make_teams
from tests.browser.conftest import axe_violations
from tests.browser.test_nights import logged_in
from tests.factories import NightFactory
from tournaments.models import Bracket
from tournaments.services.brackets.create import bracket_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}


def both_sizes(page, shot, state):
    shot(page, f"{state}-phone", full_page=False)
    page.set_viewport_size(DESKTOP)
    shot(page, f"{state}-desktop", full_page=False)
    page.set_viewport_size({"width": 360, "height": 640})


def test_a_bracket_on_tonight_prints_its_tents(
    organiser, make_season, new_phone, live_server, shot
):
    season = make_season("standard")
    tonight = NightFactory(season=season, date=timezone.localdate(), venue="Rosie's")
    bracket = bracket_create(
        season=season, user=organiser, kind="single", teams=make_teams(season, 6), name="Cup"
    )
    page = logged_in(new_phone, live_server, organiser)
    page.goto(f"{live_server.url}/manage/brackets/{bracket.pk}/")
    expect(page.get_by_label("Played on")).to_have_value(str(tonight.pk))
    assert axe_violations(page) == []
    both_sizes(page, shot, "publish")
    shot(page, "publish-form-phone")
    page.get_by_role("button", name="Publish: create the first games").click()
    expect(page.get_by_role("link", name="table tents")).to_be_visible()
    assert axe_violations(page) == []
    shot(page, "published-phone")
    bracket.refresh_from_db()
    assert (bracket.status, bracket.night_id) == (Bracket.Status.PUBLISHED, tonight.pk)

    page.goto(f"{live_server.url}/manage/nights/{tonight.pk}/")
    expect(page.get_by_role("link", name="Cup")).to_be_visible()
    assert axe_violations(page) == []
    both_sizes(page, shot, "night-desk")
    page.get_by_role("link", name="Print the table tents").click()
    # Six teams: two byes, so round 1 and round 2 each play two games at once.
    expect(page.locator("section.tent")).to_have_count(2)
    assert axe_violations(page) == []
    both_sizes(page, shot, "tents")
    link = page.locator("section.tent .link").nth(1).inner_text()

    table = new_phone().new_page()  # a captain's phone: no account
    table.goto(link)
    at_table_two = Game.objects.get(night=tonight, table_number=2)
    assert at_table_two.bracket_link.match.round == 1
    expect(table).to_have_url(f"{live_server.url}/t/{at_table_two.captain_token}/")
