"""The season at the night desk in a real Chromium: a second night of a season, one player ticked
to stay put at table 2; the plan avoids the first night's partnerships, the report shows the
season beside the night and what staying put costs; the page passes axe-core, on a phone and on
a laptop."""

import pytest

from league.models import Attendance, Season
from tests.browser.conftest import SCREENSHOTS, assert_accessible
from tests.browser.test_nights import logged_in
from tests.factories import NightFactory, PlayerFactory, SeasonFactory
from tournaments.domain.rotation_chart import PARTNER_SEATS
from tournaments.models import NightPlan, Seat
from tournaments.services import nights as services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"]
NAMES += ["Grace", "Hank", "Ivy", "Jack", "Kate", "Liam"]


def partnerships(night) -> set[frozenset[int]]:
    pairs = set()
    plan = NightPlan.objects.get(night=night)
    for round_ in plan.planned_rounds.prefetch_related("seats"):
        tables: dict[int, dict[int, int]] = {}
        for seat in round_.seats.all():
            if seat.table_number is not None:
                tables.setdefault(seat.table_number, {})[seat.seat] = seat.player_id
        for table in tables.values():
            pairs |= {frozenset((table[a], table[b])) for a, b in PARTNER_SEATS}
    return pairs


@pytest.fixture
def second_night(league, organiser):
    """A season whose first night (12 players, 3 rounds) was played; its second night has the
    same twelve checked in."""
    season = SeasonFactory(
        league=league, format=Season.Format.INDIVIDUAL, rulebook__slug="standard"
    )
    players = [PlayerFactory(league=league, name=name) for name in NAMES]
    first = NightFactory(season=season, venue="Rosie's")
    for player in players:
        Attendance.objects.create(night=first, player=player)
    services.night_plan(night=first, rounds=3, user=organiser, seed=3)
    services.night_publish(night=first, user=organiser)
    for number in (1, 2, 3):
        for game in services.round_start(night=first, number=number, user=organiser):
            game.status, game.score_a, game.score_b, game.winner = "finished", 10, 4, "A"
            game.save()
    services.night_finish(night=first, user=organiser)
    second = NightFactory(season=season, venue="Rosie's", date=first.date.replace(day=20))
    for player in players:
        Attendance.objects.create(night=second, player=player)
    return first, second, {player.name: player for player in players}


def test_a_second_night_with_a_player_who_stays_put(
    new_phone, live_server, organiser, second_night, shot
):
    first, second, players = second_night
    page = logged_in(new_phone, live_server, organiser)
    page.goto(f"{live_server.url}/manage/nights/{second.pk}/")
    page.locator("details.constraints summary").click()
    page.select_option("#fixed-table-1-player", str(players["Alice"].pk))
    page.fill("#fixed-table-1-table", "2")
    page.get_by_label("Stays put (same seat, never sits out)").first.check()
    page.fill("input[name=rounds]", "3")
    page.set_default_navigation_timeout(60_000)  # planning twice (with and without staying put)
    page.get_by_role("button", name="Generate").click(timeout=60_000)
    page.wait_for_selector("[data-season-report]")
    text = " ".join(page.locator("section.report").inner_text().split())
    assert "This season, with 1 earlier night" in text
    assert "no partnership repeats an earlier night's" in text
    assert "Alice stays put at table 2" in text
    assert "Keeping 1 player in place" in text
    assert not partnerships(second) & partnerships(first)
    seats = set(
        Seat.objects.filter(round__plan__night=second, player=players["Alice"]).values_list(
            "table_number", "seat"
        )
    )
    assert len(seats) == 1 and next(iter(seats))[0] == 2
    assert_accessible(page)
    shot(page, "phone")
    for part, selector in (("fixed-tables", "fieldset.fixed-tables"), ("report", "section.report")):
        page.locator(selector).screenshot(path=str(SCREENSHOTS / f"night-season-{part}-phone.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    assert_accessible(page)
    shot(page, "laptop")
    page.locator("section.report").screenshot(
        path=str(SCREENSHOTS / "night-season-report-laptop.png")
    )
