"""Every player's own phone: their own link (``/me/<token>/``: seat now and next, the live score,
the night so far, the night's report, "I'm coming"), the night's door link (self check-in with
the desk's own check-in, audited as "self"; refused by an organiser; closed once the rotation is
planned), the answers on the night desk and through the API, and the QR codes on the printed
score cards and tents."""

import datetime
import html
import re

import pytest
from django.test import Client
from django.utils import timezone

from league.models import Attendance, AuditEntry, Night, Player, Rsvp, Season, SelfCheckIn
from scoring.games.models import Game
from tests.captains import post_marches
from tests.factories import NightFactory, PlayerFactory, SeasonFactory, TeamFactory, team_game
from tests.pages.night_desk import flashes, post
from tests.pages.test_table_cards import finish_round, publish

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bea", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def roster(league):
    return [PlayerFactory(league=league, name=name) for name in NAMES]


def me(player) -> str:
    return f"/me/{player.link_token}/"


def door(night) -> str:
    return f"/nights/{night.pk}/door/{night.door_token}/"


def text(response) -> str:
    """The page's words, one space apart (no space before a comma)."""
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))
    return html.unescape(re.sub(r" ([,.])", r"\1", words))


def seat_words(night, player, number) -> tuple[str, str]:
    """What the player's page says of their seat in round ``number`` (its game, started)."""
    game = next(
        g
        for g in Game.objects.filter(night=night, round_number=number)
        if player.pk in g.seat_player_ids
    )
    seat = game.seat_player_ids.index(player.pk)
    partner = game.seats[(seat + 2) % 4]
    return (
        f"Table {game.table_number}, seat {('North', 'East', 'South', 'West')[seat]}",
        f"With {partner.name} against",
    )


def test_the_player_link_follows_the_night_and_reports_it(organiser_client, night, roster):
    ann = roster[0]
    page = Client().get(me(ann))
    assert page.status_code == 200
    assert page["X-Robots-Tag"] == "noindex"
    assert 'id="round-clock"' in page.content.decode()
    assert "Tonight" not in text(page)  # nothing live yet

    publish(organiser_client, night, roster, 3)
    before = text(Client().get(me(ann)))
    assert "Next: round 1" in before and "Now:" not in before

    post(organiser_client, f"/manage/nights/{night.pk}/rounds/1/start/")
    where, partner = seat_words(night, ann, 1)
    during = text(Client().get(me(ann)))
    assert "Now: round 1" in during and where in during and partner in during
    assert "Next: round 2" in during
    assert "No hand played yet" in during

    round_one = next(
        g for g in Game.objects.filter(night=night, round_number=1) if ann.pk in g.seat_player_ids
    )
    won = round_one.seat_player_ids.index(ann.pk) in (0, 2)
    post_marches(round_one, [1])  # 2–0 after one hand: a game in play is not yet won or lost
    playing = text(Client().get(me(ann)))
    assert f"1 game (1 still playing), 0 won, {2 if won else 0} point" in playing
    post_marches(round_one, range(2, 6))
    finish_round(night, 1)  # side A (seats 0 and 2) marches five times: 10–0
    polled = Client().get(me(ann), HTTP_HX_REQUEST="true")
    assert polled.status_code == 200
    assert polled.content.decode().lstrip().startswith('<div id="live"')
    live = text(polled)
    assert ("Score 10–0" in live) == won and ("Score 0–10" in live) == (not won)
    assert "game over" in live
    assert f"1 game, {int(won)} won, {10 if won else 0} points" in live

    post(organiser_client, f"/manage/nights/{night.pk}/rounds/2/start/")
    where_two, partner_two = seat_words(night, ann, 2)
    now_two = text(Client().get(me(ann)))
    assert "Now: round 2" in now_two and where_two in now_two and partner_two in now_two
    finish_round(night, 2)
    post(organiser_client, f"/manage/nights/{night.pk}/rounds/3/start/")
    finish_round(night, 3)
    post(organiser_client, f"/manage/nights/{night.pk}/finish/")

    # a phone polling its page when the night ends reloads it, to show the night's report
    assert Client().get(me(ann), HTTP_HX_REQUEST="true")["HX-Refresh"] == "true"
    after = text(Client().get(me(ann)))
    assert "Your night of" in after and "3 games" in after
    # every hand they played: five hands in each of three games
    html = Client().get(me(ann)).content.decode()
    assert html.count("<td>March</td>") == 15


def test_wrong_revoked_and_renewed_links(organiser, organiser_client, roster):
    ann = roster[0]
    assert Client().get("/me/not-a-token/").status_code == 404
    old = me(ann)
    response = organiser_client.post(f"/manage/players/{ann.pk}/link/", {"action": "renew"})
    assert response.status_code == 302
    ann.refresh_from_db()
    assert Client().get(old).status_code == 404
    assert Client().get(me(ann)).status_code == 200
    organiser_client.post(f"/manage/players/{ann.pk}/link/", {"action": "revoke"})
    ann.refresh_from_db()
    assert ann.link_token is None
    assert Client().get(old).status_code == 404
    edit = organiser_client.get(f"/manage/players/{ann.pk}/")
    assert "link is turned off" in edit.content.decode()
    actions = list(
        AuditEntry.objects.filter(target_type="player", target_id=ann.pk).values_list(
            "action", flat=True
        )
    )
    assert actions == ["player.link_revoke", "player.link_renew"]
    # a stranger cannot renew it
    assert Client().post(f"/manage/players/{ann.pk}/link/", {"action": "renew"}).status_code == 302
    assert Player.objects.get(pk=ann.pk).link_token is None


def test_too_many_wrong_links_wait(settings, roster):
    settings.CAPTAIN_TOKEN_GUESSES_PER_MINUTE = "2/m"
    phone = Client()
    assert [phone.get(f"/me/guess-{n}/").status_code for n in range(3)] == [404, 404, 429]
    assert phone.get(me(roster[0])).status_code == 200  # a right link is never refused


def test_self_check_in_at_the_door(organiser, organiser_client, night, roster):
    ann, bea = roster[0], roster[1]
    phone = Client()
    page = phone.get(door(night))
    assert page.status_code == 200
    assert "That's me" in page.content.decode()
    assert Client().get(f"/nights/{night.pk}/door/wrong/").status_code == 404
    other = NightFactory(season=night.season)
    assert Client().get(f"/nights/{other.pk}/door/{night.door_token}/").status_code == 404

    first = phone.post(door(night), {"player": ann.pk})
    assert "You're checked in, Ann." in text(first)
    again = phone.post(door(night), {"player": ann.pk})  # a double tap
    assert again.status_code == 200 and "Ann, you're already checked in." in text(again)
    assert Attendance.objects.filter(night=night, player=ann, left_at=None).count() == 1
    entry = AuditEntry.objects.get(action="attendance.check_in", after__player=ann.pk)
    assert (entry.actor_label, entry.actor_id) == ("self", None)

    desk = organiser_client.get(f"/manage/nights/{night.pk}/").content.decode()
    row = re.search(rf'<li id="player-{ann.pk}".*?</li>', desk, re.S).group(0)
    assert "data-self" in row and "Refuse" in row

    refused = post(
        organiser_client, f"/manage/nights/{night.pk}/check-in/refuse/", {"player": ann.pk}
    )
    assert flashes(refused) == ["Ann's check-in at the door is turned down: Ann is checked out."]
    assert Attendance.objects.get(night=night, player=ann).left_at is not None
    twice = post(
        organiser_client, f"/manage/nights/{night.pk}/check-in/refuse/", {"player": ann.pk}
    )
    assert flashes(twice) == ["Ann's check-in at the door was already turned down."]
    assert AuditEntry.objects.filter(action="attendance.self_refuse").count() == 1

    # Neither Ann (from any phone) nor that phone (for anyone) checks in at the door again.
    for who, client in ((ann, Client()), (bea, phone)):
        turned = client.post(door(night), {"player": who.pk})
        assert turned.status_code == 409
        assert "turned down a check-in at the door for this phone" in text(turned)
    assert not Attendance.objects.filter(night=night, player=bea).exists()
    # the desk still can
    post(organiser_client, f"/manage/nights/{night.pk}/check-in/", {"player": bea.pk})
    assert Attendance.objects.filter(night=night, player=bea, left_at=None).exists()


def test_the_door_recognises_the_player_link_and_closes_when_planned(
    organiser_client, night, roster
):
    phone = Client()
    phone.get(me(roster[2]))  # the player's own link leaves its signed cookie
    page = phone.get(door(night))
    assert "I'm Cal: check me in" in text(page)
    checked = phone.post(door(night), {"player": roster[2].pk})
    assert "You're checked in, Cal." in text(checked)
    assert me(roster[2]) in checked.content.decode()  # the link to their own page, to them alone
    stranger = Client().post(door(night), {"player": roster[3].pk})
    assert me(roster[3]) not in stranger.content.decode()

    publish(organiser_client, night, roster, 2)
    closed = Client().get(door(night))
    assert "check-in at the door is closed: ask the organiser" in text(closed)
    late = Client().post(door(night), {"player": PlayerFactory(league=night.season.league).pk})
    assert late.status_code == 409
    assert "ask the organiser" in text(late)


def test_bad_door_input_writes_nothing(night, roster, league):
    stranger = PlayerFactory(name="Elsewhere")  # another league's player
    for data in ({}, {"player": "x"}, {"player": stranger.pk}):
        response = Client().post(door(night), data)
        assert response.status_code == 400
    assert not Attendance.objects.filter(night=night).exists()
    assert not SelfCheckIn.objects.exists()


def test_door_posts_are_rate_limited(settings, night, roster):
    settings.PUBLIC_POST_RATE = "2/m"
    phone = Client()
    phone.get(door(night))
    codes = [phone.post(door(night), {"player": roster[0].pk}).status_code for _ in range(3)]
    assert codes == [200, 200, 429]


def test_the_desk_polls_door_check_ins(organiser_client, night, roster):
    live = f"/manage/nights/{night.pk}/check-in/live/"
    first = organiser_client.get(live, HTTP_HX_REQUEST="true")
    version = re.search(
        r'id="check-in-version" name="v" value="([0-9a-f]+)"', first.content.decode()
    )
    assert version
    assert organiser_client.get(live, {"v": version[1]}).status_code == 204
    Client().post(door(night), {"player": roster[4].pk})
    changed = organiser_client.get(live, {"v": version[1]})
    assert changed.status_code == 200
    assert changed["HX-Trigger"] == "check-in-changed"
    body = changed.content.decode()
    assert 'id="people"' in body and 'hx-swap-oob="true"' in body and "data-self" in body
    assert Client().get(live).status_code == 302  # organisers only


def next_night(night, days=7):
    return NightFactory(season=night.season, date=timezone.localdate() + datetime.timedelta(days))


def test_i_am_coming(organiser_client, night, roster):
    thursday = next_night(night)
    ann, bea = roster[0], roster[1]
    page = text(Client().get(me(ann)))
    assert "Next night" in page and "Will you be there?" in page
    for _ in range(2):  # idempotent
        response = Client().post(
            f"/me/{ann.link_token}/rsvp/", {"night": thursday.pk, "answer": "coming"}
        )
        assert response.status_code == 303
    assert list(Rsvp.objects.values_list("player__name", "answer")) == [("Ann", "coming")]
    assert "You said you're coming." in text(Client().get(me(ann)))
    Client().post(f"/me/{bea.link_token}/rsvp/", {"night": thursday.pk, "answer": "not_coming"})
    Client().post(f"/me/{bea.link_token}/rsvp/", {"night": thursday.pk, "answer": "maybe"})
    assert Rsvp.objects.get(player=bea).answer == "not_coming"

    desk = text(organiser_client.get(f"/manage/nights/{thursday.pk}/"))
    assert "Answers: coming 1, can't 1, no answer 6" in desk
    assert "Coming: Ann" in desk

    htmx = Client().post(
        f"/me/{ann.link_token}/rsvp/",
        {"night": thursday.pk, "answer": "not_coming"},
        HTTP_HX_REQUEST="true",
    )
    assert "you're down as not coming" in text(htmx)
    assert Rsvp.objects.get(player=ann).answer == "not_coming"
    # a night of another league, or one started, is refused and writes nothing
    elsewhere = NightFactory(date=thursday.date)
    Client().post(f"/me/{ann.link_token}/rsvp/", {"night": elsewhere.pk, "answer": "coming"})
    Night.objects.filter(pk=thursday.pk).update(status=Night.Status.PLAYING)
    Client().post(f"/me/{ann.link_token}/rsvp/", {"night": thursday.pk, "answer": "coming"})
    assert sorted(Rsvp.objects.values_list("player__name", "answer")) == [
        ("Ann", "not_coming"),
        ("Bea", "not_coming"),
    ]
    assert (
        Client().post("/me/nope/rsvp/", {"night": thursday.pk, "answer": "coming"}).status_code
        == 404
    )


def test_rsvp_api(organiser_api, api, night, roster):
    thursday = next_night(night)
    ann = roster[0]
    url = f"/api/v1/me/{ann.link_token}/rsvp/"
    for _ in range(2):
        response = api.post(url, {"night": thursday.pk, "answer": "coming"}, format="json")
        assert response.status_code == 200, response.content
        assert response.json()["answer"] == "coming"
    assert Rsvp.objects.count() == 1
    assert api.post(url, {"night": thursday.pk, "answer": "soon"}, format="json").status_code == 400
    assert (
        api.post(
            "/api/v1/me/wrong/rsvp/", {"night": thursday.pk, "answer": "coming"}, format="json"
        ).status_code
        == 404
    )
    assert Rsvp.objects.count() == 1

    read = organiser_api.get(f"/api/v1/nights/{thursday.pk}/rsvps/")
    assert read.status_code == 200
    data = read.json()
    assert (data["coming"], data["not_coming"], data["no_answer"]) == (1, 0, 7)
    assert data["answers"][0]["name"] == "Ann" and data["answers"][0]["answer"] == "coming"
    assert api.get(f"/api/v1/nights/{thursday.pk}/rsvps/").status_code in (401, 403)
    schema = api.get("/api/schema/").content.decode()
    assert "/api/v1/nights/{id}/rsvps/" in schema and "/api/v1/me/{token}/rsvp/" in schema


def test_printed_cards_and_tents_carry_the_links(organiser_client, night, roster):
    publish(organiser_client, night, roster, 2)
    cards = organiser_client.get(f"/nights/{night.pk}/print/cards/").content.decode()
    for player in roster:
        assert f'data-link="http://testserver/me/{player.link_token}/"' in cards
    public = Client().get(f"/nights/{night.pk}/print/cards/").content.decode()
    assert "/me/" not in public  # the players' secrets are printed by the organiser alone
    tents = organiser_client.get(f"/manage/nights/{night.pk}/tents/").content.decode()
    assert f"http://testserver{door(night)}" in tents  # on the door's sign, not on the tents
    assert tents.count("Scan with your phone, tap your name") == 1


def test_the_desk_offers_the_door_sign_while_the_door_is_open(organiser_client, night, roster):
    desk = organiser_client.get(f"/manage/nights/{night.pk}/").content.decode()
    assert f'<a href="/manage/nights/{night.pk}/tents/">Print the “Check in here” sign</a>' in desk
    door_page = Client().get(door(night)).content.decode()
    assert "closed" not in door_page
    publish(organiser_client, night, roster, 2)  # planned: the door closes, and the offer goes
    desk = organiser_client.get(f"/manage/nights/{night.pk}/").content.decode()
    assert "Check in here" not in desk
    assert "check-in at the door is closed" in Client().get(door(night)).content.decode()


def test_a_team_night_shows_the_team_game(league):
    season = SeasonFactory(league=league, format=Season.Format.TEAMS, rulebook__slug="standard")
    night = NightFactory(season=season, status=Night.Status.PLAYING)
    aces = TeamFactory(season=season, name="Aces")
    kings = TeamFactory(season=season, name="Kings")
    queens = TeamFactory(season=season, name="Queens")
    first = team_game(season, aces, kings, night=night)
    Game.objects.filter(pk=first.pk).update(round_number=1, table_number=2)
    second = team_game(season, queens, aces, night=night)
    Game.objects.filter(pk=second.pk).update(round_number=2, table_number=1)
    player = aces.player_one
    page = text(Client().get(me(player)))
    assert "Now: round 1" in page and "Table 2" in page and "Aces v Kings" in page
    assert "Next: round 2" in page and "Aces v Queens" in page
