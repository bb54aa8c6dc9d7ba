"""A round's 20-minute clock in real Chromium: the organiser starts it from the night desk on a
phone (360×640, htmx, the rulebook's 20 minutes offered: "to 10 points or 20 minutes"); two
table cards on two phones (two browser contexts, one of them with its own clock seven minutes
fast), the wall at 1920×1080 and the players' night page each show the time left within a
second of the server's, computed from the database's start and length at the moment of reading.
The clock is then set near its end (its start moved back, as a factory would write it): a card
counts down to "Time!" by itself, says so to a screen reader, and its captain records the last
hand with "time was called", which ends the game. axe-core finds nothing of any impact on the
desk, the card, the night page and the wall with the clock; screenshots of each are saved."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from league.models import Season
from scoring.games.models import Game, Hand
from tests.browser.conftest import CSP_REPORTER, ScoreCard, axe_violations, wait_for_script
from tests.browser.test_nights import logged_in
from tests.factories import NightFactory, PlayerFactory, SeasonFactory
from tournaments.models import RoundClock
from tournaments.services import nights
from tournaments.services.tables import night_table_cards

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Hank"]
TOLERANCE = 1
"""Seconds a display may differ from the server's time left (the issue's "within a second")."""


BELIEVED = """(() => {
  const clock = document.querySelector("[data-round-clock][data-offset]");
  return clock ? (Number(clock.dataset.endsAt) - (Date.now() + Number(clock.dataset.offset))) / 1000
    : null;
})()"""
"""The seconds left the page believes now: the clock's end less the server's time as the page
reckons it (its own clock plus the offset it measured)."""


def shown_seconds(page) -> int:
    """The time left a page shows, in seconds ("Time!" is 0)."""
    text = page.locator("[data-round-clock-time]").inner_text().strip()
    if text == "Time!":
        return 0
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


def server_seconds(clock: RoundClock) -> float:
    """The server's time left now, from the database's start and length."""
    ends = clock.started_at + timedelta(minutes=clock.minutes)
    return (ends - timezone.now()).total_seconds()


def agrees(page, clock: RoundClock) -> float:
    """Check that the page's time left agrees with the server's within a second, and that it
    shows it (mm:ss, whole seconds rounded up, redrawn 5 times a second); the difference."""
    clock.refresh_from_db()
    believed = page.evaluate(BELIEVED)
    expected = server_seconds(clock)
    assert believed is not None, page.url
    assert abs(believed - expected) <= TOLERANCE, (page.url, believed, expected)
    shown = shown_seconds(page)
    assert expected - TOLERANCE <= shown <= expected + TOLERANCE + 1, (page.url, shown, expected)
    return believed - expected


@pytest.fixture
def night(league, organiser):
    """A night of 8 whose season plays "to 10 points or 20 minutes"; round 1 started."""
    season = SeasonFactory(
        league=league, name="Winter", format=Season.Format.INDIVIDUAL, rulebook__slug="standard"
    )
    season.rulebook.options = {**season.rulebook.options, "time_limit_minutes": 20}
    season.rulebook.save()
    night = NightFactory(season=season, venue="Rosie's")
    for name in NAMES:
        nights.night_check_in(
            night=night, user=organiser, player=PlayerFactory(league=league, name=name)
        )
    nights.night_plan(night=night, rounds=3, user=organiser)
    nights.night_publish(night=night, user=organiser)
    nights.round_start(night=night, number=1, user=organiser)
    return night


def test_a_20_minute_round_clock_on_two_phones_and_the_wall(
    organiser, night, chromium, new_phone, live_server, shot
):
    base = live_server.url
    desk = logged_in(new_phone, live_server, organiser)
    desk.goto(f"{base}/manage/nights/{night.pk}/")
    start = desk.get_by_role("button", name="Start the clock")
    expect(desk.get_by_label("Round clock, minutes")).to_have_value("20")  # the rulebook's
    start.scroll_into_view_if_needed()
    shot(desk, "desk-start", full_page=False)
    assert axe_violations(desk) == []
    desk.evaluate("window.stillTheSamePage = true")
    start.click()
    expect(desk.locator("#tables .flash")).to_have_text(
        "The clock of round 1 is running: 20 minutes."
    )
    assert desk.evaluate("window.stillTheSamePage === true")  # htmx swapped the tables part
    clock = RoundClock.objects.get(night=night, round_number=1)
    assert (clock.minutes, clock.stopped_at) == (20, None)
    expect(desk.locator("#tables [data-round-clock-time]")).to_have_attribute("role", "timer")
    agrees(desk, clock)
    shot(desk, "desk-running", full_page=False)
    assert axe_violations(desk) == []

    # Two table cards on two phones; the second phone's own clock is 7 minutes fast.
    cards = night_table_cards(night=night, user=organiser)
    links = [f"{base}/tables/{card.token}/" for card in cards]
    first = new_phone().new_page()
    fast = new_phone()
    fast.clock.install(time=timezone.now() + timedelta(minutes=7))
    second = fast.new_page()
    for page, link in ((first, links[0]), (second, links[1])):
        page.goto(link)  # the table card opens the captain's card of the table's game
        expect(page.locator("[data-round-clock]")).to_be_visible()
        wait_for_script(page, "document.readyState === 'complete'")
    assert second.evaluate("Date.now()") - first.evaluate("Date.now()") > 6 * 60 * 1000
    expect(first.locator(".round-clock-label")).to_contain_text("Round 1")
    shot(first, "card-clock", full_page=False)
    assert axe_violations(first) == []

    # The wall on a TV: its clock slot reads the clock on arrival (the wall's page is cached).
    tv = chromium.new_context(viewport={"width": 1920, "height": 1080}, device_scale_factor=1)
    tv.add_init_script(CSP_REPORTER)
    problems = []
    tv.on("console", lambda m: "Content Security Policy" in m.text and problems.append(m.text))
    wall = tv.new_page()
    season = night.season
    wall.goto(f"{base}/l/{season.league.slug}/s/{season.pk}/wall/")
    expect(wall.locator("#round-clock [data-round-clock-time]")).to_be_visible()

    # All of them agree with the server within a second, twice, a few seconds apart (no drift).
    readings, shown = [], []
    for _turn in range(2):
        for page in (first, second, wall, desk):
            readings.append(agrees(page, clock))
            shown.append(shown_seconds(page))
        first.wait_for_timeout(2500)  # let the clocks run: each must keep up by itself
    print(f"\npage minus server, seconds: {[round(diff, 3) for diff in readings]}")
    assert shown[-1] < shown[0]  # they count down
    shot(wall, "wall-clock", full_page=False)
    assert axe_violations(wall) == []
    assert not problems, problems
    tv.close()

    # The players' night page ("find my seat") shows the night's clock too.
    players = first.context.new_page()
    players.goto(f"{base}/nights/{night.pk}/")
    expect(players.locator("[data-round-clock-time]")).to_be_visible()
    agrees(players, clock)
    assert axe_violations(players) == []
    players.close()

    # Near the end (its start moved back, as a factory would write it): the card re-reads the
    # clock, counts down to "Time!" by itself and says so once.
    RoundClock.objects.filter(pk=clock.pk).update(
        started_at=timezone.now() - timedelta(minutes=20) + timedelta(seconds=3)
    )
    first.reload()
    wait_for_script(first, "document.readyState === 'complete'")
    assert 0 < shown_seconds(first) <= 4
    expect(first.locator("[data-round-clock-time]")).to_have_text("Time!", timeout=6000)
    expect(first.locator("[data-round-clock-say]")).to_have_text("Time! Round 1 is over.")
    expect(first.locator("[data-round-clock]")).to_have_class("round-clock is-over")
    shot(first, "card-time", full_page=False)
    assert axe_violations(first) == []

    # The captain records the hand being played as the last: time was called.
    game = Game.objects.get(captain_token=first.url.rstrip("/").rsplit("/", 1)[-1])
    card = ScoreCard(first, base, game)
    card.caller(game.seat_0.name)
    first.locator(".toggles.time label", has_text="Time was called").click()
    card.tricks(3)
    card.record()
    expect(first.locator("[data-flash]")).to_contain_text("Hand 1")
    game.refresh_from_db()
    hand = Hand.objects.get(game=game, number=1)
    assert hand.time_called and (game.status, game.score_a, game.score_b) == ("finished", 1, 0)
    expect(first.locator("#card .board")).to_contain_text("Time called:")
    expect(first.locator("#card .board")).to_contain_text("won, 1–0")
    shot(first, "card-time-called", full_page=False)
