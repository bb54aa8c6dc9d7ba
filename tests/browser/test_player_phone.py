"""Every player's own phone, in a real Chromium at 360×640 with axe-core finding nothing on any
new page: a player answers "I'm coming" on their own link and the night desk shows it; at the
door their phone is recognised and checks them in with one tap, another player finds their name,
and both arrivals appear on the desk (a second browser) without a reload; once round 1 starts
their page shows their table, seat and partner, and moves them to round 2's table by itself when
round 2 starts; after the night it is their night's report."""

import datetime
import re
import shutil
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from league.models import Attendance, Night, Season
from scoring.games.models import Game
from tests.browser.conftest import ANY_IMPACT, assert_accessible
from tests.browser.test_nights import logged_in, play_round_through_the_api
from tests.factories import NightFactory, PlayerFactory, SeasonFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ann", "Bea", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal"]
SEATS = ("North", "East", "South", "West")
LOOKED_AT = Path("/tmp/h/player")


def seat_of(night, player, number) -> tuple[str, str]:
    game = next(
        g
        for g in Game.objects.filter(night=night, round_number=number)
        if player.pk in g.seat_player_ids
    )
    seat = game.seat_player_ids.index(player.pk)
    return f"Table {game.table_number}, seat {SEATS[seat]}", game.seats[(seat + 2) % 4].name


def test_a_players_phone_through_the_night(organiser, league, new_phone, live_server, shot):
    season = SeasonFactory(
        league=league, format=Season.Format.INDIVIDUAL, rulebook__slug="standard"
    )
    night = NightFactory(season=season, venue="Rosie's", date=timezone.localdate())
    players = {name: PlayerFactory(league=league, name=name) for name in NAMES}
    ann, bea = players["Ann"], players["Bea"]
    desk_url = f"{live_server.url}/manage/nights/{night.pk}/"
    door_url = f"{live_server.url}/nights/{night.pk}/door/{night.door_token}/"
    looked = []

    def look(page, state):
        looked.append((shot(page, state), state))

    # Before the night: Ann says she's coming, from her own link.
    phone = new_phone().new_page()
    phone.clock.install()  # its timers run as usual; the test moves them on past a poll's wait
    phone.goto(f"{live_server.url}/me/{ann.link_token}/")
    expect(phone.locator("#next-night")).to_contain_text("Will you be there?")
    phone.get_by_role("button", name="I'm coming").click()
    expect(phone.locator("[data-answer]")).to_contain_text("You said you're coming.")
    assert_accessible(phone, ANY_IMPACT)
    look(phone, "before")

    desk = logged_in(new_phone, live_server, organiser)
    desk.clock.install()
    desk.goto(desk_url)
    expect(desk.locator("[data-answers]")).to_contain_text("coming 1, can't 0, no answer 7")
    expect(desk.locator(f"#player-{ann.pk} [data-coming]")).to_have_text("coming")
    desk.evaluate("window.stillTheSamePage = true")

    # At the door: Ann's phone knows her (her link's cookie); Bea finds her name.
    phone.goto(door_url)
    assert_accessible(phone, ANY_IMPACT)
    look(phone, "door")
    phone.get_by_role("button", name="I'm Ann: check me in").click()
    expect(phone.locator("[data-door-message]")).to_have_text("You're checked in, Ann. Welcome!")
    assert_accessible(phone, ANY_IMPACT)
    look(phone, "door-done")
    other = new_phone().new_page()
    other.goto(door_url)
    other.get_by_label("Find your name").fill("be")
    expect(other.locator(".door-list li:not([hidden])")).to_have_count(1)
    other.get_by_role("button", name="That's me, Bea").click()
    expect(other.locator("[data-door-message]")).to_contain_text("You're checked in, Bea.")

    # The desk shows both arrivals, marked "self", without a reload (its poll: every 4 s).
    desk.clock.run_for(4_000)
    for player in (ann, bea):
        expect(desk.locator(f"#player-{player.pk} [data-self]")).to_have_text("self")
    expect(desk.locator("[data-count]")).to_have_text("2")
    assert desk.evaluate("window.stillTheSamePage === true")
    assert_accessible(desk, ANY_IMPACT)
    look(desk, "desk-arrivals")

    # The organiser checks the rest in, plans three rounds, publishes and starts round 1.
    client = Client()
    client.force_login(organiser)
    client.post(f"/manage/nights/{night.pk}/check-in/roster/")
    client.post(f"/manage/nights/{night.pk}/plan/", {"rounds": 3})
    client.post(f"/manage/nights/{night.pk}/publish/")
    client.post(f"/manage/nights/{night.pk}/rounds/1/start/")
    client.post(f"/manage/nights/{night.pk}/rounds/1/clock/", {"action": "start", "minutes": 20})
    assert Attendance.objects.filter(night=night, left_at=None).count() == 8

    phone.goto(f"{live_server.url}/me/{ann.link_token}/")
    where, partner = seat_of(night, ann, 1)
    now = phone.locator("[data-now]")
    expect(now).to_contain_text("Now: round 1")
    expect(now).to_contain_text(where)
    expect(now).to_contain_text(f"With {partner} against")
    expect(phone.locator("[data-next]")).to_contain_text("Next: round 2")
    # The round's clock, as on every card of the round and the wall: 19 or 20 minutes left.
    clock_time = phone.locator("#round-clock [data-round-clock-time]")
    expect(clock_time).to_have_text(re.compile(r"^(19|20):[0-5][0-9]$"))
    expect(phone.locator("#round-clock .round-clock-label")).to_contain_text("Round 1")
    assert_accessible(phone, ANY_IMPACT)
    look(phone, "during")
    phone.evaluate("window.stillTheSamePage = true")

    # Round 1 is played; round 2 starts: her page moves her to round 2's table by itself.
    play_round_through_the_api(night, 1)
    client.post(f"/manage/nights/{night.pk}/rounds/2/start/")
    where, partner = seat_of(night, ann, 2)
    phone.clock.run_for(5_000)  # the page's poll: every 5 s
    expect(now).to_contain_text("Now: round 2")
    expect(now).to_contain_text(where)
    expect(now).to_contain_text(f"With {partner} against")
    expect(phone.locator("[data-totals]")).to_contain_text("1 game, ")
    assert phone.evaluate("window.stillTheSamePage === true")
    look(phone, "during-round-2")

    play_round_through_the_api(night, 2)
    client.post(f"/manage/nights/{night.pk}/rounds/3/start/")
    play_round_through_the_api(night, 3)
    client.post(f"/manage/nights/{night.pk}/finish/")
    assert Night.objects.get(pk=night.pk).status == Night.Status.FINISHED
    NightFactory(season=season, date=timezone.localdate() + datetime.timedelta(days=7))

    phone.goto(f"{live_server.url}/me/{ann.link_token}/")
    report = phone.locator("[data-report]")
    expect(report).to_contain_text("3 games")
    expect(report.locator("details[open] table.hands tbody tr")).to_have_count(5)
    expect(phone.locator("#next-night")).to_contain_text("Will you be there?")
    assert_accessible(phone, ANY_IMPACT)
    look(phone, "after")

    LOOKED_AT.mkdir(parents=True, exist_ok=True)
    for path, state in looked:
        shutil.copy(path, LOOKED_AT / f"{state}.png")
