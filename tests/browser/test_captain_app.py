"""The captain's page as a phone app, in a real Chromium at 360 x 640: scored with the keyboard
alone, installable (manifest, service worker), reloaded without a network and still taking hands,
light on a bar's Wi-Fi, and with its "Record hand" button in view after every hand."""

import json
import re
import time
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from scoring.games.models import Hand
from tests.browser.conftest import ScoreCard, wait_for_script
from tests.factories import TeamFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGE_WEIGHT_LIMIT = 60 * 1024
"""Bytes a captain's phone downloads on the first load of a score card, everything included."""


def stored_hands(game):
    return list(
        Hand.objects.filter(game=game, status=Hand.Status.ACTIVE)
        .order_by("number")
        .values_list("number", "points_a", "points_b")
    )


def focused(page) -> str:
    """What has the keyboard focus, in words: its role and label (read only)."""
    return page.evaluate(
        """() => {
        const el = document.activeElement;
        const label = el.labels && el.labels[0] ? el.labels[0].innerText : el.innerText;
        return (el.type || el.tagName.toLowerCase()) + ": " + label.replace(/\\s+/g, " ").trim();
    }"""
    )


def tab_to(page, start: str, limit: int = 25) -> str:
    """Press Tab until the focused control's description starts with ``start``."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if focused(page).startswith(start):
            return focused(page)
    raise AssertionError(f"Tab never reached {start!r}; last: {focused(page)}")


def test_a_hand_is_scored_with_the_keyboard_alone(table_game, card, shot):
    game = table_game("standard")
    page = card(game).page
    tab_to(page, "radio: Alice")
    page.keyboard.press("Space")  # Alice called
    tab_to(page, "radio: 0")
    for _ in range(3):
        page.keyboard.press("ArrowRight")  # arrows move through the radio group and choose
    assert focused(page) == "radio: 3"
    tab_to(page, "submit: Record hand 1")
    page.keyboard.press("Enter")
    expect(page.locator("[data-flash]")).to_have_text("Hand 1: Made it: A +1")
    assert stored_hands(game) == [(1, 1, 0)]

    # The next hand starts where the keyboard is: on the first caller, the form at the top.
    assert focused(page).startswith("radio: Alice")
    page.keyboard.press("ArrowRight")  # Bob
    tab_to(page, "checkbox: Caller went alone")
    page.keyboard.press("Space")
    tab_to(page, "radio: 0")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    tab_to(page, "submit: Record hand 2")
    page.keyboard.press("Enter")
    expect(page.locator("[data-flash]")).to_have_text("Hand 2: Loner marched! B +4")
    shot(page, "keyboard")
    assert stored_hands(game) == [(1, 1, 0), (2, 0, 4)]


def test_record_hand_stays_in_view_after_each_hand(make_game, make_season, page, live_server):
    """Long team names and a rulebook with the most toggles (lone defender) at 360 x 640: after
    each hand the page is back at the top, the result is announced, and the button is in view
    without a scroll."""
    season = make_season("csl")
    first = TeamFactory(season=season, name="Bowers of Power and Glory")
    second = TeamFactory(season=season, name="Stick the Dealer")
    game = make_game(
        season=season,
        team_a=first,
        team_b=second,
        seat_0=first.player_one,
        seat_2=first.player_two,
        seat_1=second.player_one,
        seat_3=second.player_two,
    )
    captain = ScoreCard(page, live_server.url, game)
    captain.open()
    record = page.locator("button.go")
    expect(record).to_be_in_viewport()
    caller = first.player_one.name
    for number in range(1, 4):
        record.scroll_into_view_if_needed()
        captain.hand(caller, 3, expect="Made it: A +1")
        expect(page.locator("#live")).to_contain_text(f"Hand {number}: Made it: A +1. Score:")
        expect(record).to_be_in_viewport()
        expect(page.locator(".board")).to_be_in_viewport()
        assert page.evaluate("window.scrollY") == 0


def kept(page, urls) -> bool:
    return page.evaluate(
        """async (urls) => {
        const cache = await caches.open("captain-v1");
        const found = await Promise.all(urls.map((url) => cache.match(url)));
        return found.every(Boolean);
    }""",
        urls,
    )


def kept_page(page) -> str:
    return page.evaluate(
        """async () => {
        const cache = await caches.open("captain-v1");
        const page = await cache.match(location.pathname);
        return page ? page.text() : "";
    }"""
    )


def kept_state(page) -> tuple[int | None, tuple[int, ...]]:
    """The kept page's next hand number and its two scores."""
    html = kept_page(page)
    number = re.search(r'name="number" value="(\d+)"', html)
    scores = re.findall(r'<b>(\d+)<span class="sr"> points', html)
    return (int(number[1]) if number else None, tuple(int(score) for score in scores))


def wait_until_kept(page, timeout: float = 10.0):
    """The service worker controls the page and keeps the page, its stylesheet and script."""
    wait_for_script(page, "navigator.serviceWorker.controller !== null", timeout)
    assets = page.evaluate(
        """() => Array.from(document.querySelectorAll("link[rel=stylesheet], script[src]"),
                            (el) => el.href || el.src)"""
    )
    urls = [urlsplit(page.url).path, *assets]
    deadline = time.monotonic() + timeout
    while not kept(page, urls):
        assert time.monotonic() < deadline, f"not kept by the service worker: {urls}"
        page.wait_for_timeout(100)


def test_the_page_reloads_offline_and_takes_hands_sent_once_back_online(
    table_game, card, phone, shot
):
    game = table_game("standard")
    captain = card(game)
    page = captain.page
    wait_until_kept(page)

    phone.set_offline(True)
    response = page.reload()
    assert response.from_service_worker
    expect(page.locator("form.hand")).to_be_visible()
    ink = page.locator("button.go").evaluate("el => getComputedStyle(el).backgroundColor")
    assert ink == "rgb(27, 27, 27)"  # the stylesheet came from the worker's cache too
    captain.caller("Alice")
    captain.tricks(5)
    captain.record()
    expect(page.locator("#pending")).to_contain_text("Waiting to send: 1 hand (hand 1)")
    captain.caller("Bob")
    captain.tricks(3)
    captain.record()
    expect(page.locator("#pending")).to_contain_text("Waiting to send: 2 hands (hand 1, 2)")
    shot(page, "offline-two-waiting")
    assert stored_hands(game) == []

    phone.set_offline(False)
    expect(page.locator("#pending")).to_be_hidden(timeout=15000)
    expect(page.locator("[data-flash]")).to_have_text("Hand 2: Made it: B +1")
    assert stored_hands(game) == [(1, 2, 0), (2, 0, 1)]
    assert Hand.objects.filter(game=game).count() == 2  # each sent once, nothing twice

    # The kept page is refreshed after each hand: a reload offline shows the new score. (Wait
    # for the keep after hand 2: on SQLite a page fetched while hand 2 commits may show hand 3
    # next beside the score before it, as its reads share no snapshot there; the next keep,
    # fetched after hand 2's answer, replaces it.)
    deadline = time.monotonic() + 10
    while kept_state(page) != (3, (2, 1)):
        assert time.monotonic() < deadline, "the kept page was not refreshed"
        page.wait_for_timeout(100)
    phone.set_offline(True)
    page.reload()
    expect(page.locator(".status")).to_have_text("Hand 3 · Carol deals · Game to 10")
    assert captain.score() == (2, 1)


def test_the_score_card_is_an_installable_app(table_game, card, live_server):
    game = table_game("standard")
    page = card(game).page
    href = page.locator("link[rel=manifest]").get_attribute("href")
    response = page.request.get(live_server.url + href)
    assert response.headers["content-type"] == "application/manifest+json"
    manifest = json.loads(response.text())
    assert manifest["start_url"] == f"/t/{game.captain_token}/"
    assert manifest["display"] == "standalone"
    assert {icon["type"] for icon in manifest["icons"]} == {"image/svg+xml", "image/png"}
    for icon in manifest["icons"]:
        assert page.request.get(live_server.url + icon["src"]).ok, icon
    worker = page.request.get(f"{live_server.url}/t/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    assert page.evaluate(
        "navigator.serviceWorker.ready.then((registration) => registration.scope)"
    ) == (f"{live_server.url}/t/")


def test_the_first_load_is_light_and_stays_on_this_server(table_game, new_phone, live_server):
    """Everything a phone downloads on its first visit (the page, its stylesheet and script, the
    service worker and what it keeps), counted body by body."""
    game = table_game("standard")
    context = new_phone()
    responses = []
    context.on("response", lambda response: responses.append(response))
    page = context.new_page()
    ScoreCard(page, live_server.url, game).open()
    wait_until_kept(page)
    page.wait_for_load_state("networkidle")
    sizes = {}
    for response in responses:
        # A request the service worker makes (to keep the page) has no body for Playwright to
        # read; its size comes from the network layer. A copy from the HTTP cache counts 0.
        size = max(len(response.body()), response.request.sizes()["responseBodySize"], 0)
        sizes[response.url] = sizes.get(response.url, 0) + size
    total = sum(sizes.values())
    print(f"first load: {total} bytes in {len(responses)} responses: {sizes}")
    assert total <= PAGE_WEIGHT_LIMIT, sizes
    host = urlsplit(live_server.url).netloc
    assert {urlsplit(response.url).netloc for response in responses} == {host}
