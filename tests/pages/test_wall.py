"""The wall (``/l/<league>/s/<season>/wall/``): a night's seating now and next, the live scores
and the standings, for a TV; the projector's old address leads to it. Driven as the room does:
the organiser checks players in, plans, publishes and starts rounds at the night desk, captains
post hands through the API, and a TV (no account) reads the wall and polls its partial."""

import re
from html import unescape

import pytest
from django.test import Client
from django.utils import timezone

from league.models import Season
from scoring.games import services as scoring_services
from scoring.games.models import Game
from tests.factories import NightFactory, PlayerFactory, SeasonFactory, TeamFactory, team_game
from tests.pages.night_desk import flashes, post
from tournaments.models import Seat

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bea", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal", "Ivy"]
SEATS = {0: "N", 1: "E", 2: "S", 3: "W"}


@pytest.fixture
def roster(league):
    return [PlayerFactory(league=league, name=name) for name in NAMES]


@pytest.fixture
def wall(night):
    return f"/l/{night.season.league.slug}/s/{night.season.pk}/wall/"


def plan(organiser_client, night, players, rounds):
    for player in players:
        post(organiser_client, f"/manage/nights/{night.pk}/check-in/", {"player": player.pk})
    post(organiser_client, f"/manage/nights/{night.pk}/plan/", {"rounds": rounds})


def publish(organiser_client, night):
    assert flashes(post(organiser_client, f"/manage/nights/{night.pk}/publish/")) == [
        "Published: players can see where they sit."
    ]


def start(organiser_client, night, number):
    post(organiser_client, f"/manage/nights/{night.pk}/rounds/{number}/start/")


def text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def panels(body: str) -> dict[str, str]:
    """Each panel's text by its title."""
    found = re.findall(r'<section class="wall-panel[^"]*"[^>]*>(.*?)</section>', body, re.S)
    out = {}
    for panel in found:
        title = re.search(r"<h2[^>]*>(.*?)</h2>", panel, re.S).group(1)
        out[text(title)] = text(panel.split("</h2>", 1)[1])
    return out


def tables_of(body: str, title: str) -> dict[int, list[str]]:
    """Table number → its seats as the wall lists them ("N Ann", …), in a panel."""
    panel = re.search(
        rf'<h2 id="title-[^"]*">{re.escape(title)}</h2>(.*?)</section>', body, re.S
    ).group(1)
    tables = {}
    for number, seats in re.findall(
        r'<li class="wall-table" data-table="(\d+)">(.*?)</ul>', panel, re.S
    ):
        tables[int(number)] = [
            text(seat) for seat in re.findall(r'<li class="seat-\d">(.*?)</li>', seats, re.S)
        ]
    return tables


def planned_tables(night, number) -> dict[int, list[str]]:
    tables: dict[int, list[str]] = {}
    for seat in Seat.objects.filter(
        round__plan__night=night, round__number=number, table_number__isnull=False
    ).order_by("table_number", "seat"):
        tables.setdefault(seat.table_number, []).append(f"{SEATS[seat.seat]} {seat.player.name}")
    return tables


def test_the_wall_seats_the_room_now_and_next_and_shows_a_game_without_hands_as_playing(
    organiser_client, night, roster, wall
):
    tv = Client()
    plan(organiser_client, night, roster[:8], 2)
    body = tv.get(wall).content.decode()
    assert list(panels(body)) == ["Standings"]  # a draft plan is the organisers' alone

    publish(organiser_client, night)
    body = tv.get(wall).content.decode()
    assert list(panels(body)) == ["Next: Round 1", "Standings"]
    assert tables_of(body, "Next: Round 1") == planned_tables(night, 1)

    standings_page = f"/l/{night.season.league.slug}/s/{night.season.pk}/"
    assert "playing · hand 1" not in text(tv.get(standings_page).content.decode())
    start(organiser_client, night, 1)
    response = tv.get(wall)
    assert response["Vary"] == "HX-Request"
    body = response.content.decode()
    assert list(panels(body)) == ["Now: Round 1", "Next: Round 2", "Live scores", "Standings"]
    now = tables_of(body, "Now: Round 1")
    assert now == planned_tables(night, 1) and sorted(now) == [1, 2]
    assert sum(len(seats) for seats in now.values()) == 8  # every seat of the rotation
    assert tables_of(body, "Next: Round 2") == planned_tables(night, 2)
    # Round 1 was called and nobody has finished a hand yet: both tables are playing.
    games = {game.table_number: game for game in Game.objects.filter(night=night)}
    assert {game.hands_played for game in games.values()} == {0}
    live = panels(body)["Live scores"]
    for number, game in games.items():
        a, b = game.side_name("A"), game.side_name("B")
        assert f"Table {number} {a} 0–0 {b} first hand" in live
    assert 'hx-trigger="every 5s"' in body
    # The standings page says the same ("Playing now").
    dashboard = organiser_client.get(f"/manage/seasons/{night.season.pk}/").content.decode()
    playing = dashboard.split('<section class="games in-progress">')[1].split("</section>")[0]
    assert text(playing).startswith("Playing now 2 Table 1, round 1")  # the organisers' too
    standings = text(tv.get(standings_page).content.decode())
    assert "No game in progress" not in standings
    assert (
        f"R1 Table 1 {games[1].side_name('A')} 0–0 {games[1].side_name('B')} playing · hand 1"
        in (standings)
    )


def test_the_live_scores_follow_a_hand_posted_through_the_api(
    organiser_client, night, roster, wall
):
    tv = Client()
    plan(organiser_client, night, roster[:8], 1)
    publish(organiser_client, night)
    start(organiser_client, night, 1)
    partial = tv.get(wall, HTTP_HX_REQUEST="true").content.decode()
    assert partial.startswith('<div id="wall-panels"')
    assert list(panels(partial)) == ["Now: Round 1", "Live scores", "Standings"]  # no round 2

    game = Game.objects.get(night=night, table_number=2)
    response = Client().post(
        f"/api/v1/games/{game.pk}/hands/",
        {"makers": "B", "tricks_won": 5, "number": 1},
        HTTP_X_CAPTAIN_TOKEN=game.captain_token,
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    partial = tv.get(wall, HTTP_HX_REQUEST="true").content.decode()
    live = panels(partial)["Live scores"]
    a, b = game.side_name("A"), game.side_name("B")
    assert f"Table 2 {a} 0–2 {b} 1 hand" in live
    assert re.search(r'data-table="2">\s*<h3>Table 2<span class="wall-score">0–2</span>', partial)


def test_the_projector_leads_to_the_wall(night, wall):
    response = Client().get(wall.replace("/wall/", "/projector/"))
    assert response.status_code == 302 and response["Location"] == wall


def test_byes_are_named(organiser_client, night, roster, wall):
    plan(organiser_client, night, roster, 1)  # nine players: one sits out each round
    publish(organiser_client, night)
    body = Client().get(wall).content.decode()
    bye = Seat.objects.get(round__plan__night=night, table_number__isnull=True).player.name
    assert f"Sitting out: {bye}" in text(body)


def test_a_team_night_shows_its_schedule_round_by_round(league):
    season = SeasonFactory(league=league, format=Season.Format.TEAMS, rulebook__slug="standard")
    night = NightFactory(season=season, date=timezone.localdate())
    teams = [TeamFactory(season=season, name=name) for name in ("Aces", "Bowers", "Clubs", "Jacks")]
    pairs = {1: [(0, 1), (2, 3)], 2: [(0, 2), (1, 3)]}
    games = {}
    for number, matches in pairs.items():
        for table, (a, b) in enumerate(matches, start=1):
            game = team_game(season, teams[a], teams[b], night)
            game.round_number, game.table_number = number, table
            game.save(update_fields=["round_number", "table_number"])
            games[number, table] = game
    wall = f"/l/{league.slug}/s/{season.pk}/wall/"
    body = Client().get(wall).content.decode()
    shown = panels(body)
    assert list(shown) == ["Now: Round 1", "Next: Round 2", "Standings"]
    assert shown["Now: Round 1"] == "Table 1 0–0 Aces v Bowers Table 2 0–0 Clubs v Jacks"
    assert shown["Next: Round 2"] == "Table 1 Aces v Clubs Table 2 Bowers v Jacks"

    for table in (1, 2):
        scoring_services.game_record_final_score(game=games[1, table], score_a=10, score_b=4)
    shown = panels(Client().get(wall).content.decode())
    assert list(shown) == ["Now: Round 2", "Standings"]
