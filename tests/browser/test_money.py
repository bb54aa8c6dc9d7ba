"""The night's pot in a real Chromium on a 360x640 phone: the organiser sets the season's money
rules with the form (no JavaScript needed), a night is played at the desk, the pot and payout
sheet is read on the phone and at 1280x800 and printed on one page, and the public night page
shows the payouts once the money is public. Every page: no axe-core violation of any impact,
nothing scrolling sideways. Screenshots go to test-artifacts/screenshots/."""

import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from league.models import Season
from tests.browser.conftest import axe_violations
from tests.factories import SeasonFactory
from tests.pages.money_world import played_big_night, played_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def assert_no_violations(page) -> None:
    found = [
        f"{v['impact']} {v['id']}: {v['help']} at "
        + ", ".join(" ".join(node["target"]) for node in v["nodes"][:6])
        for v in axe_violations(page)
    ]
    assert not found, f"{page.url}:\n" + "\n".join(found)


def pages_printed(page) -> int:
    """The pages of the PDF Chromium prints the page to, on A4."""
    return len(re.findall(rb"/Type\s*/Page[^s]", page.pdf(format="A4")))


def fits_the_screen(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate(
        "window.innerWidth"
    )


def test_money_rules_pot_and_payout_sheet(new_phone, live_server, league, organiser, shot):
    season = SeasonFactory(
        league=league, name="Thursdays", format=Season.Format.INDIVIDUAL, rulebook__slug="standard"
    )
    signed_in = Client()
    signed_in.force_login(organiser)
    cookie = {"name": "sessionid", "value": signed_in.cookies["sessionid"].value}
    phone = new_phone()
    phone.add_cookies([{**cookie, "url": live_server.url}])
    page = phone.new_page()
    page.goto(f"{live_server.url}/manage/seasons/{season.pk}/")
    page.get_by_role("link", name="Money", exact=True).first.click()
    expect(page.get_by_role("heading", name="Money of Thursdays")).to_be_visible()
    fits_the_screen(page)
    assert_no_violations(page)

    page.get_by_label("Entry fee per player per night").fill("five")
    page.get_by_role("button", name="Save money rules").click()
    expect(page.locator(".has-error")).to_contain_text("is not an amount")
    fits_the_screen(page)
    assert_no_violations(page)
    shot(page, "rules-error-360")

    page.get_by_label("Entry fee per player per night").fill("5.00")
    page.get_by_label(re.compile(r"^Lone march \(all five tricks alone\):?$")).fill("1.00")
    page.get_by_label(re.compile(r"^Euchre of a lone caller:?$")).fill("0.50")
    page.get_by_label("Euchre of a lone caller: paid how").select_option("fine")
    page.get_by_label("Prize shares by place").fill("60, 40")
    page.get_by_label("Show each night's payouts on its public page").check()
    page.get_by_role("button", name="Save money rules").click()
    expect(page.get_by_role("status")).to_contain_text("Money rules saved.")
    expect(page.locator(".rules-words")).to_contain_text(
        "Lone march (all five tricks alone): 1.00 paid from the pot to the caller"
    )
    fits_the_screen(page)
    assert_no_violations(page)
    shot(page, "rules-360")

    night, _ = played_night(season, organiser)
    page.goto(f"{live_server.url}/manage/seasons/{season.pk}/money/")
    page.get_by_role("link", name=re.compile(r"Thu 5 Mar")).click()
    expect(
        page.get_by_role("heading", name=re.compile("Pot of Thursday 5 March 2026"))
    ).to_be_visible()
    expect(page.locator(".pot-sums")).to_contain_text("Pot20.50")
    expect(page.locator("table.places")).to_contain_text("9.75")
    fits_the_screen(page)
    assert_no_violations(page)
    shot(page, "payout-sheet-360")

    page.get_by_role("link", name="Money rules").click()
    page.get_by_role("link", name="Season ledger by player").click()
    expect(page.get_by_role("heading", name="Ledger of Thursdays")).to_be_visible()
    expect(page.locator("table.ledger")).to_contain_text("5.75")
    fits_the_screen(page)
    assert_no_violations(page)
    shot(page, "ledger-360")

    wide = new_phone()
    wide.add_cookies([{**cookie, "url": live_server.url}])
    sheet = wide.new_page()
    sheet.set_viewport_size({"width": 1280, "height": 800})
    sheet.goto(f"{live_server.url}/manage/nights/{night.pk}/pot/")
    fits_the_screen(sheet)
    assert_no_violations(sheet)
    shot(sheet, "payout-sheet-1280")
    # The payout sheet prints on one page: the workspace's header and links left off.
    sheet.emulate_media(media="print")
    expect(sheet.locator("nav.sections")).to_be_hidden()
    expect(sheet.locator(".no-print")).to_be_hidden()
    shot(sheet, "payout-sheet-print")
    assert pages_printed(sheet) == 1
    # A full night (20 players, 4 rounds, a side pot at every hand) still prints on one page:
    # the sheet sums the side pots per player, the hand-by-hand list stays on the screen.
    big = played_big_night(season, organiser)
    sheet.emulate_media(media="screen")
    sheet.goto(f"{live_server.url}/manage/nights/{big.pk}/pot/")
    expect(sheet.locator(".pot-sums")).to_contain_text("20 × 5.00 = 100.00")
    assert_no_violations(sheet)
    shot(sheet, "big-night-1280")
    sheet.emulate_media(media="print")
    expect(sheet.locator(".side-pot-lines")).to_be_hidden()
    shot(sheet, "big-night-print")
    assert pages_printed(sheet) == 1

    public = new_phone().new_page()
    public.goto(f"{live_server.url}/nights/{night.pk}/")
    expect(public.get_by_role("heading", name="Payouts in USD")).to_be_visible()
    expect(public.locator(".pot-sums")).to_contain_text("Pot20.50")
    fits_the_screen(public)
    assert_no_violations(public)
    shot(public, "public-night-360")
