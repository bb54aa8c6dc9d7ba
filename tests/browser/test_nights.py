"""A progressive night in a real Chromium: the organiser checks players in on a phone (a walk-in
typed in), generates and publishes a rotation, starts round 1, a latecomer arrives and the plan is
repaired, the captains finish their games (through the API with their table's token), round 2
starts and finishes; a player finds their seat on the players' page."""

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from league.models import Season
from scoring.games.models import Game
from tests.captains import play_through_the_api
from tests.factories import NightFactory, PlayerFactory, SeasonFactory
from tournaments.models import PlannedRound, Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace"]


def logged_in(new_phone, live_server, user):
    """A phone browser signed in as ``user`` (the session cookie of a test client login)."""
    client = Client()
    client.force_login(user)
    context = new_phone()
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return context.new_page()


def play_round_through_the_api(night, number):
    """Each table's captain records five marches for side A: 10–0 under standard rules."""
    games = list(Game.objects.filter(night=night, round_number=number).order_by("table_number"))
    play_through_the_api(games)
    assert [(game.score_a, game.score_b) for game in games] == [(10, 0)] * len(games)
    return games


def seats_of(night, number):
    return sorted(
        Seat.objects.filter(round__plan__night=night, round__number=number).values_list(
            "player_id", "table_number", "seat"
        )
    )


def test_a_night_with_a_late_arrival_to_the_end_of_round_two(
    organiser, league, new_phone, live_server, shot
):
    season = SeasonFactory(
        league=league, format=Season.Format.INDIVIDUAL, rulebook__slug="standard"
    )
    night = NightFactory(season=season, venue="Rosie's")
    for name in NAMES:
        PlayerFactory(league=league, name=name)
    desk_url = f"{live_server.url}/manage/nights/{night.pk}/"
    page = logged_in(new_phone, live_server, organiser)
    page.clock.install()  # its timers run as usual, and the test may move them on
    page.goto(desk_url)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Night of")
    shot(page, "empty")

    # Check-in: seven from the roster, one walk-in typed in.
    for name in NAMES:
        page.get_by_role("button", name=f"Check in {name}").click()
        expect(page.locator(".flash")).to_have_text(f"{name} is checked in.")
    page.get_by_label("Find a name, or add a walk-in").fill("Wanda Walk-in")
    page.get_by_role("button", name="Check in", exact=True).click()
    expect(page.locator(".flash")).to_have_text("Wanda Walk-in is checked in.")
    expect(page.locator(".check-in h2")).to_have_text("Check-in (8 here)")
    shot(page, "checked-in")

    # Plan three rounds and read the report.
    expect(page.locator("#rounds")).to_have_value("3")  # what fits an evening, not 7 (the cycle)
    page.locator("#rounds").fill("3")
    page.get_by_role("button", name="Generate").click()
    expect(page.locator("[data-report]")).to_have_text(
        "The best possible for 8 players over 3 rounds: partners at most once, opponents at "
        "most twice, byes within one."
    )
    expect(page.locator("#plan h2")).to_be_in_viewport()  # the report, below the check-in
    shot(page, "plan-report")
    page.get_by_role("button", name="Publish").click()
    expect(page.locator(".flash")).to_have_text("Published: players can see where they sit.")

    page.get_by_role("button", name="Start round 1").click()
    expect(page.locator(".flash")).to_have_text(
        "Round 1 has started: hand each table its captain link."
    )
    expect(page.locator(".table-card")).to_have_count(2)
    page.locator(".table-card details.captain summary").first.click()
    expect(page.locator(".table-card img").first).to_be_visible()
    shot(page, "round-1-playing")
    round_one = seats_of(night, 1)
    round_one_games = list(
        Game.objects.filter(round_number=1).values_list(
            "pk", "seat_0", "seat_1", "seat_2", "seat_3"
        )
    )

    # A latecomer arrives during round 1; the rest of the night is re-planned for nine.
    page.get_by_label("Find a name, or add a walk-in").fill("Larry Late")
    page.get_by_role("button", name="Check in", exact=True).click()
    expect(page.locator(".next .flash.error")).to_contain_text("repair the plan below")
    page.get_by_role("button", name="Re-plan for who is here").click()
    expect(page.locator(".flash")).to_have_text(
        "Re-planned the rounds not started; rounds already played are unchanged."
    )
    shot(page, "repaired")
    assert seats_of(night, 1) == round_one
    larry = Seat.objects.get(round__number=2, player__name="Larry Late")
    assert larry.table_number is not None  # he missed round 1, so he plays round 2

    # The captains finish round 1; the desk shows it, and round 2 starts as planned.
    play_round_through_the_api(night, 1)
    expect(page.locator("#desk-next")).to_contain_text("Starts once every table has finished")
    page.clock.run_for(10_000)  # the tables' poll: every 10 s; the "Next" part follows it
    expect(page.locator(".tables .ok-note")).to_have_text("Every table has finished round 1.")
    expect(page.locator("#desk-next")).not_to_contain_text("Starts once")
    page.get_by_role("button", name="Start round 2").click()
    expect(page.locator(".flash")).to_have_text(
        "Round 2 has started: hand each table its captain link."
    )
    for game in Game.objects.filter(round_number=2):
        planned = [
            player for player, table, _seat in seats_of(night, 2) if table == game.table_number
        ]
        assert sorted(game.seat_player_ids) == sorted(planned)
        ordered = list(
            Seat.objects.filter(round__number=2, table_number=game.table_number)
            .order_by("seat")
            .values_list("player_id", flat=True)
        )
        assert list(game.seat_player_ids) == ordered
    shot(page, "round-2-playing")

    play_round_through_the_api(night, 2)
    page.reload()
    page.get_by_role("button", name="Finish round 2").click()
    expect(page.locator(".flash")).to_have_text("Round 2 is finished.")
    expect(page.get_by_role("button", name="Start round 3")).to_be_visible()
    shot(page, "round-2-finished")
    assert list(PlannedRound.objects.filter(plan__night=night).values_list("number", "status")) == [
        (1, "finished"),
        (2, "finished"),
        (3, "planned"),
    ]
    assert (
        list(
            Game.objects.filter(round_number=1).values_list(
                "pk", "seat_0", "seat_1", "seat_2", "seat_3"
            )
        )
        == round_one_games
    )

    # A player looks up where they sit next.
    player_page = new_phone().new_page()
    player_page.goto(f"{live_server.url}/nights/{night.pk}/")
    player_page.get_by_label("Find my seat").fill("larry")
    player_page.get_by_role("button", name="Find").click()
    expect(player_page.locator("[data-next]")).to_contain_text("Round 3")
    expect(player_page.locator("table.schedule tbody tr")).to_have_count(2)
    shot(player_page, "find-my-seat")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_printables_on_paper(organiser, league, chromium, live_server, shot, paper):
    from tournaments.services import nights as services

    season = SeasonFactory(
        league=league, format=Season.Format.INDIVIDUAL, rulebook__slug="standard"
    )
    night = NightFactory(season=season)
    for name in [*NAMES, "Hank", "Ivy"]:
        services.night_check_in(night=night, user=organiser, name=name)
    services.night_plan(night=night, rounds=4, user=organiser)
    services.night_publish(night=night, user=organiser)
    services.round_start(night=night, number=1, user=organiser)

    width = {"a4": 794, "letter": 816}[paper]  # the paper's width in CSS pixels at 96 dpi
    context = chromium.new_context(viewport={"width": width, "height": 1100})
    client = Client()
    client.force_login(organiser)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    page.emulate_media(media="print")
    try:
        page.goto(f"{live_server.url}/nights/{night.pk}/print/chart/?paper={paper}")
        expect(page.locator(".round")).to_have_count(4)
        expect(page.locator("header.site")).to_be_hidden()
        shot(page, "chart")
        page.goto(f"{live_server.url}/nights/{night.pk}/print/cards/?paper={paper}")
        expect(page.locator(".score-card")).to_have_count(9)
        shot(page, "cards")
        page.goto(f"{live_server.url}/manage/nights/{night.pk}/rounds/1/tents/?paper={paper}")
        # Each of the two tables' tents: its own table's QR code; and the door's sign.
        expect(page.locator(".tent .qr svg")).to_have_count(2)
        expect(page.locator(".door-sign .qr svg")).to_have_count(1)
        shot(page, "tents")
        pdf = page.pdf(prefer_css_page_size=True)
        assert pdf.startswith(b"%PDF")
    finally:
        context.close()
