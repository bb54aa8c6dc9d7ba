"""The night pages: the organiser's desk, the players' page and the printables."""

import re

import pytest
from django.test import Client

from league.models import Attendance, Night, Player
from scoring.games.models import Game
from tests.captains import play_through_the_api
from tests.factories import LeagueRoleFactory, PlayerFactory
from tests.pages.night_desk import flashes, post
from tournaments.models import NightPlan, Seat, TableCard

pytestmark = pytest.mark.django_db


@pytest.fixture
def roster(league):
    names = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Hank", "Ivy"]
    return [PlayerFactory(league=league, name=name) for name in names]


def run_to_published(organiser_client, night, players, rounds):
    for player in players:
        post(organiser_client, f"/manage/nights/{night.pk}/check-in/", {"player": player.pk})
    post(organiser_client, f"/manage/nights/{night.pk}/plan/", {"rounds": rounds})
    post(organiser_client, f"/manage/nights/{night.pk}/publish/")


def test_check_in_from_the_roster_and_a_walk_in(organiser_client, night, roster):
    page = organiser_client.get(f"/manage/nights/{night.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Check in all 9 on the roster" in html
    assert "Check in at least 4 players to plan a rotation." in html

    response = post(
        organiser_client, f"/manage/nights/{night.pk}/check-in/", {"player": roster[0].pk}
    )
    assert flashes(response) == ["Alice is checked in."]
    response = post(
        organiser_client, f"/manage/nights/{night.pk}/check-in/", {"name": "Zed  Walker"}
    )
    assert flashes(response) == ["Zed Walker is checked in."]
    assert Player.objects.get(name="Zed Walker").league_id == night.season.league_id
    assert [a.player.name for a in Attendance.objects.order_by("checked_in_at", "pk")] == [
        "Alice",
        "Zed Walker",
    ]
    assert "Check in the 8 not here yet" in response.content.decode()
    assert Night.objects.get(pk=night.pk).status == "check_in"

    again = post(organiser_client, f"/manage/nights/{night.pk}/check-in/", {"name": "alice"})
    assert flashes(again) == ["Alice is already checked in"]
    assert Attendance.objects.count() == 2


def test_plan_report_in_words_publish_and_start_a_round(organiser_client, night, roster):
    for player in roster[:8]:
        post(organiser_client, f"/manage/nights/{night.pk}/check-in/", {"player": player.pk})
    page = organiser_client.get(f"/manage/nights/{night.pk}/").content.decode()
    assert "8 players: up to 7 rounds (the full cycle) without repeating a partner." in page

    planned = post(
        organiser_client, f"/manage/nights/{night.pk}/plan/", {"rounds": 7, "hands_per_game": 8}
    )
    html = planned.content.decode()
    assert flashes(planned) == ["Plan generated: read its report, then publish it."]
    assert "Perfect: everyone partners everyone once and opposes everyone twice." in html
    assert "28 pairs once" in html and "28 pairs twice" in html
    assert "nobody sits out" in html
    assert "8 hands a game" in html
    assert NightPlan.objects.get().hands_per_game == 8

    published = post(organiser_client, f"/manage/nights/{night.pk}/publish/")
    assert flashes(published) == ["Published: players can see where they sit."]
    assert "Start round 1" in published.content.decode()

    started = post(organiser_client, f"/manage/nights/{night.pk}/rounds/1/start/")
    html = started.content.decode()
    assert flashes(started) == ["Round 1 has started: hand each table its captain link."]
    games = list(Game.objects.order_by("table_number"))
    assert len(games) == 2
    for game in games:
        seats = list(
            Seat.objects.filter(round__number=1, table_number=game.table_number)
            .order_by("seat")
            .values_list("player_id", flat=True)
        )
        assert list(game.seat_player_ids) == seats
        assert f"/t/{game.captain_token}/" in html
        assert f"/t/{game.captain_token}/qr.svg" in html
    assert "Still playing: <b>table 1</b>, <b>table 2</b>" in html
    assert "Start round 2" not in html

    tables = organiser_client.get(f"/manage/nights/{night.pk}/tables/", HTTP_HX_REQUEST="true")
    assert tables["Vary"] == "Cookie, HX-Request" or "HX-Request" in tables["Vary"]
    assert 'hx-trigger="every 10s"' in tables.content.decode()

    refused = post(organiser_client, f"/manage/nights/{night.pk}/rounds/2/start/")
    assert flashes(refused) == ["round 1 is still playing at tables 1, 2"]
    assert Game.objects.count() == 2


def test_refused_plan_says_why_and_writes_nothing(organiser_client, night, roster):
    for player in roster[:5]:
        post(organiser_client, f"/manage/nights/{night.pk}/check-in/", {"player": player.pk})
    response = post(organiser_client, f"/manage/nights/{night.pk}/plan/", {"rounds": 9})
    assert flashes(response) == [
        "5 players can play 1 to 5 rounds without repeating partners; 9 were asked"
    ]
    assert not NightPlan.objects.exists() and not Seat.objects.exists()


def test_leaver_and_repair_from_the_desk(organiser_client, night, roster):
    run_to_published(organiser_client, night, roster[:9], 4)
    post(organiser_client, f"/manage/nights/{night.pk}/rounds/1/start/")
    round_one = sorted(
        Seat.objects.filter(round__number=1).values_list("player_id", "table_number", "seat")
    )
    left = post(organiser_client, f"/manage/nights/{night.pk}/check-out/", {"player": roster[4].pk})
    assert flashes(left) == ["Erin has left. Repair the plan before the next round."]
    assert "repair the plan below before starting it" in left.content.decode()
    repaired = post(organiser_client, f"/manage/nights/{night.pk}/repair/")
    assert flashes(repaired) == [
        "Re-planned the rounds not started; rounds already played are unchanged."
    ]
    assert (
        sorted(
            Seat.objects.filter(round__number=1).values_list("player_id", "table_number", "seat")
        )
        == round_one
    )
    assert not Seat.objects.filter(round__number__gt=1, player=roster[4]).exists()


def test_players_page_finds_a_seat_by_name(client, organiser_client, night, roster):
    unpublished = client.get(f"/nights/{night.pk}/")
    assert "The rotation is not published yet." in unpublished.content.decode()
    run_to_published(organiser_client, night, roster[:5], 5)
    first = Seat.objects.get(round__number=1, player=roster[0])
    page = client.get(f"/nights/{night.pk}/", {"name": "ALICE"})
    html = page.content.decode()
    assert page.status_code == 200
    if first.table_number is None:
        assert "Round 1: you sit out." in html
    else:
        partner = Seat.objects.get(
            round__number=1, table_number=first.table_number, seat=(first.seat + 2) % 4
        ).player
        assert f"Round 1: <b>table {first.table_number}</b>, with {partner.name} against" in html
    assert html.count("<tr class=") == 5
    several = client.get(f"/nights/{night.pk}/", {"name": "a"}).content.decode()
    assert "Which one are you?" in several
    nobody = client.get(f"/nights/{night.pk}/", {"name": "Quentin"}).content.decode()
    assert "Nobody called “Quentin” is playing tonight." in nobody
    post(organiser_client, f"/manage/nights/{night.pk}/rounds/1/start/")
    after_start = client.get(f"/nights/{night.pk}/").content.decode()
    assert Game.objects.count() == 1
    assert Game.objects.get().captain_token not in after_start


def test_printables(client, organiser_client, night, roster):
    run_to_published(organiser_client, night, roster[:8], 3)
    chart = client.get(f"/nights/{night.pk}/print/chart/?paper=letter").content.decode()
    assert "/static/css/print-letter.css" in chart
    assert chart.count('class="round round-planned"') == 3
    cards = client.get(f"/nights/{night.pk}/print/cards/").content.decode()
    assert "/static/css/print-a4.css" in cards
    assert cards.count('<section class="score-card">') == 8
    assert '<th scope="col">Loners</th>' in cards

    # One tent per table for the whole night, with the table card's QR code (printed once, the
    # same before and after the round starts; the old per-round address prints the same).
    before = organiser_client.get(f"/manage/nights/{night.pk}/tents/").content.decode()
    assert before.count('<section class="tent">') == 2
    # each tent's table QR code, and the door's own sign (not on the tents: by the time they
    # are on the tables, the door is closed: the rotation is planned)
    assert len(re.findall(r"<svg[^>]*>", before)) == 2 + 1
    assert "Just arrived?" not in before and "Check in here" in before
    for card in TableCard.objects.filter(night=night):
        assert f"http://testserver/tables/{card.token}/" in before
    post(organiser_client, f"/manage/nights/{night.pk}/rounds/1/start/")
    tents = organiser_client.get(f"/manage/nights/{night.pk}/rounds/1/tents/").content.decode()
    assert tents == before
    assert client.get(f"/manage/nights/{night.pk}/tents/").status_code == 302


def test_only_the_leagues_organisers_run_the_desk(client, night, roster):
    anonymous = client.get(f"/manage/nights/{night.pk}/")
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/manage/login/")
    stranger = Client()
    stranger.force_login(LeagueRoleFactory().user)
    assert stranger.get(f"/manage/nights/{night.pk}/").status_code == 403
    refused = stranger.post(f"/manage/nights/{night.pk}/check-in/", {"player": roster[0].pk})
    assert refused.status_code == 403
    assert not Attendance.objects.exists()
    assert client.get("/manage/nights/999999/").status_code == 302


def _night_state(night):
    """What a refused action at the desk must leave exactly as it was."""
    return (
        sorted(Player.objects.values_list("pk", "name")),
        sorted(Attendance.objects.values_list("player_id", "left_at")),
        sorted(Seat.objects.values_list("round__number", "player_id", "table_number", "seat")),
        Night.objects.get(pk=night.pk).status,
    )


def test_a_walk_in_name_too_long_for_the_roster_is_refused(organiser_client, night, roster):
    before = _night_state(night)
    response = post(organiser_client, f"/manage/nights/{night.pk}/check-in/", {"name": "W" * 300})
    assert flashes(response) == ["a name has at most 120 characters (it has 300)"]
    assert _night_state(night) == before


def test_a_walk_in_in_another_case_checks_the_roster_player_in(organiser_client, night, roster):
    response = post(organiser_client, f"/manage/nights/{night.pk}/check-in/", {"name": "  bOB  "})
    assert flashes(response) == ["Bob is checked in."]
    assert Player.objects.filter(name__iexact="bob").count() == 1
    assert list(Attendance.objects.values_list("player_id", flat=True)) == [roster[1].pk]


def test_a_substitute_takes_a_leavers_seats(organiser_client, night, roster):
    run_to_published(organiser_client, night, roster[:8], 4)
    post(organiser_client, f"/manage/nights/{night.pk}/rounds/1/start/")
    erin_later = set(
        Seat.objects.filter(round__number__gt=1, player=roster[4]).values_list("pk", flat=True)
    )
    response = post(
        organiser_client,
        f"/manage/nights/{night.pk}/repair/",
        {"substitute_for": roster[4].pk, "substitute_name": "ivy"},
    )
    assert flashes(response) == ["Ivy takes Erin's seats from the next round."]  # the roster's
    assert Player.objects.filter(name__iexact="ivy").count() == 1  # the roster's Ivy, reused
    ivy_later = Seat.objects.filter(round__number__gt=1, player=roster[8])
    assert set(ivy_later.values_list("pk", flat=True)) == erin_later
    assert Seat.objects.filter(round__number=1, player=roster[4]).exists()


@pytest.mark.parametrize(
    ("form", "message"),
    [
        (
            {"substitute_name": "W" * 300},
            "a name has at most 120 characters (it has 300)",
        ),
        (
            {"substitute_for": "abc", "substitute_name": "Sam Sub"},
            "choose the player tonight whose seats the substitute takes",
        ),
        (
            {"substitute_for": "999999", "substitute_name": "Sam Sub"},
            "choose the player tonight whose seats the substitute takes",
        ),
    ],
)
def test_a_bad_substitute_is_refused_and_writes_nothing(
    organiser_client, night, roster, form, message
):
    run_to_published(organiser_client, night, roster[:8], 4)
    post(organiser_client, f"/manage/nights/{night.pk}/rounds/1/start/")
    form = {"substitute_for": roster[4].pk, **form}
    before = _night_state(night)
    plan_updated = NightPlan.objects.get(night=night).updated_at
    response = post(organiser_client, f"/manage/nights/{night.pk}/repair/", form)
    assert flashes(response) == [message]
    assert _night_state(night) == before
    assert NightPlan.objects.get(night=night).updated_at == plan_updated


NOT_AN_ID = ["99999999999999999999", "abc", "²", "9" * 5000]
"""Form values that name no row: beyond any id column (an OverflowError on SQLite), not a
number, a digit ``int`` refuses, more digits than ``int`` reads."""


@pytest.mark.parametrize("value", NOT_AN_ID)
def test_checking_out_a_value_that_is_no_player_is_refused(organiser_client, night, roster, value):
    post(organiser_client, f"/manage/nights/{night.pk}/check-in/", {"player": roster[0].pk})
    before = _night_state(night)
    response = post(organiser_client, f"/manage/nights/{night.pk}/check-out/", {"player": value})
    assert flashes(response) == ["that player is not checked in"]
    assert _night_state(night) == before


@pytest.mark.parametrize("value", NOT_AN_ID)
def test_checking_in_a_value_that_is_no_player_is_refused(organiser_client, night, roster, value):
    before = _night_state(night)
    response = post(organiser_client, f"/manage/nights/{night.pk}/check-in/", {"player": value})
    assert flashes(response) == ["that player is not on this league's roster"]
    assert _night_state(night) == before


@pytest.mark.parametrize("value", NOT_AN_ID)
def test_a_substitute_for_a_value_that_is_no_player_is_refused(
    organiser_client, night, roster, value
):
    run_to_published(organiser_client, night, roster[:8], 4)
    before = _night_state(night)
    form = {"substitute_for": value, "substitute_name": "Sam Sub"}
    response = post(organiser_client, f"/manage/nights/{night.pk}/repair/", form)
    assert len(flashes(response)) == 1
    assert _night_state(night) == before


def test_a_disputed_game_is_marked_on_the_desk_with_a_link_to_settle_it(
    client, organiser_client, night, roster
):
    run_to_published(organiser_client, night, roster[:8], 2)
    post(organiser_client, f"/manage/nights/{night.pk}/rounds/1/start/")
    first, second = Game.objects.filter(night=night, round_number=1).order_by("table_number")
    play_through_the_api([first, second])
    desk = organiser_client.get(f"/manage/nights/{night.pk}/").content.decode()
    assert "disputed" not in desk.lower()
    assert desk.count('class="table-card done"') == 2

    client.post(f"/t/{second.captain_token}/dispute/", {"reason": "hand 2 was a euchre"})
    desk = organiser_client.get(f"/manage/nights/{night.pk}/").content.decode()
    assert "Every table has finished round 1." in desk
    assert (
        f'Table 2\'s final score is disputed: <a href="/manage/games/{second.pk}/settle/">'
        "settle it</a> (“hand 2 was a euchre”)." in desk
    )
    assert desk.count('class="table-card done"') == 1
    assert desk.count('class="table-card disputed"') == 1
    assert '<span class="state">Disputed · 10–0</span>' in desk
    # the desk's tables part, as its poll fetches it, says the same, and (the round over) has
    # the desk's "Next" part fetched again; the whole desk, fresh, needs no such fetch
    part = organiser_client.get(f"/manage/nights/{night.pk}/tables/").content.decode()
    assert "Table 2's final score is disputed" in part
    assert "data-next-again" in part and "data-next-again" not in desk


def test_a_generated_plan_lands_on_its_report_and_a_refused_one_on_the_message(
    organiser_client, night, roster
):
    for player in roster[:3]:
        post(organiser_client, f"/manage/nights/{night.pk}/check-in/", {"player": player.pk})
    refused = organiser_client.post(f"/manage/nights/{night.pk}/plan/", {"rounds": 2})
    assert refused["Location"] == f"/manage/nights/{night.pk}/"  # the message is at the top
    post(organiser_client, f"/manage/nights/{night.pk}/check-in/", {"player": roster[3].pk})
    done = organiser_client.post(f"/manage/nights/{night.pk}/plan/", {"rounds": 2})
    assert done["Location"] == f"/manage/nights/{night.pk}/#plan"
    desk = organiser_client.get(done["Location"]).content.decode()
    report = desk[desk.index('<section class="report" id="plan">') :]
    assert "Draft plan: 2 rounds" in report and ">Publish</button>" in report
