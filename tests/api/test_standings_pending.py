"""No change is lost between a change and a recompute (``scoring.standings.services.recompute``, *no
change lost*): a change asks for a run after it commits (``cache.add`` of the season's pending key;
the one that set it sends the job), and a run clears the key before it reads. So a change committed
while a run is in progress is either read by that run or queues the next one; never neither."""

from unittest import mock

import pytest
from django.core.cache import cache

from scoring.games import jobs, services
from scoring.games.jobs import standings_recompute_soon
from scoring.games.models import ResultChange
from scoring.standings.models import StandingGame
from scoring.standings.services import shares
from scoring.standings.services.recompute import season_standings_recompute
from tests.api.test_standings import team_season, win
from tests.factories import team_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def broker(monkeypatch):
    """Jobs go to a broker (recorded here) instead of running in process, as on a deployment."""
    from config.celery import app

    eager, app.conf.task_always_eager = app.conf.task_always_eager, False
    cache.clear()
    sent = []
    monkeypatch.setattr(
        jobs,
        "send_standings_recompute",
        lambda season_id, countdown=None: sent.append(season_id) or True,
    )
    yield sent
    app.conf.task_always_eager = eager


def during_the_run(action):
    """Run ``action`` inside the next recompute, after it cleared the key and counted the
    shares (as a change another process commits while the run is in progress)."""
    real = shares.shares_replace

    def replace_then_act(season, game_ids):
        counted = real(season, game_ids)
        action()
        return counted

    return mock.patch.object(shares, "shares_replace", replace_then_act)


def test_a_burst_queues_one_run(broker, league):
    season, _teams = team_season(league)
    assert standings_recompute_soon(season.pk) is True
    assert standings_recompute_soon(season.pk) is False
    assert broker == [season.pk]


def test_a_change_while_a_run_reads_queues_the_next_run_and_is_folded_by_it(broker, league):
    season, (first, second, third) = team_season(league)
    win(team_game(season, first, second))
    assert standings_recompute_soon(season.pk) is True  # the run below is this job
    late = team_game(season, second, third)
    asked = []

    def finish_late_game():
        win(late)  # commits its change (a ResultChange row) while the run is in progress
        asked.append(standings_recompute_soon(season.pk))  # its on-commit call

    with during_the_run(finish_late_game):
        assert season_standings_recompute(season_id=season.pk) is not None
    assert asked == [True]  # the run had cleared the key: the change queued the next run
    assert broker == [season.pk, season.pk]
    assert ResultChange.objects.filter(season=season, game=late).exists()  # still pending
    assert not StandingGame.objects.filter(game=late).exists()
    assert season_standings_recompute(season_id=season.pk) is not None  # the queued run
    assert StandingGame.objects.filter(game=late).exists()
    assert not ResultChange.objects.filter(season=season).exists()


def test_a_change_before_the_run_clears_the_key_is_read_by_the_run(broker, league):
    season, (first, second, _third) = team_season(league)
    game = team_game(season, first, second)
    assert standings_recompute_soon(season.pk) is True
    win(game)  # committed while the job waits in the queue
    assert standings_recompute_soon(season.pk) is False  # coalesced into the queued run
    season_standings_recompute(season_id=season.pk)
    assert StandingGame.objects.filter(game=game).exists()
    assert not ResultChange.objects.filter(season=season).exists()
    assert broker == [season.pk]


def test_a_run_clears_the_key_before_it_reads_anything(broker, league, monkeypatch):
    from django.core.cache import caches
    from django.db import connection

    season, (first, second, _third) = team_season(league)
    win(team_game(season, first, second))
    standings_recompute_soon(season.pk)
    events = []
    default = caches["default"]
    delete = default.delete
    monkeypatch.setattr(
        default, "delete", lambda key, *a: events.append(("cleared", key)) or delete(key)
    )

    def log_statement(execute, sql, params, many, context):
        events.append(("read", sql.split()[0]))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(log_statement):
        season_standings_recompute(season_id=season.pk)
    assert events[0] == ("cleared", f"standings:pending:{season.pk}")
    assert events[1][0] == "read"


def test_a_send_that_failed_leaves_the_key_free(broker, league, monkeypatch):
    season, _teams = team_season(league)
    monkeypatch.setattr(jobs, "send_standings_recompute", lambda season_id, countdown=None: False)
    assert standings_recompute_soon(season.pk) is False
    monkeypatch.setattr(
        jobs,
        "send_standings_recompute",
        lambda season_id, countdown=None: broker.append(season_id) or True,
    )
    assert standings_recompute_soon(season.pk) is True  # the next change queues it
    assert broker == [season.pk]


def test_nothing_in_the_recompute_sleeps(league, monkeypatch):
    import time

    monkeypatch.setattr(time, "sleep", lambda seconds: pytest.fail("the recompute slept"))
    season, (first, second, _third) = team_season(league)
    win(team_game(season, first, second))
    assert standings_recompute_soon(season.pk) is True  # eager: runs in process
    services.hand_record(
        game=team_game(season, first, second), data=services.HandInput(makers="A", tricks_won=3)
    )
    assert season_standings_recompute(season_id=season.pk) is not None
