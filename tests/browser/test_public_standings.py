"""The public standings in a real Chromium at a phone viewport: a hand entered through the API
finishes a game, and the open page shows the new standings without a reload (htmx polling), then
stops polling."""

import datetime

import pytest
from playwright.sync_api import expect

from league.models import Night, Player, Team
from scoring.games import services
from tests.factories import SeasonFactory, team_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def lone_march(game, side):
    services.hand_record(
        game=game, data=services.HandInput(makers=side, caller_alone=True, tricks_won=5)
    )


def test_standings_update_while_the_page_is_open(page, live_server, organiser, shot):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    league = organiser.league_roles.get().league
    league.name, league.slug = "Tuesday at Rosie's", "rosies"
    league.save()
    season = SeasonFactory(league=league, name="Fall", rulebook__slug="standard")
    night = Night.objects.create(season=season, date=datetime.date(2026, 9, 8), status="playing")
    teams = [
        Team.objects.create(
            season=season,
            name=name,
            player_one=Player.objects.create(league=league, name=f"{name} one"),
            player_two=Player.objects.create(league=league, name=f"{name} two"),
        )
        for name in ("Aces", "Bowers", "Clubs")
    ]
    done = team_game(season, teams[1], teams[2], night)
    for _ in range(3):
        lone_march(done, "A")  # Bowers beat Clubs 12–0
    playing = team_game(season, teams[0], teams[1], night)
    lone_march(playing, "A")
    lone_march(playing, "A")  # Aces lead Bowers 8–0

    page.clock.install()  # its timers run as usual; the test moves them on past a poll's wait
    page.goto(f"{live_server.url}/l/rosies/s/{season.pk}/")
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Bowers")
    expect(page.locator("#standings")).to_have_attribute("hx-trigger", "every 5s")
    expect(page.locator(".games")).to_contain_text("Aces 8–0 Bowers")
    page.evaluate("window.notReloaded = true")
    shot(page, "before")

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=organiser).key}")
    response = client.post(
        f"/api/v1/games/{playing.pk}/hands/",
        {"makers": "A", "caller_alone": True, "tricks_won": 5},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["game"]["status"] == "finished"

    # The name links, not the rows: the old first row reads "Bowers, ahead of Aces on …".
    names = page.locator("#standings tbody tr td.who a")
    page.clock.run_for(5_000)  # the standings' poll: every 5 s
    expect(names).to_have_text(["Aces", "Bowers", "Clubs"])
    expect(page.locator("#standings tbody tr").nth(0)).to_contain_text("1–0")
    expect(page.locator("#standings tbody tr").nth(1)).to_contain_text("1–1")
    expect(page.locator(".games")).to_have_count(0)
    expect(page.locator("#standings")).not_to_have_attribute("hx-trigger", "every 5s")
    assert page.evaluate("window.notReloaded") is True
    assert page.locator("path.series").count() == 3
    shot(page, "after")
    shot(page, "after-screen", full_page=False)
