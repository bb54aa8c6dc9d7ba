"""One card per table for the whole night: ``/tables/<token>/`` opens whatever the table plays
now (round 1's game, then round 2's, after a repair or a re-plan the games as re-planned), says
"waiting for round N" in between; tents print one per table, once; per-player score cards
carry a QR code to that player's seats; per-game links keep working."""

import re

import pytest
from django.test import Client

from league.models import Player, Season
from scoring.games.models import Game
from tests.captains import play_through_the_api
from tests.factories import NightFactory, PlayerFactory, SeasonFactory, TeamFactory, team_game
from tests.pages.night_desk import flashes, post
from tournaments.models import Seat, TableCard

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bea", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal", "Ivy"]


@pytest.fixture
def roster(league):
    return [PlayerFactory(league=league, name=name) for name in NAMES]


def publish(organiser_client, night, players, rounds):
    for player in players:
        post(organiser_client, f"/manage/nights/{night.pk}/check-in/", {"player": player.pk})
    post(organiser_client, f"/manage/nights/{night.pk}/plan/", {"rounds": rounds})
    assert flashes(post(organiser_client, f"/manage/nights/{night.pk}/publish/")) == [
        "Published: players can see where they sit."
    ]


def tents(organiser_client, night) -> dict[int, str]:
    """Table number → the table card's path, read off the printed tents."""
    html = organiser_client.get(f"/manage/nights/{night.pk}/tents/").content.decode()
    found = re.findall(r'<p class="big">Table (\d+)</p>.*?/tables/([A-Za-z0-9_-]+)/', html, re.S)
    return {int(number): f"/tables/{token}/" for number, token in found}


def opens(path: str) -> str:
    """Where a phone that scans the card lands (no account, no cookie)."""
    response = Client().get(path)
    if response.status_code == 302:
        return response["Location"]
    assert response.status_code == 200
    return response.content.decode()


def game_at(night, round_number, table) -> Game:
    return Game.objects.get(night=night, round_number=round_number, table_number=table)


def seated(game) -> list[int]:
    return list(game.seat_player_ids)


def finish_round(night, number):
    """The round's games not over yet are played to 10–0 through the API."""
    games = Game.objects.filter(night=night, round_number=number)
    play_through_the_api(games.exclude(status=Game.Status.FINISHED))


def test_the_table_link_follows_the_rounds_a_repair_and_a_re_plan(organiser_client, night, roster):
    publish(organiser_client, night, roster[:8], 4)
    cards = tents(organiser_client, night)
    assert sorted(cards) == [1, 2]  # printed once, before round 1, one tent per table
    assert TableCard.objects.filter(night=night).count() == 2
    assert "Waiting for round 1:" in opens(cards[1])

    post(organiser_client, f"/manage/nights/{night.pk}/rounds/1/start/")
    round_one = game_at(night, 1, 1)
    assert opens(cards[1]) == f"/t/{round_one.captain_token}/"
    assert opens(cards[2]) == f"/t/{game_at(night, 1, 2).captain_token}/"

    # A player leaves during round 1 and the plan is repaired; a latecomer arrives, re-plan.
    leaver = Player.objects.get(pk=game_at(night, 1, 2).seat_player_ids[0])
    left = post(organiser_client, f"/manage/nights/{night.pk}/check-out/", {"player": leaver.pk})
    assert flashes(left) == [f"{leaver.name} has left. Repair the plan before the next round."]
    post(organiser_client, f"/manage/nights/{night.pk}/repair/")
    post(organiser_client, f"/manage/nights/{night.pk}/check-in/", {"name": "Ivy"})
    post(organiser_client, f"/manage/nights/{night.pk}/check-in/", {"name": "Jo Late"})
    replanned = post(organiser_client, f"/manage/nights/{night.pk}/repair/")
    assert flashes(replanned) == [
        "Re-planned the rounds not started; rounds already played are unchanged."
    ]
    # the same card still opens round 1's game while it is being played
    assert opens(cards[1]) == f"/t/{round_one.captain_token}/"

    finish_round(night, 1)
    waiting = opens(cards[1])
    assert "Waiting for round 2:" in waiting
    # round 1's own card, over, leads on to the table's card (the phone scanned the tent)
    over = Client().get(f"/t/{round_one.captain_token}/").content.decode()
    assert f'<a href="{cards[1]}">Table 1\'s next game</a>' in over
    assert "Last game here: 10–0. <a" in waiting and "(to confirm it)" in waiting
    planned = list(
        Seat.objects.filter(round__plan__night=night, round__number=2, table_number=1)
        .order_by("seat")
        .values_list("player__name", flat=True)
    )
    assert f"{planned[0]} &amp; {planned[2]}" in waiting  # who sits here next, as re-planned

    post(organiser_client, f"/manage/nights/{night.pk}/rounds/2/start/")
    for table in (1, 2):
        game = game_at(night, 2, table)
        assert opens(cards[table]) == f"/t/{game.captain_token}/"
        planned_ids = list(
            Seat.objects.filter(round__plan__night=night, round__number=2, table_number=table)
            .order_by("seat")
            .values_list("player_id", flat=True)
        )
        assert seated(game) == planned_ids
    names = {
        name
        for table in (1, 2)
        for name in Player.objects.filter(pk__in=seated(game_at(night, 2, table))).values_list(
            "name", flat=True
        )
    }
    assert leaver.name not in names
    assert "Jo Late" in names or Seat.objects.get(round__number=2, player__name="Jo Late").is_bye
    # the per-game link of round 1 keeps working
    assert Client().get(f"/t/{round_one.captain_token}/").status_code == 200
    # tents printed again are the same tents
    assert tents(organiser_client, night) == cards


def test_the_waiting_page_moves_on_by_itself_with_htmx(organiser_client, night, roster):
    publish(organiser_client, night, roster[:4], 2)
    card = tents(organiser_client, night)[1]
    page = Client().get(card)
    html = page.content.decode()
    assert 'hx-trigger="every 15s"' in html and page["Cache-Control"].startswith("max-age=0")
    post(organiser_client, f"/manage/nights/{night.pk}/rounds/1/start/")
    polled = Client().get(card, HTTP_HX_REQUEST="true")
    assert polled["HX-Redirect"] == f"/t/{game_at(night, 1, 1).captain_token}/"


def test_after_its_last_round_the_table_waits_for_nothing_and_says_the_score_is_confirmed(
    client, organiser_client, night, roster
):
    publish(organiser_client, night, roster[:4], 1)
    card = tents(organiser_client, night)[1]
    post(organiser_client, f"/manage/nights/{night.pk}/rounds/1/start/")
    finish_round(night, 1)
    game = game_at(night, 1, 1)
    waiting = opens(card)
    assert "Waiting for" not in waiting
    assert "No more games are planned at this table for now." in waiting
    assert "Last game here: 10–0. <a" in waiting and "(to confirm it)" in waiting

    client.post(f"/t/{game.captain_token}/confirm/")
    confirmed = opens(card)
    assert "Last game here: 10–0, confirmed. <a" in confirmed
    assert "to confirm it" not in confirmed


def test_a_wrong_table_link_is_a_guess_like_a_wrong_captain_link(
    client, organiser_client, night, roster, settings, one_minute
):
    settings.CAPTAIN_TOKEN_GUESSES_PER_MINUTE = "3/m"
    publish(organiser_client, night, roster[:4], 2)
    card = tents(organiser_client, night)[1]
    for _ in range(4):  # a right link is never counted
        assert client.get(card, REMOTE_ADDR=one_minute).status_code == 200
    for guess in range(3):
        wrong = client.get(f"/tables/guess-{guess}/", REMOTE_ADDR=one_minute)
        assert wrong.status_code == 404
        assert "This score-card link doesn't work" in wrong.content.decode()
    over = client.get("/t/guess-3/", REMOTE_ADDR=one_minute)  # the same budget as /t/ links
    assert over.status_code == 429 and 1 <= int(over["Retry-After"]) <= 60
    assert client.get("/tables/guess-4/", REMOTE_ADDR=one_minute).status_code == 429
    assert client.get(card, REMOTE_ADDR=one_minute).status_code == 200


def test_tents_are_the_organisers_and_cards_carry_each_players_seats(
    organiser_client, client, night, roster
):
    publish(organiser_client, night, roster[:5], 2)
    assert client.get(f"/manage/nights/{night.pk}/tents/").status_code == 302  # log in first
    assert not TableCard.objects.exists()
    cards = client.get(f"/nights/{night.pk}/print/cards/").content.decode()
    for player in roster[:5]:
        assert f'data-link="http://testserver/nights/{night.pk}/?name={player.name}"' in cards
    assert cards.count("<svg") == 5
    # Printed by the organiser, each card's QR code is the player's own link instead.
    own = organiser_client.get(f"/nights/{night.pk}/print/cards/").content.decode()
    for player in roster[:5]:
        assert f'data-link="http://testserver/me/{player.link_token}/"' in own
    found = client.get(f"/nights/{night.pk}/?name=Ann").content.decode()
    assert "data-next" in found


def test_a_team_nights_table_card_follows_its_schedule(organiser_client, league):
    """A team season's night: its scheduled games at a table, round by round."""
    season = SeasonFactory(league=league, format=Season.Format.TEAMS, rulebook__slug="standard")
    night = NightFactory(season=season)
    teams = [TeamFactory(season=season) for _ in range(4)]
    first = team_game(season, teams[0], teams[1], night=night)
    second = team_game(season, teams[0], teams[2], night=night)
    elsewhere = team_game(season, teams[2], teams[3], night=night)
    Game.objects.filter(pk=first.pk).update(round_number=1, table_number=1)
    Game.objects.filter(pk=second.pk).update(round_number=2, table_number=1)
    Game.objects.filter(pk=elsewhere.pk).update(round_number=1, table_number=2)
    desk = organiser_client.get(f"/manage/nights/{night.pk}/").content.decode()
    assert f"/manage/nights/{night.pk}/tents/" in desk
    cards = tents(organiser_client, night)
    assert sorted(cards) == [1, 2]
    assert opens(cards[1]) == f"/t/{first.captain_token}/"
    for hand in range(1, 6):
        response = Client().post(
            f"/api/v1/games/{first.pk}/hands/",
            {"makers": "A", "tricks_won": 5, "number": hand},
            HTTP_X_CAPTAIN_TOKEN=first.captain_token,
            content_type="application/json",
        )
        assert response.status_code == 201, response.content
    assert opens(cards[1]) == f"/t/{second.captain_token}/"
    assert opens(cards[2]) == f"/t/{elsewhere.captain_token}/"
