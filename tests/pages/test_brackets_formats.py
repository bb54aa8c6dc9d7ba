"""Pages for pools, Swiss rounds and a team season's schedule: the organiser's forms, the public
bracket with a drawing per pool, the knockout and the pool tables (or the Swiss rounds and
standings), and the schedule night by night, score-card links for the organiser only."""

import re

import pytest
from django.test import Client

from league.models import Night
from scoring.games.models import Game
from tests.api.test_brackets import make_teams, match_game
from tests.api.test_brackets_formats import POOL_RESULTS, finish_by, schedule_rows
from tests.factories import LeagueRoleFactory
from tournaments.models import Bracket

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(make_season):
    return make_season("standard")


def build(organiser_client, season, teams, **fields):
    seeds = {f"seed_{team.pk}": str(seed) for seed, team in enumerate(teams, start=1)}
    response = organiser_client.post(
        "/manage/brackets/new/",
        {"season": season.pk, "seeding": "manual", **seeds, **fields},
    )
    assert response.status_code == 302, response.content.decode()
    bracket = Bracket.objects.get()
    assert response["Location"] == f"/manage/brackets/{bracket.pk}/"
    assert organiser_client.post(f"/manage/brackets/{bracket.pk}/publish/").status_code == 302
    return bracket


def test_a_pools_bracket_is_built_on_the_form_and_drawn_pool_by_pool(
    client, organiser_client, season, django_capture_on_commit_callbacks
):
    teams = make_teams(season, 6)
    form = organiser_client.get(f"/manage/brackets/new/?season={season.pk}").content.decode()
    assert 'value="pools"' in form and 'value="swiss"' in form
    assert 'name="pool_count"' in form and 'name="advancing_per_pool"' in form
    bracket = build(
        organiser_client, season, teams, kind="pools", pool_count="2", advancing_per_pool="2"
    )
    assert (bracket.kind, bracket.pool_count, bracket.advancing_per_pool) == ("pools", 2, 2)

    html = client.get(f"/brackets/{bracket.pk}/").content.decode()
    assert '<h2 id="part-pool-a">Pool A</h2>' in html
    assert '<h2 id="part-pool-b">Pool B</h2>' in html
    assert '<h2 id="part-knockout">Knockout</h2>' in html
    assert html.index("part-pool-a") < html.index("part-knockout")
    assert '<text class="team pending"><tspan x="47" y="45">1st in pool A</tspan>' in html
    assert html.count('<g class="match ready"') == 6
    assert '<h2 id="table-1">Pool A</h2>' in html

    for code, first, second in POOL_RESULTS:
        finish_by(match_game(bracket.pk, code), first, second, django_capture_on_commit_callbacks)
    html = client.get(f"/brackets/{bracket.pk}/").content.decode()
    assert '<h2 id="table-1">Pool A <small>finished</small></h2>' in html
    assert html.count('<tr class="through">') == 4
    assert (
        '<tr class="through"><td>2</td><td>Team 1 <small>through</small><br>'
        '<small class="why">behind Team 4 on point difference (+1 to +6)</small></td>'
        "<td>1–1</td><td>+1</td></tr>"
    ) in html
    assert '<text class="team"><tspan x="47" y="45">Team 4</tspan>' in html  # 1st in pool A
    assert html.count('<g class="match ready"') == 2  # the semi-finals, with their games


def test_a_swiss_bracket_is_built_on_the_form_and_shows_its_standings(
    client, organiser_client, season, django_capture_on_commit_callbacks
):
    teams = make_teams(season, 4)
    bracket = build(organiser_client, season, teams, kind="swiss", swiss_rounds="2")
    assert (bracket.kind, bracket.swiss_rounds, Game.objects.count()) == ("swiss", 2, 2)
    html = client.get(f"/brackets/{bracket.pk}/").content.decode()
    assert '<h2 id="part-swiss-rounds">Swiss rounds</h2>' in html
    assert "Standings · round 1 of 2 (its byes counted)" in html

    finish_by(match_game(bracket.pk, "S1-1"), 10, 4, django_capture_on_commit_callbacks)
    finish_by(match_game(bracket.pk, "S1-2"), 10, 7, django_capture_on_commit_callbacks)
    html = client.get(f"/brackets/{bracket.pk}/").content.decode()
    assert '<text class="round" x="254" y="16" text-anchor="middle">Round 2</text>' in html
    assert '<g class="match ready" data-code="S2-1">' in html
    for code in ("S2-1", "S2-2"):
        finish_by(match_game(bracket.pk, code), 10, 5, django_capture_on_commit_callbacks)
    html = client.get(f"/brackets/{bracket.pk}/").content.decode()
    assert '<h2 id="table-1">Final standings</h2>' in html
    assert '<h2 id="placings-h">Final placings</h2>' in html
    assert "<tr><td>1</td><td>Team 1 <small>(2–0)</small></td></tr>" in html


def test_the_organiser_schedules_a_team_season_and_the_public_sees_it(
    client, organiser_client, season
):
    make_teams(season, 4)
    assert client.get(f"/seasons/{season.pk}/schedule/").status_code == 404
    empty = organiser_client.get(f"/manage/seasons/{season.pk}/schedule/").content.decode()
    assert f'<a href="/manage/seasons/{season.pk}/nights/#series">Plan the nights</a>' in empty
    nights = [
        Night.objects.create(season=season, date=date)
        for date in ("2026-01-06", "2026-01-13", "2026-01-20", "2026-01-27")
    ]
    form = organiser_client.get(f"/manage/seasons/{season.pk}/schedule/")
    assert form.status_code == 200
    offered = re.findall(r'name="night" value="(\d+)" checked', form.content.decode())
    assert offered == [str(night.pk) for night in nights]  # every planned night, chosen

    before = schedule_rows()
    refused = organiser_client.post(
        f"/manage/seasons/{season.pk}/schedule/", {"cycles": "1", "rounds_per_night": "2"}
    )
    assert refused.status_code == 400
    assert "Choose the nights to play on." in refused.content.decode()
    assert schedule_rows() == before

    response = organiser_client.post(
        f"/manage/seasons/{season.pk}/schedule/",
        {"night": [night.pk for night in nights[:3]], "cycles": "2", "rounds_per_night": "2"},
    )
    assert response.status_code == 302
    assert response["Location"] == f"/manage/seasons/{season.pk}/schedule/"
    assert schedule_rows() == (1, 4, 12)  # the fourth night stays planned, without games
    assert {game.night_id for game in Game.objects.filter(season=season)} == {
        night.pk for night in nights[:3]
    }
    html = organiser_client.get(f"/manage/seasons/{season.pk}/schedule/").content.decode()
    assert "Every team meets every other twice: 12 games over 3 nights." in html
    assert html.count(">score card</a>") == 12
    assert html.count("<h3>Round 1</h3>") == 3
    assert "Tue 6 Jan 2026" in html

    public = client.get(f"/seasons/{season.pk}/schedule/").content.decode()
    assert public.count("<li ") == 12
    assert "score card" not in public and "/t/" not in public
    assert '<span class="table">Table 1:</span> Team 1 v Team 4' in public


@pytest.mark.parametrize(
    ("rounds", "message"),
    [
        ("40000", "A night holds at most 32767 rounds."),
        ("99999999999999999999", "Rounds a night must be a whole number."),
        ("²", "Rounds a night must be a whole number."),
    ],
)
def test_rounds_a_night_no_column_holds_are_refused(organiser_client, season, rounds, message):
    """Beyond the schedule's small-integer column (an error of the database), a digit ``int``
    refuses: each explained on the form, nothing written."""
    make_teams(season, 4)
    night = Night.objects.create(season=season, date="2026-01-06")
    before = schedule_rows()
    response = organiser_client.post(
        f"/manage/seasons/{season.pk}/schedule/",
        {"night": night.pk, "cycles": "1", "rounds_per_night": rounds},
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert schedule_rows() == before


def test_a_team_nights_desk_points_to_the_schedule_not_to_a_rotation(organiser_client, season):
    from league.models import Night

    make_teams(season, 4)
    night = Night.objects.create(season=season, date="2026-01-06")
    html = organiser_client.get(f"/manage/nights/{night.pk}/").content.decode()
    assert "Plan the rotation" not in html  # partner rotations are for individual seasons
    assert f'<a href="/manage/seasons/{season.pk}/schedule/">season\'s schedule</a>' in html


def test_only_the_leagues_organisers_schedule_its_season(season):
    make_teams(season, 4)
    night = Night.objects.create(season=season, date="2026-01-06")
    stranger = Client()
    stranger.force_login(LeagueRoleFactory().user)
    before = schedule_rows()
    url = f"/manage/seasons/{season.pk}/schedule/"
    assert stranger.get(url).status_code == 403
    body = {"night": night.pk, "cycles": "1", "rounds_per_night": "3"}
    assert stranger.post(url, body).status_code == 403
    assert Client().get(url).status_code == 302  # to the login page
    assert schedule_rows() == before
