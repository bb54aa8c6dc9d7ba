"""A standing's full reason, opened with a tap, stays open when the live standings refresh
(htmx swaps the table in every 5 s while a game is played: without ``static/js/keep-open.js``
the reader's open reason snapped shut within 5 s)."""

import pytest

from tests.browser import test_accessibility
from tests.browser.conftest import wait_for_script

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

world = test_accessibility.world


def test_an_open_reason_stays_open_across_a_refresh(world, page, live_server):
    page.goto(f"{live_server.url}/l/{world['league'].slug}/s/{world['season'].pk}/")
    reasons = page.locator("#standings details.reason")
    assert reasons.count() >= 2
    reasons.nth(1).locator("summary").click()
    key = reasons.nth(1).get_attribute("data-key")
    wait_for_script(page, "window.htmx !== undefined")
    # The same request the poll sends; the swap replaces the whole table.
    page.evaluate("document.getElementById('standings').dataset.before = '1'")
    page.evaluate("htmx.ajax('GET', location.pathname, {target: '#standings', swap: 'outerHTML'})")
    wait_for_script(page, "document.getElementById('standings').dataset.before === undefined")
    opened = page.locator("#standings details.reason[open]")
    assert opened.count() == 1
    assert opened.first.get_attribute("data-key") == key
