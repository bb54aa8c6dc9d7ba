"""Check-in at the night desk on a phone, in a real Chromium at 360×640: the list on the first
screen, check in and out without a page load (htmx swaps the row and the count), search as you
type, a walk-in from the search box, "check everyone in", undo, the count always in view, and
axe-core finding nothing. Prints the taps, page loads and seconds of checking 13 players in."""

import time

import pytest
from playwright.sync_api import expect

from league.models import Attendance, AuditEntry, Season
from tests.browser.conftest import axe_violations
from tests.browser.test_nights import logged_in
from tests.factories import NightFactory, PlayerFactory, SeasonFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROSTER = [f"Player {letter}" for letter in "ABCDEFGHIJKLMNOP"]
NOT_NAVIGATED = "window.stillTheSamePage === true"


def count(page) -> int:
    return int(page.locator("[data-count]").inner_text())


def test_check_in_on_a_phone_without_reloading(organiser, league, new_phone, live_server, shot):
    season = SeasonFactory(
        league=league, format=Season.Format.INDIVIDUAL, rulebook__slug="standard"
    )
    night = NightFactory(season=season)
    for name in ROSTER:
        PlayerFactory(league=league, name=name)
    page = logged_in(new_phone, live_server, organiser)
    loads = []
    page.on("load", lambda: loads.append(page.url))
    page.goto(f"{live_server.url}/manage/nights/{night.pk}/")
    shot(page, "empty", full_page=False)
    first_row = page.locator("#people li").first.bounding_box()
    assert first_row["y"] + first_row["height"] <= 640, first_row  # the list on the first screen
    assert axe_violations(page) == []
    page.evaluate("window.stillTheSamePage = true")
    loads.clear()

    # 13 in, one tap each, no page load.
    started = time.monotonic()
    for name in ROSTER[:13]:
        page.get_by_role("button", name=f"Check in {name}").click()
        expect(page.locator("#people li.here", has_text=name)).to_have_count(1)
    seconds = time.monotonic() - started
    print(f"\nchecking 13 in: 13 taps, {len(loads)} page loads, {seconds:.2f} s")
    assert loads == [] and page.evaluate(NOT_NAVIGATED)
    assert count(page) == 13
    expect(page.locator("#messages .flash")).to_have_text("Player M is checked in.")
    assert Attendance.objects.filter(night=night).count() == 13
    shot(page, "thirteen-in", full_page=False)

    # Search as you type.
    page.get_by_label("Find a name, or add a walk-in").fill("player o")
    expect(page.locator("#people li:not([hidden])")).to_have_count(1)
    expect(page.locator("#people li:not([hidden])")).to_contain_text("Player O")
    page.get_by_label("Find a name, or add a walk-in").fill("")
    expect(page.locator("#people li:not([hidden])")).to_have_count(16)

    # A walk-in from the search box; the same name again is refused.
    search = page.get_by_label("Find a name, or add a walk-in")
    search.fill("Wanda Walk-in")
    expect(page.locator("#no-match")).to_contain_text("adds them as a walk-in")
    shot(page, "walk-in-typed", full_page=False)
    page.get_by_role("button", name="Check in", exact=True).click()
    expect(page.locator("#people li.here", has_text="Wanda Walk-in")).to_have_count(1)
    expect(search).to_have_value("")
    assert count(page) == 14
    search.fill("wanda walk-in")
    page.get_by_role("button", name="Check in", exact=True).click()
    expect(page.locator("#messages .flash.error")).to_have_text(
        "Wanda Walk-in is already checked in"
    )
    assert count(page) == 14
    search.fill("")
    page.get_by_role("button", name="Check in", exact=True).click()  # blank: the browser says so
    assert page.evaluate("document.querySelector('#walk-in-name').validity.valueMissing")

    # Out, then undo.
    page.get_by_role("button", name="Check out Player A").click()
    expect(page.locator("#people li", has_text="Player A")).to_have_class("left")
    assert count(page) == 13
    page.get_by_role("button", name="Undo: Player A left").click()
    expect(page.locator("#messages .flash")).to_have_text("Undone: Player A left.")
    expect(page.get_by_role("button", name="Check out Player A")).to_be_visible()
    assert count(page) == 14

    # The count stays in view at the bottom of the list.
    page.locator("#people li").last.scroll_into_view_if_needed()
    box = page.locator("[data-count]").bounding_box()
    assert 0 <= box["y"] <= 640 - box["height"], box
    shot(page, "scrolled", full_page=False)

    # Everyone else on the roster, in one tap.
    page.get_by_role("button", name="Check in the 3 not here yet").click()
    expect(page.locator("#messages .flash")).to_have_text("3 checked in from the roster.")
    assert count(page) == 17
    assert AuditEntry.objects.filter(action="attendance.check_in_all").count() == 1
    expect(page.locator("#check-in-all button")).to_have_count(0)
    assert loads == [] and page.evaluate(NOT_NAVIGATED)
    assert axe_violations(page) == []
    shot(page, "everyone-in", full_page=False)
    page.set_viewport_size({"width": 1280, "height": 800})
    shot(page, "desktop", full_page=False)
