"""A bracket played on a night: the organiser picks the night when publishing it (one of the
bracket's season's, not archived), each game the bracket creates takes the lowest free table of
that night, and the night's table cards (``/tables/<token>/``) open the bracket's games as they
open a rotation's: round 1's game, then, once the captains have posted its hands and the next
match is ready, that match's game; a table with no ready match shows the waiting page. The tents
cover the bracket's largest round."""

import pytest
from django.test import Client

from league.models import Night
from scoring.games.models import Game
from tests.captains import play_through_the_api
from tests.factories import NightFactory
from tournaments.models import Bracket, BracketMatchGame

from .test_brackets import make_teams

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(make_season):
    return make_season("standard")


@pytest.fixture
def night(season):
    return NightFactory(season=season)


def draft(organiser_api, season, teams, **options) -> int:
    body = {"season": season.pk, "kind": "single", "teams": [team.pk for team in teams]}
    response = organiser_api.post("/api/v1/brackets/", {**body, **options}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def publish_on(organiser_api, bracket_id, night) -> dict:
    response = organiser_api.post(
        f"/api/v1/brackets/{bracket_id}/publish/", {"night": night.pk}, format="json"
    )
    assert response.status_code == 200, response.json()
    return response.json()


def table_links(organiser_api, night) -> dict[int, str]:
    """Table number → the card's path, as the organiser gets them to print."""
    response = organiser_api.get(f"/api/v1/nights/{night.pk}/table-cards/")
    assert response.status_code == 200, response.json()
    return {card["number"]: card["url"].removeprefix("http://testserver") for card in response.data}


def opens(path: str) -> str:
    """Where a phone that scans the card lands: a captain card's path, or "waiting"."""
    response = Client().get(path)
    if response.status_code == 302:
        return response["Location"]
    assert response.status_code == 200
    assert "data-waiting" in response.content.decode()
    return "waiting"


def game_of(bracket_id, code) -> Game:
    link = (
        BracketMatchGame.objects.filter(
            match__bracket_id=bracket_id,
            match__code=code,
            status=BracketMatchGame.Status.COUNTING,
        )
        .select_related("game")
        .order_by("-number")
        .first()
    )
    assert link is not None, f"{code} has no game"
    return link.game


def card_of(bracket_id, code) -> str:
    return f"/t/{game_of(bracket_id, code).captain_token}/"


def play_out(game: Game, winner: str, capture) -> None:
    """The table's captain posts five marches of ``winner``'s side (2 points each, to 10),
    through the API with the game's captain token; the on-commit advance runs."""
    with capture(execute=True):
        play_through_the_api([game], makers=winner)


def test_the_table_card_follows_a_single_elimination_played_on_a_night(
    organiser_api, season, night, django_capture_on_commit_callbacks
):
    teams = make_teams(season, 4)
    bracket_id = draft(organiser_api, season, teams)
    data = publish_on(organiser_api, bracket_id, night)
    assert data["night"] == night.pk
    cards = table_links(organiser_api, night)
    assert sorted(cards) == [1, 2]  # the largest round plays two games at once

    w11, w12 = game_of(bracket_id, "W1-1"), game_of(bracket_id, "W1-2")
    assert (w11.night_id, w11.table_number, w12.night_id, w12.table_number) == (
        night.pk,
        1,
        night.pk,
        2,
    )
    assert opens(cards[1]) == card_of(bracket_id, "W1-1")
    assert opens(cards[2]) == card_of(bracket_id, "W1-2")

    play_out(w11, "A", django_capture_on_commit_callbacks)  # Team 1 beats Team 4
    assert opens(cards[1]) == "waiting"  # the final waits for W1-2's winner
    assert opens(cards[2]) == card_of(bracket_id, "W1-2")

    play_out(w12, "B", django_capture_on_commit_callbacks)  # Team 3 beats Team 2
    final = game_of(bracket_id, "W2-1")
    assert (final.team_a_id, final.team_b_id) == (teams[0].pk, teams[2].pk)
    assert (final.night_id, final.table_number) == (night.pk, 1)  # the lowest free table
    assert opens(cards[1]) == card_of(bracket_id, "W2-1")
    assert opens(cards[2]) == "waiting"

    play_out(final, "A", django_capture_on_commit_callbacks)
    assert Bracket.objects.get(pk=bracket_id).status == Bracket.Status.FINISHED
    assert [opens(cards[1]), opens(cards[2])] == ["waiting", "waiting"]
    assert sorted(table_links(organiser_api, night)) == [1, 2]  # the same cards all night


def test_double_elimination_plays_the_winners_and_the_losers_matches_side_by_side(
    organiser_api, season, night, django_capture_on_commit_callbacks
):
    teams = make_teams(season, 4)
    bracket_id = draft(organiser_api, season, teams, kind="double")
    publish_on(organiser_api, bracket_id, night)
    cards = table_links(organiser_api, night)
    assert sorted(cards) == [1, 2]

    play_out(game_of(bracket_id, "W1-2"), "A", django_capture_on_commit_callbacks)
    assert opens(cards[2]) == "waiting"
    play_out(game_of(bracket_id, "W1-1"), "A", django_capture_on_commit_callbacks)
    # The winners' final and the losers' first match are ready together: one table each.
    winners, losers = game_of(bracket_id, "W2-1"), game_of(bracket_id, "L1-1")
    assert sorted([winners.table_number, losers.table_number]) == [1, 2]
    assert opens(cards[winners.table_number]) == card_of(bracket_id, "W2-1")
    assert opens(cards[losers.table_number]) == card_of(bracket_id, "L1-1")

    play_out(losers, "A", django_capture_on_commit_callbacks)
    assert opens(cards[losers.table_number]) == "waiting"  # L2-1 waits for W2-1's loser
    assert opens(cards[winners.table_number]) == card_of(bracket_id, "W2-1")


def test_a_bye_takes_no_table(organiser_api, season, night):
    teams = make_teams(season, 3)
    bracket_id = draft(organiser_api, season, teams)  # Team 1 has a bye in round 1
    publish_on(organiser_api, bracket_id, night)
    cards = table_links(organiser_api, night)
    assert sorted(cards) == [1]
    assert game_of(bracket_id, "W1-2").table_number == 1
    assert opens(cards[1]) == card_of(bracket_id, "W1-2")


def test_a_round_robin_queues_its_later_rounds_at_the_tables(
    organiser_api, season, night, django_capture_on_commit_callbacks
):
    teams = make_teams(season, 4)
    bracket_id = draft(organiser_api, season, teams, kind="round_robin")
    publish_on(organiser_api, bracket_id, night)
    cards = table_links(organiser_api, night)
    assert sorted(cards) == [1, 2]  # two games a round, though all six are ready
    games = Game.objects.filter(night=night)
    assert sorted(games.values_list("round_number", "table_number")) == [
        (1, 1),
        (1, 2),
        (2, 1),
        (2, 2),
        (3, 1),
        (3, 2),
    ]
    first = games.get(round_number=1, table_number=1)
    assert opens(cards[1]) == f"/t/{first.captain_token}/"
    play_out(first, "A", django_capture_on_commit_callbacks)
    second = games.get(round_number=2, table_number=1)
    assert opens(cards[1]) == f"/t/{second.captain_token}/"


def test_the_night_must_be_the_seasons_and_in_use(organiser_api, season, night, make_season):
    teams = make_teams(season, 4)
    bracket_id = draft(organiser_api, season, teams)
    other = NightFactory(season=make_season("standard"))
    archived = NightFactory(season=season)
    Night.objects.filter(pk=archived.pk).update(archived_at=night.created_at)
    for refused, message in (
        (other.pk, "Pick a night of this bracket's season."),
        (archived.pk, "is archived: restore it or pick another."),
        (99_999_999, "Pick a night of this bracket's season."),
    ):
        response = organiser_api.post(
            f"/api/v1/brackets/{bracket_id}/publish/", {"night": refused}, format="json"
        )
        assert response.status_code == 400, response.json()
        assert message in response.json()["message"]
        assert Bracket.objects.get(pk=bracket_id).status == Bracket.Status.DRAFT
        assert not Game.objects.exists()
    response = organiser_api.post(
        f"/api/v1/brackets/{bracket_id}/publish/", {"night": "tonight"}, format="json"
    )
    assert response.status_code == 400
    assert not Game.objects.exists()


def test_without_a_night_the_games_have_no_table(organiser_api, season):
    teams = make_teams(season, 4)
    bracket_id = draft(organiser_api, season, teams)
    response = organiser_api.post(f"/api/v1/brackets/{bracket_id}/publish/")
    assert response.status_code == 200, response.json()
    assert response.json()["night"] is None
    assert list(Game.objects.values_list("night_id", "table_number")) == [(None, None)] * 2


def test_a_best_of_three_match_stays_at_its_table(
    organiser_api, season, night, django_capture_on_commit_callbacks
):
    teams = make_teams(season, 4)
    bracket_id = draft(organiser_api, season, teams, best_of=3)
    publish_on(organiser_api, bracket_id, night)
    cards = table_links(organiser_api, night)
    for _ in range(2):  # Team 1 takes W1-1 in two games at table 1
        game = game_of(bracket_id, "W1-1")
        assert game.table_number == 1
        play_out(game, "A", django_capture_on_commit_callbacks)
    assert opens(cards[1]) == "waiting"  # table 1 is free now

    play_out(game_of(bracket_id, "W1-2"), "A", django_capture_on_commit_callbacks)
    second = game_of(bracket_id, "W1-2")
    assert second.status == Game.Status.SCHEDULED  # game 2 of W1-2: where its teams sit
    assert second.table_number == 2
    assert opens(cards[2]) == card_of(bracket_id, "W1-2")
    assert opens(cards[1]) == "waiting"
