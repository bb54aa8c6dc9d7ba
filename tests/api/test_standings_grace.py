"""The pending key's grace (``scoring.standings``): a process that found or set a season's pending
key asks Redis nothing more for ``PENDING_SEEN_FOR`` seconds, and a run waits ``PENDING_GRACE``
after clearing the key before it reads the changes, so no change trusted to a run is missed."""

import time

import pytest
from django.core.cache import cache, caches
from django.db import connection

from scoring import jobs, services, standings
from scoring.models import ResultChange
from scoring.standings import PENDING_GRACE, PENDING_SEEN_FOR, standings_recompute_soon
from tests.api.test_standings import team_season, win
from tests.factories import SeasonFactory, team_game

pytestmark = pytest.mark.django_db


class Clock:
    """Stands in for ``scoring.standings``' ``time``: a monotonic clock that moves only when told
    (``now``; the real one if ``None``), and a ``sleep`` that records (in ``slept``) instead of
    sleeping, or fails the test if ``slept`` is ``None``."""

    def __init__(self, now: float | None = None, slept: list | None = None):
        self.now, self.slept = now, slept

    def monotonic(self) -> float:
        return time.monotonic() if self.now is None else self.now

    def perf_counter(self) -> float:
        return time.perf_counter()

    def sleep(self, seconds: float) -> None:
        if self.slept is None:
            pytest.fail("an in-process run waited")
        self.slept.append(("slept", seconds))


@pytest.fixture
def broker(monkeypatch):
    """Jobs go to a broker (recorded here) instead of running in process, as on a real
    deployment; the cache's ``add`` calls (Redis round trips there) are counted."""
    from config.celery import app

    eager, app.conf.task_always_eager = app.conf.task_always_eager, False
    monkeypatch.setattr(standings, "_pending_seen", {})
    cache.clear()
    sent, adds = [], []
    monkeypatch.setattr(
        jobs,
        "send_standings_recompute",
        lambda season_id, countdown=None: sent.append(season_id) or True,
    )
    default = caches["default"]
    add = default.add
    monkeypatch.setattr(default, "add", lambda *args, **kwargs: adds.append(args[0]) or add(*args))
    yield sent, adds
    app.conf.task_always_eager = eager


def test_the_trust_ends_before_a_run_can_read():
    assert 0 < PENDING_SEEN_FOR < PENDING_GRACE


def test_within_the_grace_a_change_asks_redis_nothing(broker, league, monkeypatch):
    sent, adds = broker
    monkeypatch.setattr(standings, "time", Clock(now=10.0))  # a slow machine's pauses: no matter
    season, other = SeasonFactory(league=league), SeasonFactory(league=league)
    assert standings_recompute_soon(season.pk) is True
    assert standings_recompute_soon(season.pk) is False
    assert standings_recompute_soon(season.pk) is False
    assert standings_recompute_soon(other.pk) is True  # each season on its own
    assert sent == [season.pk, other.pk]
    assert len(adds) == 2


def test_a_process_that_found_the_key_set_trusts_it_too(broker, league, monkeypatch):
    sent, adds = broker
    monkeypatch.setattr(standings, "time", Clock(now=10.0))
    season, _teams = team_season(league)
    cache.add(f"standings:pending:{season.pk}", 1)  # queued by another process
    adds.clear()
    assert standings_recompute_soon(season.pk) is False
    assert standings_recompute_soon(season.pk) is False
    assert (sent, len(adds)) == ([], 1)


def test_after_the_trust_ends_redis_is_asked_again(broker, league, monkeypatch):
    _sent, adds = broker
    season, _teams = team_season(league)
    clock = Clock(now=1000.0)
    monkeypatch.setattr(standings, "time", clock)
    standings_recompute_soon(season.pk)
    clock.now += PENDING_SEEN_FOR * 0.99
    standings_recompute_soon(season.pk)
    assert len(adds) == 1
    clock.now += PENDING_SEEN_FOR * 0.02
    standings_recompute_soon(season.pk)
    assert len(adds) == 2


def test_a_run_clears_the_key_waits_out_the_grace_then_reads(broker, league, monkeypatch):
    """The order that makes the trust safe: the key is cleared, the run sleeps the grace, and
    only then reads anything (the first statement of the run comes after the sleep)."""
    season, (first, second, _third) = team_season(league)
    win(team_game(season, first, second))
    assert standings_recompute_soon(season.pk) is True  # the key the run clears
    events = []
    default = caches["default"]
    delete = default.delete
    monkeypatch.setattr(
        default, "delete", lambda key, *a: events.append(("cleared", key)) or delete(key)
    )
    monkeypatch.setattr(standings, "time", Clock(slept=events))

    def log_statement(execute, sql, params, many, context):
        events.append(("read", sql.split()[0]))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(log_statement):
        standings.season_standings_recompute(season_id=season.pk)
    assert events[:3] == [
        ("cleared", f"standings:pending:{season.pk}"),
        ("slept", PENDING_GRACE),
        ("read", "SELECT"),
    ]


def test_a_change_after_a_run_cleared_the_key_queues_the_next_run(broker, league):
    """A process trusted the key; a run then cleared it: the run's wait outlasts the trust, so
    the very next change after the run asks Redis and queues the next run."""
    sent, adds = broker
    season, (first, second, _third) = team_season(league)
    game = team_game(season, first, second)
    services.hand_record(game=game, data=services.HandInput(makers="A", tricks_won=3))
    assert standings_recompute_soon(season.pk) is True
    standings.season_standings_recompute(season_id=season.pk)  # the queued run (really waits)
    assert not ResultChange.objects.filter(season=season).exists()
    services.hand_record(game=game, data=services.HandInput(makers="B", tricks_won=3))
    assert standings_recompute_soon(season.pk) is True
    assert sent == [season.pk, season.pk]
    assert len(adds) == 2


def test_a_send_that_failed_is_not_trusted(broker, league, monkeypatch):
    _sent, adds = broker
    season, _teams = team_season(league)
    monkeypatch.setattr(jobs, "send_standings_recompute", lambda season_id, countdown=None: False)
    assert standings_recompute_soon(season.pk) is False
    assert standings_recompute_soon(season.pk) is False
    assert len(adds) == 2  # asked again: nothing was queued to trust


def test_in_process_jobs_trust_nothing_and_never_wait(league, monkeypatch):
    """Eager mode (the embedded shape): a run is part of the request that asks for it."""
    monkeypatch.setattr(standings, "_pending_seen", {})
    monkeypatch.setattr(standings, "time", Clock(slept=None))
    season, (first, second, _third) = team_season(league)
    win(team_game(season, first, second))
    assert standings_recompute_soon(season.pk) is True  # runs it, in process
    assert standings_recompute_soon(season.pk) is True
    assert standings._pending_seen == {}


def test_only_so_many_seasons_are_remembered(broker, league, monkeypatch):
    monkeypatch.setattr(standings, "_MOST_SEEN", 3)
    clock = Clock(now=50.0)
    monkeypatch.setattr(standings, "time", clock)
    for season_id in (1, 2, 3):
        standings_recompute_soon(season_id)
    clock.now += 1
    standings_recompute_soon(4)
    assert set(standings._pending_seen) == {4}


def test_a_run_with_no_key_to_clear_does_not_wait(broker, league, monkeypatch):
    """No process can be trusting a key that is not there: a sweep over many seasons (or
    ``recompute_standings --all``) waits for none of them."""
    season, (first, second, _third) = team_season(league)
    win(team_game(season, first, second))
    monkeypatch.setattr(standings, "time", Clock(slept=None))  # a wait fails the test
    snapshot = standings.season_standings_recompute(season_id=season.pk)
    assert snapshot is not None


def test_a_queued_run_waits_even_when_its_key_is_gone(broker, league, monkeypatch):
    """The job's key may have expired while it waited in a long queue, or Redis answered its
    clearing too late: a process may still trust it, so the job waits all the same."""
    from scoring.tasks import recompute_season_standings

    season, (first, second, _third) = team_season(league)
    win(team_game(season, first, second))
    events = []
    monkeypatch.setattr(standings, "time", Clock(slept=events))
    assert recompute_season_standings(season.pk) is not None  # no key in the cache
    assert events == [("slept", PENDING_GRACE)]
