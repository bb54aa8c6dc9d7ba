"""The beat's sweep (``scoring.standings.tasks.sweep_stale_seasons``) finds a season a lost job left
stale, points or standings, and costs what is left to do: the rulebook check reads only the hands
still derived under a superseded rulebook version and the hands of seasons whose snapshot was ranked
under another rulebook (or that have none), not every hand stored."""

import pytest
from django.db import connection

from league.models import Season
from scoring.games import jobs, services
from scoring.games.services.season_rules import season_change_rules
from scoring.standings.models import StandingSnapshot
from scoring.standings.services.recompute import season_standings_recompute
from scoring.standings.tasks import seasons_with_stale_points, sweep_stale_seasons
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
        "scoring.standings.tasks.rederive_season_points.delay",
        lambda season_id: sent.append(season_id),
    )
    monkeypatch.setattr(jobs, "send_standings_recompute", lambda season_id, countdown=None: True)
    monkeypatch.setattr(jobs, "send_race_compute", lambda season_id, countdown=None: True)
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


@pytest.mark.parametrize("recomputed", [False, True])
def test_a_season_moved_to_another_rulebook_altogether_is_stale(league, recomputed):
    """A rulebook chosen with no link to the old one (no ``previous``: e.g. in the admin), no
    re-derivation asked for: the season is stale, whether it has a snapshot (ranked under the
    old rulebook) or none yet; re-derived, it is not."""
    from tests.factories import RulebookFactory

    season, (first, second, _third) = team_season(league)
    win(team_game(season, first, second))
    if recomputed:
        season_standings_recompute(season_id=season.pk, force=True)
    else:
        StandingSnapshot.objects.filter(season=season).delete()
    other = RulebookFactory(league=league, slug="standard", options=season.rulebook.options)
    Season.objects.filter(pk=season.pk).update(rulebook=other)
    assert seasons_with_stale_points() == [season.pk]
    services.season_rederive_points(season_id=season.pk)
    assert seasons_with_stale_points() == []


@pytest.mark.services  # the pass on PostgreSQL
def test_the_rulebook_check_reads_hands_through_the_rulebook_index(league, monkeypatch):
    """The check reads the hands under superseded versions through the hand's rulebook index,
    then only their games, by key: never every game."""
    require(connection.vendor == "postgresql", "a PostgreSQL plan")
    from django.test.utils import CaptureQueriesContext

    season, (first, second, _third) = team_season(league)
    win(team_game(season, first, second))
    monkeypatch.setattr(jobs, "send_points_rederive", lambda season_id: False)
    season_change_rules(season=season, options={"march_points": 3})
    with CaptureQueriesContext(connection) as captured:
        assert seasons_with_stale_points() == [season.pk]
    queries = captured.captured_queries
    plans = []
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # tiny tables: ask for the index path
        for query in (queries[0], queries[-1]):
            cursor.execute(f"EXPLAIN {query['sql']}")
            plans.append("\n".join(row[0] for row in cursor.fetchall()))
    assert "scoring_hand_rulebook_id" in plans[0], plans[0]  # the superseded versions' hands
    assert "scoring_game" not in plans[0], plans[0]
    assert "scoring_game_pkey" in plans[1], plans[1]  # then only their games, by key


def test_the_sweep_does_not_queue_a_recompute_already_queued(
    league, monkeypatch, django_capture_on_commit_callbacks
):
    """A season with changes pending whose recompute is queued (its pending key set) gets no second
    one from the sweep: with the beat sweeping while a large season's fold runs, duplicates once
    held every worker process. Once the key is gone (run started, or expired after a lost message),
    the next sweep sends it."""
    from django.core.cache import cache

    season, (first, second, _third) = team_season(league)
    sent = []
    monkeypatch.setattr(
        jobs,
        "send_standings_recompute",
        lambda season_id, countdown=None: sent.append(season_id) or True,
    )
    monkeypatch.setattr(  # a job sent around the coalescing is counted too
        "scoring.standings.tasks.recompute_season_standings.delay",
        lambda season_id: sent.append(season_id),
    )
    monkeypatch.setattr(jobs, "send_race_compute", lambda season_id, countdown=None: True)
    cache.clear()
    with django_capture_on_commit_callbacks(execute=True):
        win(team_game(season, first, second))  # its own ask queues the recompute (recorded)
    assert sent == [season.pk]
    assert sweep_stale_seasons()["recompute"] == [season.pk]  # stale, and already queued
    assert sent == [season.pk]
    jobs.standings_pending_clear(season.pk)  # the queued run started (or its key expired)
    sweep_stale_seasons()
    assert sent == [season.pk, season.pk]
