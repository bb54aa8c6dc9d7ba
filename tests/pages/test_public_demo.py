"""The demo league shows standings, stats and a chart on its public pages; it holds a bracket
in play, a team schedule and a published rotation, and says where to look, quietly."""

import re
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command

from league.models import League, Player, Season
from scoring.games.models import Game
from tournaments.models import Bracket, BracketMatch, NightPlan, TeamSchedule

pytestmark = pytest.mark.django_db


def test_the_demo_league_shows_standings_stats_and_a_chart(client):
    out = StringIO()
    call_command("demo_league", stdout=out)
    season = League.objects.get(slug="rosies").seasons.get(name="Fall 2026")
    assert f"/l/rosies/s/{season.pk}/" in out.getvalue()
    assert season.nights.count() == 3
    body = client.get(f"/l/rosies/s/{season.pk}/").content.decode()
    ranks = re.findall(r'<td class="rank">(\d+)</td>', body)
    assert ranks == ["1", "2", "3", "4"]
    assert len(re.findall(r'<path class="series"', body)) == 4
    assert 'hx-trigger="every 5s"' in body  # a game is still being played
    assert "Playing now" in body
    alice = Player.objects.get(name="Alice Park")
    player = client.get(f"/l/rosies/players/{alice.pk}/").content.decode()
    assert "<dt>Calls / made</dt>" in player and "Rating <b>" in player
    call_command("demo_league", stdout=StringIO())  # idempotent: loads nothing twice
    assert League.objects.filter(slug="rosies").count() == 1


def test_the_demo_holds_a_bracket_in_play_a_schedule_and_a_published_rotation(client):
    call_command("demo_league", stdout=StringIO())
    league = League.objects.get(slug="rosies")
    teams_season = league.seasons.get(format=Season.Format.TEAMS)
    bracket = Bracket.objects.get(season=teams_season)
    assert bracket.status == Bracket.Status.PUBLISHED
    decided = bracket.matches.filter(status=BracketMatch.Status.DECIDED).count()
    assert decided == 2  # both semi-finals
    final_games = Game.objects.filter(bracket_link__match__bracket=bracket).exclude(
        status=Game.Status.FINISHED
    )
    assert [game.status for game in final_games] == [Game.Status.IN_PROGRESS]
    assert TeamSchedule.objects.filter(season=teams_season).exists()
    assert Game.objects.filter(season=teams_season, night__isnull=False).count() == 6
    page = client.get(f"/brackets/{bracket.pk}/")
    assert page.status_code == 200 and "Fall Cup" in page.content.decode()

    social = league.seasons.get(format=Season.Format.INDIVIDUAL)
    night = social.nights.get()
    assert NightPlan.objects.get(night=night).status == NightPlan.Status.PUBLISHED
    body = client.get(f"/nights/{night.pk}/").content.decode()
    assert "The rotation is not published yet" not in body
    assert "Find my seat" in body


def test_a_team_night_shows_its_games_not_a_rotation(client):
    call_command("demo_league", stdout=StringIO())
    season = League.objects.get(slug="rosies").seasons.get(format=Season.Format.TEAMS)
    night = season.nights.order_by("date").last()
    body = client.get(f"/nights/{night.pk}/").content.decode()
    assert "The rotation is not published yet" not in body
    assert body.count('<li class="game') == 2
    assert "in progress" in body


@pytest.mark.django_db(transaction=True)  # commits, so the tasks run (eagerly) as in `make demo`
def test_the_demo_prints_every_door_and_nothing_else(caplog):
    out = StringIO()
    call_command("demo_league", stdout=out)
    printed = out.getvalue()
    for address in ["/manage/", "http://127.0.0.1:8000/\n", "/api/docs/", "/t/"]:
        assert address in printed, address
    assert len(printed.strip().splitlines()) <= 12
    # Celery's line per task ("Task … succeeded in …") and the recompute's stay out of the
    # embedded shape's console (eager tasks log warnings only); a worker's shape (the suite's
    # second pass reads settings made for PostgreSQL and Redis) logs them at INFO.
    if settings.CELERY_TASK_ALWAYS_EAGER:
        assert [record.getMessage() for record in caplog.records if record.levelno < 30] == []
