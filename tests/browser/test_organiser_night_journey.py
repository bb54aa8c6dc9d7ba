"""The organiser's night on one phone (issue 31, "Done when"), in a real Chromium at 360×640, as
an organiser with no superuser rights: create a league, paste 16 players, add a season with
weekly nights, check 13 in (one a walk-in typed into the search box), plan 5 rounds, publish,
print one tent per table, and score round 1 and round 2 of one table from the same table QR
link. Prints the journey's taps, typed fields, page loads and seconds."""

import re
import time

import pytest
from playwright.sync_api import expect

from league.models import Attendance, League, Night, Player
from scoring.games.models import Game
from tests.browser.conftest import ScoreCard, axe_violations
from tests.browser.test_nights import logged_in
from tests.captains import play_through_the_api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Ann Baker", "Bob Carter", "Cleo Diaz", "Dan Evans", "Eve Fox", "Finn Gale", "Gail Hart",
    "Hugo Ives", "Iris Jay", "Jack Kerr", "Kim Lowe", "Liam Moss", "Mia Nash", "Ned Ortiz",
    "Olga Penn", "Pat Quinn",
]  # fmt: skip


class Journey:
    """Counts what the organiser does: taps, fields typed into, page loads."""

    def __init__(self, page):
        self.page, self.taps, self.typed, self.loads = page, 0, 0, 0
        page.on("load", lambda: self.count_load())

    def count_load(self):
        self.loads += 1

    def tap(self, locator):
        locator.click()
        self.taps += 1

    def type(self, locator, text: str):
        locator.fill(text)
        self.typed += 1


def test_the_organisers_night_on_one_phone(django_user_model, new_phone, live_server, shot):
    organiser = django_user_model.objects.create_user("newcomer", password="not-used-here")
    assert not organiser.is_superuser and not organiser.is_staff
    page = logged_in(new_phone, live_server, organiser)
    page.goto(f"{live_server.url}/manage/")
    journey = Journey(page)
    started = time.monotonic()

    # A league, 16 players pasted.
    journey.tap(page.get_by_role("link", name="Create a league"))
    journey.type(page.get_by_label("Name"), "Thursday Euchre at the Fox")
    journey.tap(page.get_by_role("button", name="Create league"))
    league = League.objects.get(name="Thursday Euchre at the Fox")
    journey.tap(page.get_by_role("link", name="Roster").first)
    journey.type(page.get_by_label("Paste names, one a line"), "\n".join(NAMES))
    journey.tap(page.get_by_role("button", name="Add these players"))
    expect(page.locator("table.list tbody tr")).to_have_count(16)

    # A season with seven weekly nights.
    page.goto(f"{live_server.url}/manage/leagues/{league.pk}/")
    journey.tap(page.get_by_role("link", name="New season").first)
    journey.type(page.get_by_label("Name"), "Winter 2027")
    page.get_by_label("Format").select_option("individual")
    journey.taps += 1
    journey.tap(page.get_by_role("button", name="Create season"))
    season = league.seasons.get()
    journey.tap(page.get_by_role("link", name="Nights").first)
    journey.type(page.locator("#id_series-starts_on"), "2027-01-07")
    page.locator("#id_series-weekday").select_option(label="Thursday")
    journey.taps += 1
    journey.tap(page.get_by_role("button", name="Show the dates"))
    journey.tap(page.get_by_role("button", name="Plan these 7 nights"))
    assert Night.objects.filter(season=season).count() == 7
    night = Night.objects.filter(season=season).order_by("date").first()

    # Check 13 in at the night desk: 12 from the roster, one walk-in from the search box.
    journey.tap(page.get_by_role("link", name=re.compile(night.date.strftime("%a %-d %b %Y"))))
    expect(page.locator("[data-count]")).to_have_text("0")
    page.wait_for_load_state("load")
    before_check_in = (journey.taps, journey.loads, time.monotonic())
    for name in NAMES[:12]:
        journey.tap(page.get_by_role("button", name=f"Check in {name}"))
        expect(page.locator("#people li.here", has_text=name)).to_have_count(1)
    journey.type(page.get_by_label("Find a name, or add a walk-in"), "Wanda Walk-in")
    journey.tap(page.get_by_role("button", name="Check in", exact=True))
    expect(page.locator("[data-count]")).to_have_text("13")
    check_in = (
        journey.taps - before_check_in[0],
        journey.loads - before_check_in[1],
        time.monotonic() - before_check_in[2],
    )
    assert Attendance.objects.filter(night=night, left_at__isnull=True).count() == 13
    assert check_in[1] == 0  # no page load while checking in
    shot(page, "checked-in", full_page=False)

    # Plan 5 rounds, publish, print one tent per table.
    page.reload()  # (not counted: the plan form is already there after htmx refreshed it)
    journey.loads -= 1
    journey.type(page.locator("#rounds"), "5")
    journey.tap(page.get_by_role("button", name="Generate"))
    journey.tap(page.get_by_role("button", name="Publish"))
    expect(page.locator("#messages .flash")).to_have_text(
        "Published: players can see where they sit."
    )
    journey.tap(page.get_by_role("link", name="Print the table tents"))
    expect(page.locator("section.tent")).to_have_count(3)
    assert axe_violations(page) == []
    table_link = page.locator("section.tent .link").first.inner_text()
    page.go_back()
    journey.loads -= 1  # (back to the desk: the browser's own history)

    # Round 1 at table 1, scored from the table's QR link; the other tables finish too.
    journey.tap(page.get_by_role("button", name="Start round 1"))
    captain = new_phone().new_page()
    captain.goto(table_link)
    game = Game.objects.get(night=night, round_number=1, table_number=1)
    expect(captain).to_have_url(f"{live_server.url}/t/{game.captain_token}/")
    card = ScoreCard(captain, live_server.url, game)
    caller = Player.objects.get(pk=game.seat_0_id).name
    for _ in range(5):
        card.hand(caller, 5)
    game.refresh_from_db()
    assert (game.status, game.score_a, game.score_b) == ("finished", 10, 0)
    play_through_the_api(Game.objects.filter(night=night, round_number=1).exclude(pk=game.pk))

    # Round 2: the same table link opens round 2's game at table 1.
    page.reload()
    journey.loads -= 1
    journey.tap(page.get_by_role("button", name="Start round 2"))
    # The captain's phone, still on round 1's card, taps on to the table's next game.
    next_game = captain.get_by_role("link", name="Table 1's next game")
    next_game.scroll_into_view_if_needed()
    shot(captain, "round-1-over", full_page=False)
    next_game.click()
    second = Game.objects.get(night=night, round_number=2, table_number=1)
    expect(captain).to_have_url(f"{live_server.url}/t/{second.captain_token}/")
    card = ScoreCard(captain, live_server.url, second)
    caller = Player.objects.get(pk=second.seat_1_id).name
    for _ in range(5):
        card.hand(caller, 5)
    second.refresh_from_db()
    assert (second.status, second.score_a, second.score_b) == ("finished", 0, 10)
    seconds = time.monotonic() - started
    print(
        f"\njourney: {journey.taps} taps, {journey.typed} fields typed, {journey.loads} page loads,"
        f" {seconds:.1f} s (captains' taps not counted); check-in of 13: {check_in[0]} taps,"
        f" {check_in[1]} page loads, {check_in[2]:.1f} s"
    )
