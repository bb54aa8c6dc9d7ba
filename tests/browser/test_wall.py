"""The wall on a TV: a real Chromium at 1920×1080 and 3840×2160 against ``live_server``, as a
kiosk (no login, nothing pressed). A night of twelve players is published and round 1 started
(one table finished, two playing with no hand yet); a team season's playoff bracket is published.
Each screen: no scrollbar (the document is the viewport's size), no axe-core violation of any
impact, the seating first with every name at least 28 px tall on a 1080p screen (56 px on 4K),
then the paging reaches the standings (Playwright waits for the panel to change, no sleeps), and
the bracket panel draws the bracket across the screen. Screenshots of each panel are saved."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from league.models import Night, Season
from scoring.games import services as scoring_services
from scoring.games.models import Game
from scoring.standings.services.recompute import season_standings_recompute
from tests.api.test_brackets import make_teams, play_season
from tests.browser.conftest import CSP_REPORTER, axe_violations
from tests.factories import NightFactory, PlayerFactory, SeasonFactory
from tournaments.services import nights
from tournaments.services.brackets.create import bracket_create, bracket_publish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = [(1920, 1080), (3840, 2160)]
NAMES = [
    "Margaret Thompson", "Bea Lindqvist", "Cal Okafor", "Dorothy Vanderbilt", "Eve Ng",
    "Fay Castellanos", "Gus Whitaker", "Hal Brennan", "Ivy Marchetti", "Jo Abernathy",
    "Kate Oyelaran", "Lou Fitzgerald",
]  # fmt: skip
PAGING = 3
"""Seconds a panel stays (``?seconds=``): the test waits for the paging, not for 12 seconds."""


@pytest.fixture
def tv(chromium, live_server):
    """``tv(width, height)``: a page in a fresh context of that screen size, no account; every
    request stays on the live server and no Content-Security-Policy violation is allowed."""
    contexts, problems = [], []

    def make(width, height, **options):
        context = chromium.new_context(
            viewport={"width": width, "height": height}, device_scale_factor=1, **options
        )
        context.set_default_timeout(5000)
        context.add_init_script(CSP_REPORTER)
        context.on(
            "console",
            lambda message: (
                "Content Security Policy" in message.text and problems.append(message.text)
            ),
        )
        context.on(
            "request",
            lambda request: (
                not request.url.startswith(live_server.url)
                and problems.append(f"request to another host: {request.url}")
            ),
        )
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def rotation_night(league, organiser):
    season = SeasonFactory(
        league=league, name="Winter", format=Season.Format.INDIVIDUAL, rulebook__slug="standard"
    )
    night = NightFactory(season=season, venue="Rosie's")
    for name in NAMES:
        nights.night_check_in(
            night=night, user=organiser, player=PlayerFactory(league=league, name=name)
        )
    nights.night_plan(night=night, rounds=3, user=organiser)
    nights.night_publish(night=night, user=organiser)
    first, *_playing = nights.round_start(night=night, number=1, user=organiser)
    scoring_services.game_record_final_score(game=first, score_a=10, score_b=7)
    season_standings_recompute(season_id=season.pk)
    night.refresh_from_db()
    assert night.status == Night.Status.PLAYING
    return night


def assert_no_scrollbar(page, width, height):
    sizes = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight,"
        " window.innerWidth, window.innerHeight]"
    )
    assert sizes == [width, height, width, height]


def assert_readable(page, selector, height, count):
    """Every ``selector`` in the panel on show: in the screen and 28 px tall per 1080 lines."""
    boxes = page.evaluate(
        f"""Array.from(document.querySelectorAll(".wall-panel.is-shown {selector}")).map(e => {{
          const r = e.getBoundingClientRect();
          return [r.top, r.bottom, parseFloat(getComputedStyle(e).fontSize)];
        }})"""
    )
    assert len(boxes) == count
    least = 28 * height / 1080
    for top, bottom, size in boxes:
        assert size >= least and bottom - top >= least and top >= 0 and bottom <= height


def settle(page):
    """Wait for the panel's fade-in to end (its animations' own promise, not a sleep; one cut
    short by the paging or a refresh counts as ended)."""
    page.evaluate("Promise.all(document.getAnimations().map(a => a.finished.catch(() => null)))")


def snap(shot, page, name):
    settle(page)
    shot(page, name, full_page=False)


def assert_accessible(page):
    """No axe-core violation of any impact, once the panel's fade-in is over."""
    settle(page)
    violations = [
        (
            v["id"],
            [node["target"] for node in v["nodes"]][:3],
            v["nodes"][0].get("any", [{}])[0].get("message"),
        )
        for v in axe_violations(page)
    ]
    assert violations == []


def shown(page):
    return page.locator(".wall-panel.is-shown > h2")


@pytest.mark.parametrize(("width", "height"), SCREENS)
def test_the_wall_pages_from_the_seating_to_the_standings(
    tv, live_server, shot, rotation_night, width, height
):
    season = rotation_night.season
    page = tv(width, height)
    page.goto(f"{live_server.url}/l/{season.league.slug}/s/{season.pk}/wall/?seconds={PAGING}")
    expect(shown(page)).to_have_text("Now: Round 1")
    expect(page.locator(".wall-panel:visible")).to_have_count(1)
    assert page.locator(".wall-panel").evaluate_all("all => all.map(p => p.dataset.panel)") == [
        "now-1", "next-1", "live", "standings-1",
    ]  # fmt: skip
    assert_readable(page, ".wall-player", height, count=12)
    assert_no_scrollbar(page, width, height)
    snap(shot, page, f"seating-{width}")
    assert_accessible(page)
    assert page.locator("#round-clock").count() == 1  # the round clock's slot, empty for now

    expect(shown(page)).to_have_text("Next: Round 2", timeout=3 * PAGING * 1000)
    expect(shown(page)).to_have_text("Live scores", timeout=3 * PAGING * 1000)
    assert page.locator(".wall-panel.is-shown .wall-live li").count() == 2  # no hand yet
    snap(shot, page, f"live-{width}")
    expect(shown(page)).to_have_text("Standings", timeout=3 * PAGING * 1000)
    assert_readable(page, ".wall-player", height, count=4)  # the four who finished a game
    assert_no_scrollbar(page, width, height)
    snap(shot, page, f"standings-{width}")
    assert_accessible(page)


@pytest.mark.parametrize(("width", "height"), SCREENS)
def test_the_bracket_fills_the_screen(tv, live_server, shot, league, organiser, width, height):
    season = SeasonFactory(league=league, name="Spring", rulebook__slug="standard")
    teams = make_teams(season, 5)
    play_season(season, teams)
    season_standings_recompute(season_id=season.pk)
    bracket = bracket_create(
        season=season, user=organiser, kind="single", name="Spring playoffs", team_count=4
    )
    bracket_publish(bracket=bracket, user=organiser)
    page = tv(width, height)
    page.goto(f"{live_server.url}/l/{league.slug}/s/{season.pk}/wall/?seconds={PAGING}")
    expect(shown(page)).to_have_text("Now: Round 1")
    expect(page.locator(".wall-panel:visible")).to_have_count(1)  # the bracket waits its turn
    assert_readable(page, ".wall-teams span:not(.vs)", height, count=4)
    expect(shown(page)).to_have_text("Spring playoffs", timeout=4 * PAGING * 1000)
    box = page.locator(".wall-panel.is-shown .bracket-svg").first.bounding_box()
    # The drawing keeps its proportions: it fills the screen's width or the height left to it.
    assert box["width"] >= 0.95 * (width - 100) or box["height"] >= 0.7 * height
    assert_no_scrollbar(page, width, height)
    snap(shot, page, f"bracket-{width}")
    assert_accessible(page)


@pytest.mark.parametrize(("width", "height"), [(360, 640), (1280, 800)])
def test_without_javascript_the_panels_stand_one_under_the_other(
    tv, live_server, shot, rotation_night, width, height
):
    season = rotation_night.season
    address = f"{live_server.url}/l/{season.league.slug}/s/{season.pk}/wall/"
    page = tv(width, height, java_script_enabled=False)
    page.goto(address)
    titles = page.locator(".wall-panel > h2")
    assert titles.all_inner_texts() == ["Now: Round 1", "Next: Round 2", "Live scores", "Standings"]
    for title in titles.all():
        expect(title).to_be_visible()
    expect(page.locator(".wall-player").first).to_be_visible()
    shot(page, f"no-script-{width}")
    # With its script, a laptop pages through them as a TV does; a phone keeps them stacked.
    page = tv(width, height)
    page.goto(address)
    if width < 768:
        expect(page.locator(".wall-panel.is-shown")).to_have_count(0)
        expect(page.locator(".wall-panel").last).to_be_visible()
    else:
        expect(shown(page)).to_have_text("Now: Round 1")
    snap(shot, page, f"paging-{width}")
    assert_accessible(page)


def test_a_hand_posted_reaches_the_wall_by_itself(tv, live_server, rotation_night):
    """The panels poll their partial: a captain's hand shows on the panel on show, which stays."""
    season = rotation_night.season
    page = tv(1920, 1080)
    page.clock.install()  # its timers run as usual; the test moves them on past a poll's wait
    page.goto(f"{live_server.url}/l/{season.league.slug}/s/{season.pk}/wall/?seconds=300")
    score = page.locator('.wall-panel.is-shown [data-table="2"] .wall-score')
    expect(score).to_have_text("0–0")
    game = Game.objects.get(night=rotation_night, round_number=1, table_number=2)
    response = Client().post(
        f"/api/v1/games/{game.pk}/hands/",
        {"makers": "B", "tricks_won": 5, "number": 1},
        HTTP_X_CAPTAIN_TOKEN=game.captain_token,
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    page.clock.run_for(5_000)  # the panels' poll: every 5 s
    expect(score).to_have_text("0–2")
    expect(shown(page)).to_have_text("Now: Round 1")


def test_a_full_seating_panel_fits_a_1080p_screen(tv, live_server, shot, league, organiser):
    """Forty players: ten tables, shown eight then two (TABLES_PER_PANEL), every name in view."""
    season = SeasonFactory(
        league=league, format=Season.Format.INDIVIDUAL, rulebook__slug="standard"
    )
    night = NightFactory(season=season)
    for number in range(40):
        player = PlayerFactory(league=league, name=f"{NAMES[number % 12]} {chr(65 + number // 12)}")
        nights.night_check_in(night=night, user=organiser, player=player)
    nights.night_plan(night=night, rounds=2, user=organiser)
    nights.night_publish(night=night, user=organiser)
    nights.round_start(night=night, number=1, user=organiser)
    page = tv(1920, 1080)
    page.goto(f"{live_server.url}/l/{league.slug}/s/{season.pk}/wall/?seconds={PAGING}")
    expect(shown(page)).to_have_text("Now: Round 1 (1/2)")
    assert_readable(page, ".wall-player", 1080, count=32)
    assert_no_scrollbar(page, 1920, 1080)
    snap(shot, page, "eight-tables")
    expect(shown(page)).to_have_text("Now: Round 1 (2/2)", timeout=3 * PAGING * 1000)
    assert_readable(page, ".wall-player", 1080, count=8)
