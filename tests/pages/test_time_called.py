"""Time called on the pages: the captain's card offers "Time was called" only under a timed
rulebook and says what time made of the game (won, a draw, or tied and playing on), a correction
can take it back, and the organiser chooses the time options in the season's rules editor."""

import re
from html import unescape

import pytest
from django.urls import reverse

from league.domain.rules import PRESETS
from league.forms import OPTION_LABELS
from league.models import Season
from scoring.games.models import Game, Hand
from tests.factories import TeamFactory, team_game
from tests.pages.test_captain import card_url, form_fields, post_hand, text

pytestmark = pytest.mark.django_db

DRAW_AT_TIME = {**PRESETS["points-or-time"].rulebook.to_options(), "tie_at_time": "draw"}
CHECKBOX = 'name="time_called"'


def status_line(html: str) -> str:
    found = re.search(r'<p class="status[^"]*">(.*?)</p>', html, re.S)
    return unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


def test_the_checkbox_is_offered_only_under_a_timed_rulebook(client, make_game):
    assert CHECKBOX not in text(client.get(card_url(make_game("standard"))))
    assert CHECKBOX not in text(client.get(card_url(make_game("progressive"))))
    timed = text(client.get(card_url(make_game("points-or-time"))))
    assert CHECKBOX in timed and "Time was called" in timed
    assert "Game to 13 or 20 minutes, whichever first" in timed


def test_time_called_ends_the_game_and_the_card_says_who_won(client, make_game):
    game = make_game("points-or-time")
    post_hand(client, game, caller_seat=0, tricks_won=5)  # A +2
    response = post_hand(client, game, caller_seat=1, tricks_won=3, time_called="on")  # B +1
    assert response.status_code == 303
    game.refresh_from_db()
    assert (game.status, game.winner, game.time_called) == ("finished", "A", True)
    html = text(client.get(card_url(game)))
    side_a = game.side_name("A")
    assert status_line(html).startswith(f"Time called: {side_a} won, 2–1")
    assert CHECKBOX not in html  # the game is over: no hand form
    assert "dealt · 2–1 · time called" in html  # the hand time was called on


def test_a_tie_at_time_plays_on_then_the_next_hand_decides(client, make_game):
    game = make_game("timed")
    post_hand(client, game, caller_seat=0, tricks_won=3)
    post_hand(client, game, caller_seat=1, tricks_won=3, time_called="on")
    html = text(client.get(card_url(game)))
    assert "tied at time 1–1: the next hand decides" in status_line(html)
    assert "data-time-called" in html  # the offline projection starts from it
    again = post_hand(client, game, caller_seat=0, tricks_won=4, time_called="on")
    assert again.status_code == 400
    assert "Time was already called in this game" in text(again)
    assert Hand.objects.filter(game=game).count() == 2
    post_hand(client, game, caller_seat=0, tricks_won=5)
    game.refresh_from_db()
    assert (game.status, game.score_a, game.score_b, game.winner) == ("finished", 3, 1, "A")


def test_a_draw_at_time_on_the_card(client, make_season):
    season = make_season("points-or-time", rulebook__options=DRAW_AT_TIME)
    game = team_game(season, TeamFactory(season=season), TeamFactory(season=season))
    post_hand(client, game, caller_seat=0, tricks_won=3)
    post_hand(client, game, special="thrown_in", caller_seat=None, time_called="on")
    game.refresh_from_db()
    assert (game.status, game.score_a, game.score_b, game.winner) == ("finished", 1, 0, "A")
    other = team_game(season, TeamFactory(season=season), TeamFactory(season=season))
    post_hand(client, other, caller_seat=0, tricks_won=3)
    post_hand(client, other, caller_seat=1, tricks_won=4, time_called="on")
    other.refresh_from_db()
    assert (other.status, other.winner) == ("finished", "")
    assert status_line(text(client.get(card_url(other)))).startswith("Time called: a draw, 1–1")


def test_a_correction_on_the_card_takes_time_called_back(client, make_game):
    game = make_game("timed")
    post_hand(client, game, caller_seat=0, tricks_won=5)
    post_hand(client, game, caller_seat=1, tricks_won=3, time_called="on")
    form = text(client.get(f"{card_url(game)}hands/2/correct/"))
    assert re.search(r'name="time_called" checked', form)
    response = client.post(
        f"{card_url(game)}hands/2/correct/",
        {"caller": game.seat_1_id, "tricks_won": "3", "reason": "the clock was wrong"},
    )
    assert response.status_code == 303
    game.refresh_from_db()
    assert (game.status, game.winner, game.time_called) == ("in_progress", "", False)
    assert form_fields(text(client.get(card_url(game))))["number"] == "3"


def test_the_organiser_sets_a_time_limit_and_a_draw_at_time(organiser_client, make_season):
    season = make_season("standard")
    url = reverse("manage:season-rules", args=[season.pk])
    page = text(organiser_client.get(url))
    assert "Time limit (minutes; empty: none)" in page
    assert "a bracket game is never a draw" in page.lower()
    options = season.rulebook.options
    data = {
        name: ("on" if value is True else "" if value in (False, None) else value)
        for name, value in options.items()
        if name in OPTION_LABELS and value is not False
    }
    refused = organiser_client.post(url, {**data, "game_length": "time"})
    assert refused.status_code == 400
    assert "needs its time limit in minutes" in text(refused)
    too_long = organiser_client.post(url, {**data, "time_limit_minutes": "181"})
    assert too_long.status_code == 400
    assert Season.objects.get(pk=season.pk).rulebook_id == season.rulebook_id
    response = organiser_client.post(
        url, {**data, "game_length": "time", "time_limit_minutes": "25", "tie_at_time": "draw"}
    )
    assert response.status_code == 302, text(response)
    rules = Season.objects.get(pk=season.pk).rulebook.options
    assert (rules["game_length"], rules["time_limit_minutes"], rules["tie_at_time"]) == (
        "time",
        25,
        "draw",
    )
    assert Game.objects.count() == 0


def test_an_organiser_settles_a_dispute_by_taking_time_called_back(organiser_client, make_season):
    from scoring.games import services

    season = make_season("timed")
    game = team_game(season, TeamFactory(season=season), TeamFactory(season=season))
    services.hand_record(game=game, data=services.HandInput(makers="A", tricks_won=5))
    services.hand_record(
        game=game, data=services.HandInput(makers="B", tricks_won=3, time_called=True)
    )
    services.game_dispute(game=game, reason="time was not up")
    url = reverse("manage:game-settle", args=[game.pk])
    assert "Time was called on this hand" in text(organiser_client.get(url))
    response = organiser_client.post(
        url,
        {
            "decision": "correct",
            "reason": "the clock was stopped",
            "number": "2",
            "makers": "B",
            "tricks_won": "3",
        },
    )
    assert response.status_code == 302, text(response)
    game.refresh_from_db()
    assert (game.status, game.winner, game.time_called) == ("in_progress", "", False)
    hand = Hand.objects.get(game=game, number=2, status="active")
    assert (hand.time_called, hand.source) == (False, "organiser")
