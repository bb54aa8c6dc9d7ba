"""Archiving in a real Chromium at a phone's size: an organiser archives a night from the
season's list, the flash message's Undo brings it back, then a season is archived and restored
from the league's Archived list. axe-core checks each state; screenshots of the flash and the
list go to test-artifacts/screenshots/."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from league.models import Night, Season
from tests.browser.conftest import assert_accessible
from tests.fuzz.seed import seed_league

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    "viewport", [{"width": 360, "height": 640}, {"width": 1280, "height": 800}]
)
def test_archive_undo_and_restore_in_the_workspace(new_phone, live_server, shot, viewport):
    seeded = seed_league()
    night = Night.objects.get(pk=seeded.ids["night"][0])
    season = Season.objects.get(pk=seeded.ids["season"][0])
    session = Client()
    session.force_login(seeded.organiser)
    phone = new_phone()
    phone.add_cookies(
        [{"name": "sessionid", "value": session.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = phone.new_page()
    page.set_viewport_size(viewport)
    size = f"{viewport['width']}x{viewport['height']}"
    label = f"{night.date:%a %-d %b %Y}"

    page.goto(f"{live_server.url}/manage/nights/{night.pk}/")
    archive_section = page.locator(".archive-night")
    expect(archive_section.get_by_role("button", name="Archive the night")).to_be_visible()
    archive_section.scroll_into_view_if_needed()
    shot(page, f"night-desk-archive-{size}", full_page=False)
    page.goto(f"{live_server.url}/manage/seasons/{night.season_id}/nights/")
    page.get_by_role("button", name=f"Archive the night of {label}").click()
    flash = page.locator(".messages li")
    expect(flash).to_contain_text(f"Night of {label} archived: nothing was deleted.")
    expect(page.get_by_role("button", name=f"Archive the night of {label}")).to_have_count(0)
    assert_accessible(page)
    shot(page, f"undo-flash-{size}", full_page=False)
    assert Night.objects.get(pk=night.pk).archived_at is not None

    flash.get_by_role("button", name="Undo").click()
    expect(page.locator(".messages li")).to_contain_text(f"Night of {label} restored, as it was.")
    expect(page.get_by_role("button", name=f"Archive the night of {label}")).to_have_count(1)
    assert Night.objects.get(pk=night.pk).archived_at is None

    page.goto(f"{live_server.url}/manage/leagues/{season.league_id}/")
    assert_accessible(page)
    shot(page, f"league-seasons-{size}")
    page.get_by_role("button", name=f"Archive season {season.name}").click()
    expect(page.locator(".messages li")).to_contain_text(f"Season {season.name} archived")
    page.get_by_role("link", name="Archived", exact=True).click()
    expect(page.locator("h1")).to_have_text("Archived")
    expect(page.locator(".archived-list li")).to_contain_text(season.name)
    assert_accessible(page)
    shot(page, f"archived-list-{size}")
    page.get_by_role("button", name=f"Restore {season.name}").click()
    expect(page.locator(".messages li")).to_contain_text(f"Season {season.name} restored")
    expect(page.locator(".archived-list")).to_have_count(0)
    assert Season.objects.get(pk=season.pk).archived_at is None
