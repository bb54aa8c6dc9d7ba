"""The beat's sweep (``scoring.tasks.sweep_stale_seasons``) finds a season a lost job left stale,
points or standings, and costs what is left to do: the rulebook check reads only the hands still
derived under a superseded rulebook version, not every hand stored."""

import pytest
from django.db import connection

from league.models import Season
from scoring import jobs, services
from scoring.services.season_rules import season_change_rules
from scoring.tasks import seasons_with_stale_points, sweep_stale_seasons
from tests.api.test_standings import team_season, win
from tests.conftest import require
from tests.factories import LeagueFactory, team_game

pytestmark = pytest.mark.django_db


def test_a_rulebook_change_whose_job_was_lost_is_rederived_by_the_sweep(league, monkeypatch):
    season, (first, second, _third) = team_season(league)
    other, (one, two, _three) = team_season(LeagueFactory())
    win(team_game(season, first, second))
    win(team_game(other, one, two))
    assert seasons_with_stale_points() == []
    monkeypatch.setattr(jobs, "send_points_rederive", lambda season_id: False)  # broker down
    season_change_rules(season=season, options={"march_points": 3})
    assert seasons_with_stale_points() == [season.pk]
    sent = []
    monkeypatch.setattr(
        "scoring.tasks.rederive_season_points.delay", lambda season_id: sent.append(season_id)
    )
    monkeypatch.setattr("scoring.tasks.recompute_season_standings.delay", lambda season_id: None)
    monkeypatch.setattr("scoring.tasks.compute_season_race.delay", lambda season_id: None)
    assert sweep_stale_seasons()["rederive"] == [season.pk]
    assert sent == [season.pk]
    services.season_rederive_points(season_id=season.pk)
    assert seasons_with_stale_points() == []


def test_a_season_still_on_a_version_another_season_left_is_not_stale(league, monkeypatch):
    """Two seasons share a rulebook; one moves to a new version: only its hands are stale."""
    season, (first, second, _third) = team_season(league)
    other, (one, two, _three) = team_season(LeagueFactory())
    Season.objects.filter(pk=other.pk).update(rulebook=season.rulebook)
    win(team_game(season, first, second))
    win(team_game(other, one, two))
    monkeypatch.setattr(jobs, "send_points_rederive", lambda season_id: False)
    season.refresh_from_db()
    season_change_rules(season=season, options={"march_points": 3})
    assert seasons_with_stale_points() == [season.pk]


@pytest.mark.services  # the pass on PostgreSQL
def test_the_rulebook_check_reads_hands_through_the_rulebook_index(league):
    require(connection.vendor == "postgresql", "a PostgreSQL plan")
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        seasons_with_stale_points()
    (query,) = captured.captured_queries
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # a tiny table: ask for the index path
        cursor.execute(f"EXPLAIN {query['sql']}")
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "scoring_hand_rulebook_id" in plan, plan
