"""A 4-team playoff seeded from a season's standings by the organiser's screens, played out on the
captains' score cards in a real Chromium at a phone viewport, with the champion on the public
bracket page."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.api.test_brackets import match_game, play_season
from tests.browser.conftest import ScoreCard
from tests.factories import TeamFactory
from tournaments.models import Bracket

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PARTNERS = [("Ann", "Bea"), ("Cy", "Dot"), ("Eli", "Fox"), ("Gus", "Hal"), ("Ivy", "Jo")]


def win_on_the_score_card(page, base_url, game, caller):
    """Three lone marches by ``caller``'s side: 12 points, game over."""
    captain = ScoreCard(page, base_url, game)
    captain.open()
    side = "A" if caller in (game.seat_0.name, game.seat_2.name) else "B"
    for _hand in range(3):
        captain.hand(caller, 5, alone=True, expect=f"Loner marched! {side} +4")
    expect(page.locator(".status")).to_contain_text("won the game, 12–0")
    return captain


def test_a_playoff_seeded_from_the_standings_is_played_on_score_cards(
    new_phone, live_server, shot, make_season, organiser
):
    season = make_season("standard")
    teams = [
        TeamFactory(
            season=season,
            name=f"Team {number}",
            player_one__name=first,
            player_two__name=second,
        )
        for number, (first, second) in enumerate(PARTNERS, start=1)
    ]
    play_season(season, teams)
    session = Client()
    session.force_login(organiser)
    phone = new_phone()
    phone.add_cookies(
        [{"name": "sessionid", "value": session.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = phone.new_page()

    page.goto(f"{live_server.url}/manage/brackets/new/?season={season.pk}")
    page.get_by_label("Name").fill("Spring playoffs")
    page.get_by_label("Third-place match").check()
    page.get_by_label("How many teams").fill("4")
    shot(page, "build")
    page.get_by_role("button", name="Build the draft").click()
    expect(page.locator(".cut-note")).to_contain_text(
        "The cut falls after 4th: Team 3 is in, Team 5 (5th) is out"
    )
    expect(page.locator("table.seeds tbody tr")).to_have_count(4)
    shot(page, "seeds")
    page.get_by_role("button", name="Publish: create the first games").click()
    expect(page.locator(".to-play li")).to_have_count(2)
    shot(page, "published")
    bracket = Bracket.objects.get()

    public = phone.new_page()
    public.goto(f"{live_server.url}/brackets/{bracket.pk}/")
    expect(public.locator("g.match.ready")).to_have_count(2)
    shot(public, "public-start")

    # Seeds: 1 Team 1, 2 Team 2, 3 Team 4, 4 Team 3 (see the standings of play_season).
    card = phone.new_page()
    win_on_the_score_card(card, live_server.url, match_game(bracket.pk, "W1-1"), "Ann")
    shot(card, "semi-final-over")
    win_on_the_score_card(card, live_server.url, match_game(bracket.pk, "W1-2"), "Gus")
    public.reload()
    expect(public.locator('g.match[data-code="W2-1"]')).to_have_class("match ready")
    shot(public, "final-ready")
    win_on_the_score_card(card, live_server.url, match_game(bracket.pk, "3P"), "Eli")
    final = match_game(bracket.pk, "W2-1")
    assert (final.team_a.name, final.team_b.name) == ("Team 1", "Team 4")
    win_on_the_score_card(card, live_server.url, final, "Gus")

    public.reload()
    expect(public.locator(".champion")).to_have_text("Champion: Team 4")
    expect(public.locator("table.placings tbody tr")).to_have_text(
        ["1Team 4", "2Team 1", "3Team 3", "4Team 2"]
    )
    shot(public, "champion")
    bracket.refresh_from_db()
    assert bracket.status == "finished"
