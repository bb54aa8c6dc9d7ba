"""A game reopened after its winner moved on: the organiser sees the match to review on a phone,
keeps the result through the correction screen, and the reopened game is called off."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from scoring.games import services as scoring
from tests.api.test_brackets import make_teams, match_game
from tournaments.models import Bracket
from tournaments.services.brackets.create import bracket_create, bracket_publish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_organiser_reviews_a_reopened_game_and_keeps_the_result(
    new_phone, live_server, shot, make_season, organiser
):
    season = make_season("standard")
    teams = make_teams(season, 4)
    bracket = bracket_create(season=season, user=organiser, kind="single", name="Cup", teams=teams)
    bracket_publish(bracket=bracket, user=organiser)
    game = match_game(bracket.pk, "W1-1")
    for _ in range(5):
        scoring.hand_record(game=game, data=scoring.HandInput(makers="A", tricks_won=5))
    scoring.game_record_final_score(game=match_game(bracket.pk, "W1-2"), score_a=10, score_b=4)
    scoring.hand_undo(game=game, number=5, reason="entered twice")

    session = Client()
    session.force_login(organiser)
    phone = new_phone()
    phone.add_cookies(
        [{"name": "sessionid", "value": session.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = phone.new_page()
    page.goto(f"{live_server.url}/manage/brackets/{bracket.pk}/")
    expect(page.locator("#review")).to_have_text("Results to review")
    expect(page.locator(".review .review-reason")).to_have_text(
        "Game 1 of W1-1 was reopened (a hand undone): Team 1 no longer has the 1 win that "
        "decided it."
    )
    shot(page, "review")

    page.get_by_role("button", name="Keep Team 1's win…").click()
    expect(page.locator(".preview")).to_have_text(
        "Team 1 keeps W1-1: the result stands as it is; no later match changes. "
        "Its game still in play is called off."
    )
    page.get_by_label("Why does the result stand?").fill("the undo was a slip")
    shot(page, "confirm")
    page.get_by_role("button", name="Keep the result").click()

    expect(page.locator("h1")).to_have_text("Cup")
    expect(page.locator("#review")).to_have_count(0)
    shot(page, "kept")
    game.refresh_from_db()
    assert (game.status, game.void_reason) == ("voided", "not needed: Team 1 already won W1-1")
    assert Bracket.objects.get(pk=bracket.pk).matches.get(code="W1-1").needs_review is False
