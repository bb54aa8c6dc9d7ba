"""Pools, Swiss rounds and a season schedule in a real Chromium at a phone viewport: the organiser
builds the schedule on its form, a captain finishes a pool game on the score card, and the public
pages show the pools, their tables, the knockout filled by itself and the schedule."""

import contextlib

import pytest
from django.test import Client
from playwright.sync_api import expect

from league.models import Night
from tests.api.test_brackets import match_game
from tests.api.test_brackets_formats import POOL_RESULTS, finish_by
from tests.browser.test_brackets import win_on_the_score_card
from tests.factories import TeamFactory
from tournaments.models import Bracket
from tournaments.services.brackets.create import bracket_create, bracket_publish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PARTNERS = [
    ("Ann", "Bea"),
    ("Cy", "Dot"),
    ("Eli", "Fox"),
    ("Gus", "Hal"),
    ("Ivy", "Jo"),
    ("Kit", "Lu"),
]


def committed(execute=True):
    """A transactional test commits for real: on-commit callbacks run by themselves."""
    return contextlib.nullcontext()


def signed_in_phone(new_phone, live_server, organiser):
    session = Client()
    session.force_login(organiser)
    phone = new_phone()
    phone.add_cookies(
        [{"name": "sessionid", "value": session.cookies["sessionid"].value, "url": live_server.url}]
    )
    return phone


def test_pools_fill_the_knockout_and_the_schedule_is_built_on_its_form(
    new_phone, live_server, shot, make_season, organiser
):
    season = make_season("standard")
    teams = [
        TeamFactory(season=season, name=f"Team {n}", player_one__name=a, player_two__name=b)
        for n, (a, b) in enumerate(PARTNERS, start=1)
    ]
    phone = signed_in_phone(new_phone, live_server, organiser)
    page = phone.new_page()

    for date in ("2026-01-06", "2026-01-13", "2026-01-20"):  # planned on the nights page
        Night.objects.create(season=season, date=date)
    page.goto(f"{live_server.url}/manage/seasons/{season.pk}/schedule/")
    expect(page.get_by_role("checkbox", checked=True)).to_have_count(3)
    page.get_by_label("Twice (home and away)").check()
    page.get_by_label("Rounds a night, at most").fill("4")
    shot(page, "schedule-form")
    page.get_by_role("button", name="Create the games").click()
    expect(page.locator(".schedule-night")).to_have_count(3)
    expect(page.locator(".schedule-round li")).to_have_count(30)
    shot(page, "schedule-organiser")
    public = phone.new_page()
    public.goto(f"{live_server.url}/seasons/{season.pk}/schedule/")
    expect(public.locator("h1")).to_have_text("Schedule")
    shot(public, "schedule-public", full_page=False)

    bracket = bracket_create(
        season=season,
        user=organiser,
        kind="pools",
        teams=teams,
        name="Pools and playoffs",
        pool_count=2,
        advancing_per_pool=2,
    )
    bracket_publish(bracket=bracket, user=organiser)
    public.goto(f"{live_server.url}/brackets/{bracket.pk}/")
    expect(public.locator("g.match.ready")).to_have_count(6)
    shot(public, "pools-start")

    for code, first, second in POOL_RESULTS[:-1]:
        finish_by(match_game(bracket.pk, code), first, second, committed)
    last = match_game(bracket.pk, "B3-1")  # Team 6 v Team 2, Team 2 wins on the score card
    card = phone.new_page()
    win_on_the_score_card(card, live_server.url, last, "Cy")

    public.reload()
    expect(public.locator('g.match[data-code="W1-1"]')).to_have_class("match ready")
    expect(public.locator("table.standings-mini tr.through")).to_have_count(4)
    expect(public.locator("#part-knockout")).to_have_text("Knockout")
    shot(public, "pools-finished")
    assert Bracket.objects.get().status == "published"
