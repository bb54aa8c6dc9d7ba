"""Setting a league up by pasting (issue 31, item 3), through the workspace's pages: names pasted
one a line into the roster (the CSV import's checks, each bad line by number, nothing added
unless every line is good), teams pasted as pairs (new names join the roster only once
confirmed), the one-team form offering only free players, a series of nights (shown, then
planned), and the usual rounds of a night."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client

from league.models import AuditEntry, Night, Player, Team
from tests.factories import PlayerFactory, SeasonFactory, TeamFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(organiser):
    client = Client()
    client.force_login(organiser)
    return client


@pytest.fixture
def season(league):
    return SeasonFactory(
        league=league,
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 12, 31),
    )


def problems(response) -> list[tuple[str, str]]:
    table = response.content.decode().split('class="list problems"', 1)[1]
    cells = re.findall(r"<tr><td>(\d+)</td><td>(.*?)</td></tr>", table)
    return [(line, reason.replace("&#x27;", "'").replace("&amp;", "&")) for line, reason in cells]


def names(league) -> list[str]:
    return list(Player.objects.filter(league=league).order_by("pk").values_list("name", flat=True))


def test_pasted_names_join_the_roster_in_order(client, league, organiser):
    page = client.get(f"/manage/leagues/{league.pk}/players/").content.decode()
    assert f'action="/manage/leagues/{league.pk}/players/paste/#paste"' in page
    text = "Ann  Baker\n\n  Bob Carter \nCal Dunn\tcal@example.com\n"
    response = client.post(f"/manage/leagues/{league.pk}/players/paste/", {"names": text})
    assert response.status_code == 302
    # posted to the form's #paste, it lands on the message above the form (no fragment would
    # keep #paste: the browser carries a post's fragment through a redirect without one)
    assert response["Location"] == f"/manage/leagues/{league.pk}/players/#messages"
    assert names(league) == ["Ann Baker", "Bob Carter", "Cal Dunn"]
    assert Player.objects.get(name="Cal Dunn").email == "cal@example.com"
    entries = AuditEntry.objects.filter(league=league, action="player.create")
    assert entries.count() == 3 and {entry.actor for entry in entries} == {organiser}
    landed = client.get(response["Location"]).content.decode()
    messages = '<div role="status" id="messages"><ul class="messages"><li class="success">'
    assert messages + "Added 3 players." in landed


def test_bad_pasted_lines_are_listed_by_number_and_nobody_is_added(client, league):
    PlayerFactory(league=league, name="Dee Ellis")
    text = "\n".join(
        [
            "Ann Baker",  # 1: fine
            "dee ellis",  # 2: on the roster in another case
            "",  # 3: blank, still counted
            "ANN BAKER",  # 4: twice in the paste
            "x" * 121,  # 5: too long
            "Bob Carter\tnot-an-email",  # 6
        ]
    )
    response = client.post(f"/manage/leagues/{league.pk}/players/paste/", {"names": text})
    assert response.status_code == 400
    assert problems(response) == [
        ("2", "dee ellis is already on the roster"),
        ("4", "ANN BAKER is also on line 1"),
        ("5", "the name is longer than 120 characters"),
        ("6", "'not-an-email' is not an email address"),
    ]
    assert "4 rows cannot be imported; nothing was imported" in response.content.decode()
    assert "Bob Carter" in response.content.decode()  # the paste is kept, to be fixed
    assert names(league) == ["Dee Ellis"]


def test_an_empty_paste_adds_nobody(client, league):
    response = client.post(f"/manage/leagues/{league.pk}/players/paste/", {"names": " \n \n"})
    assert response.status_code == 400
    assert names(league) == []


def test_pasted_teams_of_roster_players(client, league, season, organiser):
    for name in ("Ann Baker", "Bob Carter", "Cal Dunn", "Dee Ellis"):
        PlayerFactory(league=league, name=name)
    text = "ann baker & Bob Carter\nAces: Cal Dunn and Dee Ellis\n"
    response = client.post(f"/manage/seasons/{season.pk}/teams/paste/", {"teams": text})
    assert response.status_code == 302
    teams = [
        (team.name, team.player_one.name, team.player_two.name)
        for team in Team.objects.filter(season=season).order_by("pk")
    ]
    assert teams == [
        ("ann baker & Bob Carter", "Ann Baker", "Bob Carter"),
        ("Aces", "Cal Dunn", "Dee Ellis"),
    ]
    assert AuditEntry.objects.filter(action="team.create", actor=organiser).count() == 2


def test_new_names_in_pasted_teams_join_the_roster_only_once_confirmed(client, league, season):
    PlayerFactory(league=league, name="Ann Baker")
    url = f"/manage/seasons/{season.pk}/teams/paste/"
    text = "Ann Baker & Bob Carter\nCal Dunn / Dee Ellis"
    asked = client.post(url, {"teams": text})
    assert asked.status_code == 200
    html = asked.content.decode()
    assert "3 new players for the roster" in html
    shown = re.findall(r'name="new_player" value="([^"]+)"', html)
    assert shown == ["Bob Carter", "Cal Dunn", "Dee Ellis"]
    assert names(league) == ["Ann Baker"] and not Team.objects.exists()

    # The list changed after the names were shown: a name never confirmed is asked about again.
    changed = client.post(
        url,
        {"teams": text + "\nEve Fox & Gus Hale", "confirm": "add", "new_player": shown},
    )
    assert changed.status_code == 200
    assert re.findall(r'name="new_player" value="([^"]+)"', changed.content.decode()) == [
        "Bob Carter",
        "Cal Dunn",
        "Dee Ellis",
        "Eve Fox",
        "Gus Hale",
    ]
    assert names(league) == ["Ann Baker"] and not Team.objects.exists()

    done = client.post(url, {"teams": text, "confirm": "add", "new_player": shown})
    assert done.status_code == 302
    assert names(league) == ["Ann Baker", "Bob Carter", "Cal Dunn", "Dee Ellis"]
    assert Team.objects.filter(season=season).count() == 2


def test_bad_pasted_teams_are_listed_by_line_and_nothing_is_written(client, league, season):
    ann, bob = PlayerFactory(league=league, name="Ann Baker"), PlayerFactory(league=league)
    TeamFactory(season=season, name="Aces", player_one=ann, player_two=bob)
    text = "\n".join(
        [
            "Ann Baker & Cal Dunn",  # 1: Ann is on Aces
            "Cal Dunn",  # 2: one name
            "Dee Ellis & dee ellis",  # 3: the same player twice
            "Aces: Eve Fox & Gus Hale",  # 4: the team's name is taken
            "Hal Ives & Cal Dunn",  # 5: Cal is on line 1 too
        ]
    )
    response = client.post(
        f"/manage/seasons/{season.pk}/teams/paste/",
        {"teams": text, "confirm": "add", "new_player": ["Cal Dunn", "Dee Ellis", "Eve Fox"]},
    )
    assert response.status_code == 400
    assert problems(response) == [
        ("1", "Ann Baker is already on Aces"),
        ("2", "write two players joined by &, e.g. “Ann Baker & Bob Carter”"),
        ("3", "Dee Ellis is named twice: a team is two different players"),
        ("4", "this season already has a team called Aces"),
        ("5", "Cal Dunn is also on line 1"),
    ]
    assert Team.objects.filter(season=season).count() == 1
    assert Player.objects.filter(league=league).count() == 2


def test_the_team_form_offers_only_free_players(client, league, season):
    ann, bob, cal, dee = (
        PlayerFactory(league=league, name=name)
        for name in ("Ann Baker", "Bob Carter", "Cal Dunn", "Dee Ellis")
    )
    TeamFactory(season=season, name="Aces", player_one=ann, player_two=bob)
    other_season = SeasonFactory(league=league)
    TeamFactory(season=other_season, player_one=cal, player_two=dee)  # another season's team
    html = client.get(f"/manage/seasons/{season.pk}/teams/").content.decode()
    form = html.split("Add one team", 1)[1]
    offered = re.findall(r'<option value="\d+">([^<]+)</option>', form)
    assert offered == ["Cal Dunn", "Dee Ellis"] * 2  # both selects


def test_a_stale_team_form_names_both_players_already_on_teams(client, league, season):
    ann, bob, cal, dee = (
        PlayerFactory(league=league, name=name)
        for name in ("Ann Baker", "Bob Carter", "Cal Dunn", "Dee Ellis")
    )
    url = f"/manage/seasons/{season.pk}/teams/"
    client.get(url)  # the form offers all four
    # Meanwhile a co-organiser makes teams of them.
    TeamFactory(season=season, name="Aces", player_one=ann, player_two=cal)
    TeamFactory(season=season, name="Bowers", player_one=bob, player_two=dee)
    response = client.post(url, {"name": "New", "player_one": ann.pk, "player_two": bob.pk})
    assert response.status_code == 400
    form = response.context["form"]
    message = (
        "a player can be on only one team in a season: "
        "Ann Baker is already on Aces; Bob Carter is already on Bowers"
    )
    assert form.errors == {"player_one": [message]}
    assert "Ann Baker is already on Aces; Bob Carter is already on Bowers" in response.text
    one = client.post(
        url, {"name": "New", "player_one": PlayerFactory(league=league).pk, "player_two": dee.pk}
    )
    assert one.context["form"].errors == {
        "player_two": [
            "a player can be on only one team in a season: Dee Ellis is already on Bowers"
        ]
    }
    assert Team.objects.filter(season=season).count() == 2


def series(client, season, action: str, **fields):
    values = {
        "starts_on": "2026-09-01",
        "weekday": "3",  # Thursday
        "every_weeks": "1",
        "count": "7",
        "skip": "",
        "venue": "Rosie's",
        **fields,
    }
    body = {
        ("" if name == "expected" else "series-") + name: value for name, value in values.items()
    }
    body["action"] = action
    return client.post(f"/manage/seasons/{season.pk}/nights/series/", body)


def test_a_series_of_nights_is_shown_then_planned(client, season, organiser):
    shown = series(client, season, "preview", skip="2026-09-24, 2026-12-25")
    assert shown.status_code == 200
    html = shown.content.decode()
    dates = re.findall(r"<li>(\w{3} \d+ \w{3} 2026)</li>", html)
    assert dates == [
        "Thu 3 Sep 2026",
        "Thu 10 Sep 2026",
        "Thu 17 Sep 2026",
        "Thu 1 Oct 2026",
        "Thu 8 Oct 2026",
        "Thu 15 Oct 2026",
        "Thu 22 Oct 2026",
    ]
    assert "Skipped: Thu 24 Sep 2026." in html
    assert "Plan these 7 nights" in html
    assert not Night.objects.exists()
    expected = re.search(r'name="expected" value="([^"]+)"', html).group(1)

    done = series(client, season, "create", skip="2026-09-24, 2026-12-25", expected=expected)
    assert done.status_code == 302
    assert done["Location"] == f"/manage/seasons/{season.pk}/nights/#messages"
    assert "Planned 7 nights." in client.get(done["Location"]).content.decode()
    nights = list(Night.objects.filter(season=season).order_by("date"))
    assert [night.date.isoformat() for night in nights] == expected.split(",")
    assert {night.venue for night in nights} == {"Rosie's"}
    entry = AuditEntry.objects.get(action="nights.create")
    assert (entry.actor, entry.season_id) == (organiser, season.pk)
    assert entry.after["dates"] == expected.split(",")


def test_a_series_every_other_week(client, season):
    shown = series(client, season, "preview", every_weeks="2", count="3", weekday="1")
    dates = re.findall(r"<li>(\w{3} \d+ \w{3} 2026)</li>", shown.content.decode())
    assert dates == ["Tue 1 Sep 2026", "Tue 15 Sep 2026", "Tue 29 Sep 2026"]


def test_a_series_is_planned_only_as_shown(client, season):
    shown = series(client, season, "preview")
    expected = re.search(r'name="expected" value="([^"]+)"', shown.content.decode()).group(1)
    changed = series(client, season, "create", count="8", expected=expected)
    assert changed.status_code == 200
    assert "The dates changed since they were shown" in changed.content.decode()
    assert "Plan these 8 nights" in changed.content.decode()
    assert not Night.objects.exists()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"count": "20"}, "the nights must fall within the season&#x27;s dates: Thu 7 Jan 2027"),
        ({"skip": "24/09/2026"}, "&#x27;24/09/2026&#x27; is not a date: write YYYY-MM-DD"),
        ({"count": "0"}, "Ensure this value is greater than or equal to 1."),
        ({"weekday": "9"}, "Select a valid choice."),
    ],
)
def test_a_bad_series_plans_nothing(client, season, fields, message):
    shown = series(client, season, "preview", **fields)
    expected = ",".join(["x"])
    done = series(client, season, "create", expected=expected, **fields)
    for response in (shown, done):
        assert response.status_code == 400
        assert message in response.content.decode()
    assert not Night.objects.exists()


def test_a_series_over_a_planned_night_plans_nothing(client, season):
    Night.objects.create(season=season, date=datetime.date(2026, 9, 10))
    shown = series(client, season, "preview", count="2")
    done = series(client, season, "create", count="2", expected="2026-09-03,2026-09-10")
    for response in (shown, done):
        assert response.status_code == 400
        assert "the season already has a night on Thu 10 Sep 2026: skip those dates" in (
            response.content.decode()
        )
    assert Night.objects.filter(season=season).count() == 1


def test_the_usual_rounds_of_a_night_are_set_and_cleared(client, season, organiser):
    url = f"/manage/seasons/{season.pk}/usual-rounds/"
    assert client.post(url, {"usual_rounds": "4"}).status_code == 302
    season.refresh_from_db()
    assert season.usual_rounds == 4
    assert client.post(url, {"usual_rounds": "0"}).status_code == 400
    assert client.post(url, {"usual_rounds": ""}).status_code == 302
    season.refresh_from_db()
    assert season.usual_rounds is None
    changes = AuditEntry.objects.filter(action="season.usual_rounds").order_by("pk")
    assert [(entry.before, entry.after) for entry in changes] == [
        ({"usual_rounds": None}, {"usual_rounds": 4}),
        ({"usual_rounds": 4}, {"usual_rounds": None}),
    ]


def test_another_leagues_organiser_pastes_nothing(league, season):
    from tests.factories import LeagueRoleFactory

    stranger = Client()
    stranger.force_login(LeagueRoleFactory().user)
    assert (
        stranger.post(
            f"/manage/leagues/{league.pk}/players/paste/", {"names": "Ann Baker"}
        ).status_code
        == 403
    )
    assert (
        stranger.post(
            f"/manage/seasons/{season.pk}/teams/paste/",
            {"teams": "A B & C D", "confirm": "add", "new_player": ["A B", "C D"]},
        ).status_code
        == 403
    )
    assert series(stranger, season, "create").status_code == 403
    assert not Player.objects.exists() and not Night.objects.exists()
