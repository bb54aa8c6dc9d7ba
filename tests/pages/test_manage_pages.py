"""The organiser's workspace pages: signing in (its limits: ``test_login_limits``), creating a
league and a season (preset or custom rules), changing rules, nights, the dashboard, settling,
and the exports."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from league.forms import OPTION_LABELS
from league.models import AuditEntry, League, LeagueRole, Night, Rulebook, Season
from scoring.games.models import Game
from tests.factories import NightFactory, SeasonFactory, UserFactory
from tests.pages.test_manage_permissions import disputed_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(organiser):
    client = Client()
    client.force_login(organiser)
    return client


def _options_data(options: dict, prefix: str = "") -> dict:
    return {
        f"{prefix}{name}": ("on" if value is True else "" if value in (False, None) else value)
        for name, value in options.items()
        if name in OPTION_LABELS and value is not False
    }


def test_login_then_the_workspace(organiser):
    client = Client()
    response = client.post(
        reverse("manage:login"),
        {"username": organiser.username, "password": "correct horse battery staple"},
    )
    assert response.status_code == 302
    assert response["Location"] == "/manage/"
    assert client.get("/manage/").status_code == 200
    assert client.post(reverse("manage:logout")).status_code == 302
    assert client.get("/manage/").status_code == 302


def test_signup_logs_in_and_creating_a_league_makes_you_its_owner(db):
    client = Client()
    response = client.post(
        reverse("manage:signup"),
        {
            "username": "rosie",
            "password1": "a long pass phrase 42",
            "password2": "a long pass phrase 42",
        },
    )
    assert response["Location"] == reverse("manage:home")
    response = client.post(reverse("manage:league-new"), {"name": "Rosie's", "description": ""})
    league = League.objects.get()
    assert response["Location"] == reverse("manage:league", args=[league.pk])
    assert list(LeagueRole.objects.values_list("league__slug", "user__username", "role")) == [
        ("rosies", "rosie", "owner")
    ]
    again = client.post(reverse("manage:league-new"), {"name": "Rosie's"})
    assert again.status_code == 200
    assert "a league with the address &#x27;rosies&#x27; already exists" in again.text
    assert League.objects.count() == 1


def test_signup_refuses_a_weak_password(db):
    response = Client().post(
        reverse("manage:signup"), {"username": "rosie", "password1": "123", "password2": "123"}
    )
    assert response.status_code == 200
    assert "This password is too short" in response.text
    assert not UserFactory._meta.model.objects.exists()


def test_a_season_from_a_preset_and_one_with_custom_rules(client, league):
    url = reverse("manage:season-new", args=[league.pk])
    client.post(url, {"name": "Winter", "format": "teams", "preset": "csl"})
    winter = Season.objects.get(name="Winter")
    assert (winter.rulebook.name, winter.rulebook.preset, winter.rulebook.league) == (
        "Cincinnati Sports Leagues",
        "csl",
        league,
    )
    from league.domain.rules import PRESETS

    options = {**PRESETS["family"].rulebook.to_options(), "target_score": 7}
    response = client.post(
        url,
        {
            "name": "Spring",
            "format": "individual",
            "preset": "family",
            "customise": "on",
            "starts_on": "2026-03-01",
            "ends_on": "2026-05-31",
            **_options_data(options, prefix="rules-"),
        },
    )
    spring = Season.objects.get(name="Spring")
    assert response["Location"] == reverse("manage:season", args=[spring.pk])
    assert (spring.format, spring.starts_on, spring.rulebook.name) == (
        "individual",
        datetime.date(2026, 3, 1),
        "Family rules (custom)",
    )
    assert spring.rulebook.options == options


def test_the_preset_picker_refills_the_options_with_htmx(client, league):
    response = client.get(
        reverse("manage:season-new", args=[league.pk]) + "?preset=progressive",
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert "<h1>" not in response.text
    assert 'name="rules-game_length"' in response.text
    assert '<option value="hands" selected>' in response.text


def test_changing_rules_makes_a_new_version_and_keeps_the_old(client, make_season):
    season = make_season("standard")
    old = season.rulebook
    options = {**old.options, "target_score": 11, "stick_the_dealer": True}
    response = client.post(reverse("manage:season-rules", args=[season.pk]), _options_data(options))
    assert response.status_code == 302
    season.refresh_from_db()
    assert (season.rulebook.version, season.rulebook.previous, season.rulebook.options) == (
        2,
        old,
        options,
    )
    old.refresh_from_db()
    assert old.options["target_score"] == 10
    assert AuditEntry.objects.get().action == "rulebook.change"
    unchanged = client.post(
        reverse("manage:season-rules", args=[season.pk]), _options_data(options)
    )
    assert unchanged.status_code == 400
    assert "these are already the season&#x27;s rules" in unchanged.text
    assert Rulebook.objects.count() == 2


def test_nights_are_planned_within_the_season_and_link_to_the_night_dashboard(client, league):
    season = SeasonFactory(
        league=league, starts_on=datetime.date(2026, 1, 1), ends_on=datetime.date(2026, 3, 31)
    )
    url = reverse("manage:nights", args=[season.pk])
    outside = client.post(url, {"date": "2026-04-07", "venue": ""})
    assert outside.status_code == 400
    assert "the night must fall within the season&#x27;s dates" in outside.text
    assert not Night.objects.exists()
    client.post(url, {"date": "2026-01-13", "venue": "Rosie's"})
    night = Night.objects.get()
    assert (night.date, night.venue, night.status) == (
        datetime.date(2026, 1, 13),
        "Rosie's",
        "planned",
    )
    assert f'href="/manage/nights/{night.pk}/"' in client.get(url).text


def test_the_dashboard_lists_disputed_unconfirmed_and_playing_games(client, league, make_game):
    season = SeasonFactory(league=league)
    disputed = disputed_game(season)
    playing = make_game(season=season, table_number=4)
    playing.status = Game.Status.IN_PROGRESS
    playing.save()
    page = client.get(reverse("manage:season", args=[season.pk]))
    sections = page.text.split('<section class="games ')
    assert [section.split('"')[0] for section in sections[1:]] == [
        "disputed",
        "unconfirmed",
        "in-progress",
    ]
    assert reverse("manage:game-settle", args=[disputed.pk]) in sections[1]
    assert "Table 4" in sections[3]
    assert "HX-Request" in page["Vary"]
    partial = client.get(reverse("manage:season", args=[season.pk]), headers={"HX-Request": "true"})
    assert "<html" not in partial.text and "Disputed" in partial.text


def test_a_settlement_without_a_reason_writes_nothing(client, league):
    game = disputed_game(SeasonFactory(league=league))
    response = client.post(
        reverse("manage:game-settle", args=[game.pk]), {"decision": "correct", "reason": "x"}
    )
    assert response.status_code == 400
    assert "say which hand to correct" in response.text
    # said at the top too, where the page opens, with the way down to the form
    top = response.text[: response.text.index('<details class="hand-list"')]
    assert 'Not settled yet: <a href="#settle-form">' in top
    assert 'id="settle-form"' in response.text
    game.refresh_from_db()
    assert (game.confirmation, game.score_a) == ("disputed", 10)
    assert not AuditEntry.objects.exists()


def test_the_settle_page_names_who_dealt_each_hand(client, league):
    game = disputed_game(SeasonFactory(league=league))
    page = client.get(reverse("manage:game-settle", args=[game.pk])).text
    assert "Not settled yet" not in page
    rows = re.findall(r"<tr><td>(\d)</td><td>(.*?)</td>", page, re.S)
    dealers = ["Alice", "Bob", "Carol", "Dave", "Alice"]  # seat 0 first, clockwise
    assert rows == [
        (str(n), f"A made trump, 5 tricks<br><small>{name} dealt</small>")
        for n, name in enumerate(dealers, start=1)
    ]


def test_settling_a_confirmed_game_again_is_explained(client, league):
    game = disputed_game(SeasonFactory(league=league))
    url = reverse("manage:game-settle", args=[game.pk])
    assert client.post(url, {"decision": "confirm", "reason": "ok"}).status_code == 302
    # the table's card says it is confirmed, not who confirmed it (here: not the other side)
    card = Client().get(f"/t/{game.captain_token}/").text
    assert "This score is confirmed." in card and "Confirmed by the other side" not in card
    again = client.post(url, {"decision": "confirm", "reason": "ok"})
    assert again.status_code == 400
    assert "this game&#x27;s score is already confirmed" in again.text
    assert AuditEntry.objects.count() == 1


def test_exports(client, league):
    season = SeasonFactory(league=league, name="Winter", format=Season.Format.INDIVIDUAL)
    game = disputed_game(season)
    games = client.get(reverse("manage:export-games", args=[season.pk]))
    assert games["Content-Type"] == "text/csv; charset=utf-8"
    assert games["Content-Disposition"] == f'attachment; filename="season-{season.pk}-games.csv"'
    assert games.content.decode() == (
        "game,night,round,table,side_a,side_b,score_a,score_b,winner,status,confirmation,hands\r\n"
        f"{game.pk},,,3,Alice & Carol,Bob & Dave,10,0,A,finished,disputed,5\r\n"
    )
    hands = client.get(reverse("manage:export-hands", args=[season.pk])).content.decode()
    lines = hands.splitlines()
    assert lines[0] == (
        "game,hand,dealer_seat,makers,caller,caller_alone,defender_alone,tricks_won,renege,"
        "thrown_in,misdeal,ordered_up,time_called,outcome,points_a,points_b"
    )
    assert lines[1:] == [
        f"{game.pk},{n},{(n - 1) % 4},A,,0,0,5,,0,0,,0,march,2,0" for n in range(1, 6)
    ]
    standings = client.get(reverse("manage:export-standings", args=[season.pk])).content.decode()
    header, *rows = standings.splitlines()
    assert header == (
        "rank,name,games,wins,losses,draws,points_for,points_against,point_diff,win_pct,reason"
    )
    # Partners tie on everything; a recorded coin flip (by player id) orders each pair.
    table = sorted((row.split(",")[1], row.split(",")[0], row.split(",")[2:10]) for row in rows)
    winners, losers = ["1", "1", "0", "0", "10", "0", "10", "1.0"], ["1", "0", "1", "0", "0"]
    losers += ["10", "-10", "0.0"]
    assert [(name, stats) for name, _rank, stats in table] == [
        ("Alice", winners),
        ("Bob", losers),
        ("Carol", winners),
        ("Dave", losers),
    ]
    ranks = {name: rank for name, rank, _stats in table}
    assert {ranks["Alice"], ranks["Carol"]} == {"1", "2"}
    assert {ranks["Bob"], ranks["Dave"]} == {"3", "4"}


def test_the_nights_feed_is_icalendar(db, organiser):
    season = SeasonFactory(name="Winter, 2026", league__name="Rosie's; Tuesdays")
    night = NightFactory(season=season, date=datetime.date(2026, 1, 13), venue="Back room")
    # Public at /seasons/<id>/nights.ics, so a calendar app subscribes without signing in; the
    # workspace's copy is its league's organisers' only.
    response = Client().get(reverse("season-nights-ical", args=[season.pk]))
    assert response.status_code == 200
    assert Client().get(reverse("manage:nights-ical", args=[season.pk])).status_code == 302
    stranger = Client()
    stranger.force_login(organiser)  # an organiser of another league
    assert stranger.get(reverse("manage:nights-ical", args=[season.pk])).status_code == 403
    assert Client().get(reverse("season-nights-ical", args=[season.pk + 1])).status_code == 404
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    body = response.content.decode()
    lines = body.split("\r\n")
    stamp = next(line for line in lines if line.startswith("DTSTAMP:"))
    assert lines == [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Euchre league//Nights//EN",
        "CALSCALE:GREGORIAN",
        "X-WR-CALNAME:Rosie's\\; Tuesdays – Winter\\, 2026",
        "BEGIN:VEVENT",
        f"UID:night-{night.pk}@testserver",
        stamp,
        "DTSTART;VALUE=DATE:20260113",
        "DTEND;VALUE=DATE:20260114",
        "SUMMARY:Rosie's\\; Tuesdays – Winter\\, 2026",
        "LOCATION:Back room",
        "END:VEVENT",
        "END:VCALENDAR",
        "",
    ]
    assert len(stamp) == len("DTSTAMP:20260113T000000Z") and stamp.endswith("Z")


def test_long_ical_lines_are_folded_at_75_octets():
    from league.manage.exports import _fold

    folded = _fold("SUMMARY:" + "é" * 60)
    parts = folded.split("\r\n ")
    assert [len(part.encode()) for part in parts] == [74, 54]
    assert "".join(parts) == "SUMMARY:" + "é" * 60


@pytest.mark.django_db
def test_signup_never_redirects_to_another_site(client, django_user_model):
    password = "a-long-Pass-phrase-9"
    response = client.post(
        "/manage/signup/?next=https://evil.example/phish",
        {"username": "newcomer", "password1": password, "password2": password},
    )
    assert response.status_code == 302
    assert response["Location"] == "/manage/"
    assert django_user_model.objects.filter(username="newcomer").exists()


def test_exported_cells_never_run_as_spreadsheet_formulas():
    from league.manage.exports import csv_text

    text = csv_text(
        ["name", "points"],
        [{"name": '=HYPERLINK("x")', "points": -3}, {"name": "@SUM(A1)", "points": 2}],
    )
    assert text.splitlines() == ["name,points", '"\'=HYPERLINK(""x"")",-3', "'@SUM(A1),2"]
