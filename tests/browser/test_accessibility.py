"""axe-core in a real Chromium on one page of every kind: the public pages, the captain's score
card in play and once the game is over, the organiser's workspace and the printables. None may
have a serious or critical violation (contrast, names of controls and links, landmarks, ...)."""

import pytest
from django.conf import settings
from django.test import Client

from league.models import Season
from scoring.games import services as scoring
from tests.api.test_brackets import play_season, seats
from tests.browser.conftest import ANY_IMPACT, ScoreCard, assert_accessible
from tests.factories import NightFactory, SeasonFactory, TeamFactory
from tournaments.services import brackets as bracket_services
from tournaments.services import nights as night_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEAMS = [
    ("Aces High", "Ann", "Bea"),
    ("Bowers of Power and Glory", "Cy", "Dot"),
    ("Clubs", "Eli", "Fox"),
    ("Stick the Dealer", "Gus", "Hal"),
    ("Left Bauers", "Ivy", "Jo"),
]


def march(game, side, *, alone=False):
    scoring.hand_record(
        game=game,
        data=scoring.HandInput(makers=side, caller_alone=alone, tricks_won=5),
    )


@pytest.fixture
def world(league, organiser):
    """A team season with standings, a night with a game in play and one over, a published
    bracket; and an individual season's night with a published rotation."""
    league.name, league.slug = "Tuesday at Rosie's", "rosies"
    league.save()
    season = SeasonFactory(league=league, name="Spring", rulebook__slug="standard")
    teams = [
        TeamFactory(season=season, name=name, player_one__name=one, player_two__name=two)
        for name, one, two in TEAMS
    ]
    play_season(season, teams)
    night = NightFactory(season=season, venue="Rosie's")
    playing = scoring.game_create(
        season=season,
        seats=seats(teams[0], teams[1]),
        team_a=teams[0],
        team_b=teams[1],
        night=night,
        table_number=1,
    )
    march(playing, "A")
    march(playing, "B")
    over = scoring.game_create(
        season=season,
        seats=seats(teams[3], teams[2]),
        team_a=teams[3],
        team_b=teams[2],
        night=night,
        table_number=2,
    )
    for _ in range(3):
        march(over, "A", alone=True)
    bracket = bracket_services.bracket_create(
        season=season,
        user=organiser,
        kind="single",
        name="Playoffs",
        team_count=4,
        confirm_unfinished=True,
    )
    bracket_services.bracket_publish(bracket=bracket, user=organiser)

    solo = SeasonFactory(
        league=league, name="Solo", format=Season.Format.INDIVIDUAL, rulebook__slug="standard"
    )
    solo_night = NightFactory(season=solo, venue="Rosie's")
    for name in ["Kim", "Lou", "Max", "Ned", "Oz", "Pat", "Quin", "Ray", "Sue"]:
        night_services.night_check_in(night=solo_night, user=organiser, name=name)
    night_services.night_plan(night=solo_night, rounds=3, user=organiser)
    night_services.night_publish(night=solo_night, user=organiser)
    night_services.round_start(night=solo_night, number=1, user=organiser)
    return {
        "league": league,
        "season": season,
        "team": teams[1],
        "player": teams[1].player_one,
        "night": night,
        "playing": playing,
        "over": over,
        "bracket": bracket,
        "solo": solo,
        "solo_night": solo_night,
    }


def signed_in(context, live_server, user):
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )


def check_all(page, base, paths):
    """Visit each page and collect its violations of any impact; fail with them all."""
    failures = []
    for path in paths:
        response = page.goto(base + path)
        assert response.status == 200, f"{path}: {response.status}"
        page.wait_for_load_state("load")
        try:
            assert_accessible(page, ANY_IMPACT)
        except AssertionError as error:
            failures.append(str(error))
    assert not failures, "\n\n".join(failures)


def test_public_pages(world, page, live_server):
    slug, season = world["league"].slug, world["season"]
    check_all(
        page,
        live_server.url,
        [
            "/",
            f"/l/{slug}/",
            f"/l/{slug}/s/{season.pk}/",
            f"/l/{slug}/players/{world['player'].pk}/",
            f"/l/{slug}/s/{season.pk}/teams/{world['team'].pk}/",
            f"/l/{slug}/s/{season.pk}/nights/{world['night'].pk}/",
            f"/nights/{world['solo_night'].pk}/",
            f"/brackets/{world['bracket'].pk}/",
            f"/l/{slug}/s/{season.pk}/wall/",
        ],
    )


def test_captain_pages(world, page, live_server):
    check_all(
        page,
        live_server.url,
        [f"/t/{world['playing'].captain_token}/", f"/t/{world['over'].captain_token}/"],
    )
    card = ScoreCard(page, live_server.url, world["playing"])
    card.open()
    card.hand("Ann", 3, expect="Made it: A +1")
    assert_accessible(page, ANY_IMPACT)
    page.locator("details.more summary", has_text="Renege?").click()
    assert_accessible(page, ANY_IMPACT)


def test_the_check_finds_what_it_looks_for(page, live_server):
    """The helper is not blind: an unlabelled image, a nameless button and pale text fail it."""
    page.goto(f"{live_server.url}/manage/login/")
    page.evaluate(
        """() => {
        const main = document.querySelector("main");
        main.insertAdjacentHTML("beforeend",
          '<img src="/static/none.png"><button></button><p class="faint">faint</p>');
        main.querySelector(".faint").style.color = "#ccc";
    }"""
    )
    with pytest.raises(AssertionError) as failure:
        assert_accessible(page)
    message = str(failure.value)
    assert "critical image-alt" in message
    assert "critical button-name" in message
    assert "serious color-contrast" in message


def test_workspace_pages(world, phone, live_server, organiser):
    signed_in(phone, live_server, organiser)
    league, season, solo = world["league"], world["season"], world["solo"]
    check_all(
        phone.new_page(),
        live_server.url,
        [
            "/manage/",
            f"/manage/leagues/{league.pk}/",
            f"/manage/seasons/{season.pk}/",
            f"/manage/seasons/{season.pk}/nights/",
            f"/manage/seasons/{season.pk}/teams/",
            f"/manage/leagues/{league.pk}/players/",
            f"/manage/players/{world['player'].pk}/",
            f"/manage/nights/{world['solo_night'].pk}/",
            "/manage/brackets/",
            f"/manage/brackets/{world['bracket'].pk}/",
            f"/manage/seasons/{solo.pk}/",
            "/manage/tokens/",
            f"/manage/brackets/new/?season={season.pk}",
            f"/manage/seasons/{season.pk}/schedule/",
            f"/manage/seasons/{season.pk}/rules/",
            f"/manage/leagues/{league.pk}/archived/",
            f"/manage/seasons/{solo.pk}/money/",
            f"/manage/seasons/{solo.pk}/money/ledger/",
            f"/manage/nights/{world['solo_night'].pk}/pot/",
            f"/manage/seasons/{solo.pk}/fairness/",
        ],
    )


def test_printables(world, phone, live_server, organiser):
    signed_in(phone, live_server, organiser)
    night = world["solo_night"]
    check_all(
        phone.new_page(),
        live_server.url,
        [
            f"/nights/{night.pk}/print/chart/",
            f"/nights/{night.pk}/print/cards/",
            f"/manage/nights/{night.pk}/rounds/1/tents/",
            f"/manage/nights/{night.pk}/tents/",
        ],
    )


def test_the_login_page(page, live_server):
    check_all(page, live_server.url, ["/manage/login/"])
