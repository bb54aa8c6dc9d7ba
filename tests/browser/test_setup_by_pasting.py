"""Setting a league up by pasting, in Chromium at 360×640 (issue 31, item 3), as an organiser
with no site rights: paste the roster (a bad line first: nothing added), create a team season
with its usual rounds, plan every Thursday for 7 weeks but one, paste the teams (two names new
to the roster, confirmed), and build the schedule on those nights. Every page passes axe-core."""

from __future__ import annotations

import time

import pytest
from django.test import Client
from playwright.sync_api import expect

from league.models import League, Night, Player, Season, Team
from scoring.games.models import Game
from tests.browser.conftest import axe_violations
from tests.factories import LeagueRoleFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Ann Baker",
    "Bob Carter",
    "Cal Dunn",
    "Dee Ellis",
    "Eve Fox",
    "Gus Hale",
    "Hal Ives",
    "Ida Jones",
    "Jo King",
    "Kit Lowe",
    "Lu Moss",
    "Max Nash",
    "Ned Owen",
    "Ola Park",
]
PAIRS = [(NAMES[i], NAMES[i + 1]) for i in range(0, len(NAMES), 2)] + [("Pia Quinn", "Rex Stone")]


def assert_accessible(page) -> None:
    """No axe-core violation at all, of any impact (the issue's bar for these pages)."""
    found = [
        (v["impact"], v["id"], [n["target"] for n in v["nodes"][:4]]) for v in axe_violations(page)
    ]
    assert found == [], f"{page.url}: {found}"


def signed_in_page(new_phone, live_server, user):
    session = Client()
    session.force_login(user)
    phone = new_phone()
    phone.add_cookies(
        [{"name": "sessionid", "value": session.cookies["sessionid"].value, "url": live_server.url}]
    )
    return phone.new_page()


def test_paste_the_roster_the_teams_and_a_series_of_nights(new_phone, live_server, shot):
    role = LeagueRoleFactory(league__name="Thursday Euchre", user__username="rosie")
    league, user = role.league, role.user
    assert not user.is_superuser and not user.is_staff
    page = signed_in_page(new_phone, live_server, user)
    base = live_server.url
    loads = []
    page.on("load", lambda _page: loads.append(time.monotonic()))
    started = time.monotonic()

    # The roster: a paste with a bad line adds nobody and says which line
    page.goto(f"{base}/manage/leagues/{league.pk}/players/")
    box = page.get_by_label("Paste names, one a line")
    box.fill("\n".join([*NAMES[:3], "ann baker", *NAMES[3:]]))
    page.get_by_role("button", name="Add these players").click()
    expect(page.locator("table.problems tbody tr")).to_have_count(1)
    expect(page.locator("table.problems")).to_contain_text("ann baker is also on line 1")
    assert_accessible(page)
    shot(page, "roster-refused")
    assert not Player.objects.exists()
    box = page.get_by_label("Paste names, one a line")
    box.fill("\n".join(NAMES))
    page.get_by_role("button", name="Add these players").click()
    expect(page.locator(".messages")).to_contain_text("Added 14 players.")
    expect(page.locator("table.roster tbody tr")).to_have_count(14)
    assert_accessible(page)
    shot(page, "roster")

    # A team season that usually plays 2 rounds a night
    page.goto(f"{base}/manage/leagues/{league.pk}/seasons/new/")
    page.get_by_label("Name").fill("Fall 2026")
    page.get_by_label("Starts on").fill("2026-09-01")
    page.get_by_label("Rounds a night, usually (optional)").fill("2")
    page.get_by_role("button", name="Create season").click()
    expect(page.locator("h1")).to_contain_text("Fall 2026")
    season = Season.objects.get(league=league)
    assert (season.format, season.usual_rounds) == ("teams", 2)

    # Every Thursday for 7 weeks, but not the 24th of September: shown, then planned
    page.goto(f"{base}/manage/seasons/{season.pk}/nights/")
    page.get_by_label("Every:", exact=True).select_option(label="Thursday")
    page.get_by_label("How many nights").fill("7")
    page.get_by_label("Skip these dates (optional)").fill("2026-09-24")
    page.get_by_label("Venue (every night)").fill("Rosie's")
    page.get_by_role("button", name="Show the dates").click()
    expect(page.locator(".preview .dates li")).to_have_count(7)
    expect(page.locator(".preview")).to_contain_text("Skipped: Thu 24 Sep 2026.")
    assert_accessible(page)
    shot(page, "nights-preview")
    assert not Night.objects.exists()
    page.get_by_role("button", name="Plan these 7 nights").click()
    expect(page.locator("table.nights tbody tr")).to_have_count(7)
    assert_accessible(page)
    shot(page, "nights")
    assert [night.date.isoformat() for night in Night.objects.order_by("date")] == [
        "2026-09-03",
        "2026-09-10",
        "2026-09-17",
        "2026-10-01",
        "2026-10-08",
        "2026-10-15",
        "2026-10-22",
    ]

    # The teams: two names are new to the roster, confirmed before they join it
    page.goto(f"{base}/manage/seasons/{season.pk}/teams/")
    page.get_by_label("Paste teams, one a line").fill(
        "\n".join(f"{first} & {second}" for first, second in PAIRS)
    )
    page.get_by_role("button", name="Add these teams").click()
    expect(page.locator(".confirm")).to_contain_text("2 new players for the roster")
    expect(page.locator(".new-players li")).to_have_text(["Pia Quinn", "Rex Stone"])
    assert_accessible(page)
    shot(page, "teams-confirm")
    assert not Team.objects.exists() and Player.objects.count() == 14
    page.get_by_role("button", name="Add 2 players and the teams").click()
    expect(page.locator(".messages")).to_contain_text("Added 8 teams.")
    expect(page.locator("main table.list tbody tr")).to_have_count(8)
    expect(page.get_by_text("Every active player on the roster is on a team")).to_be_visible()
    assert_accessible(page)
    shot(page, "teams")
    assert Player.objects.count() == 16 and Team.objects.filter(season=season).count() == 8

    # The schedule on those nights: 8 teams meet once, 7 rounds, one a night… or two a night
    page.goto(f"{base}/manage/seasons/{season.pk}/schedule/")
    expect(page.get_by_role("checkbox", checked=True)).to_have_count(7)
    expect(page.get_by_label("Rounds a night, at most")).to_have_value("2")
    assert_accessible(page)
    shot(page, "schedule-form")
    page.get_by_role("button", name="Create the games").click()
    expect(page.locator(".schedule-night")).to_have_count(7)
    # The figures of the journey (axe checks and screenshots included): the note of issue 31.
    print(f"\nsetup by pasting: {len(loads)} page loads, {time.monotonic() - started:.1f} s")
    assert Game.objects.filter(season=season).count() == 28  # 8 teams, each pair once
    assert League.objects.count() == 1
