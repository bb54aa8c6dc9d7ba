"""The change log under real concurrency on PostgreSQL: tables of one season never wait on each
other, and a change is pending from the moment it commits, whatever order the transactions
took their ids in (the failure a counter like ``max(id)`` has)."""

import threading

import pytest
from django.db import connection, transaction

from scoring.games import jobs, services
from scoring.games.models import ResultChange
from scoring.games.selectors import season_results_version
from scoring.standings.models import StandingSnapshot
from scoring.standings.services.recompute import season_standings_recompute, stale_season_ids
from tests.conftest import require

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def no_jobs_sent(monkeypatch):
    """These tests fold the changes themselves, at chosen moments: the recompute and race jobs a
    hand asks for are not sent, so no worker (the session's, consuming this process's Redis
    database) folds them behind the test's back, nor still holds the tables' locks when the
    test's database is flushed (a TRUNCATE once deadlocked with such a job)."""
    monkeypatch.setattr(jobs, "send_standings_recompute", lambda *args, **kwargs: True)
    monkeypatch.setattr(jobs, "send_race_compute", lambda *args, **kwargs: True)


def hand(game, makers="A"):
    return services.hand_record(game=game, data=services.HandInput(makers=makers, tricks_won=3))


@pytest.fixture
def two_tables(make_game, settings):
    require(settings.DATABASES["default"]["ENGINE"].endswith("postgresql"), "needs PostgreSQL")
    first = make_game("standard")
    return first, make_game("standard", season=first.season)


def test_a_change_that_commits_after_a_later_one_is_still_folded(two_tables):
    first, second = two_tables
    season_id = first.season_id
    started, release, finished = threading.Event(), threading.Event(), threading.Event()
    errors = []

    def slow_table():
        """Records a hand (taking the lower change id) and holds its transaction open."""
        try:
            with transaction.atomic():
                hand(first)
                started.set()
                assert release.wait(10)
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()
            finished.set()

    thread = threading.Thread(target=slow_table)
    thread.start()
    assert started.wait(10)
    with connection.cursor() as cursor:  # a lock on the season's row would fail this table
        cursor.execute("SET lock_timeout = '2s'")
    hand(second)  # the higher id, committed first
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = 0")

    [fast_id] = ResultChange.objects.values_list("pk", flat=True)  # the slow one is not visible
    early = season_standings_recompute(season_id=season_id)
    assert early is not None and not ResultChange.objects.exists()
    release.set()
    assert finished.wait(10)
    thread.join()
    assert not errors, errors

    # The slow table's change committed after the recompute read: it is pending, the season is
    # stale, and the next run folds it.
    [slow_id] = ResultChange.objects.values_list("pk", flat=True)
    assert slow_id < fast_id
    assert season_id in stale_season_ids()
    assert season_results_version(season_id=season_id) == early.results_version + 1
    late = season_standings_recompute(season_id=season_id)
    assert late is not None and late.results_version == early.results_version + 1
    assert not ResultChange.objects.exists()
    assert season_id not in stale_season_ids()
    assert season_standings_recompute(season_id=season_id) is None
    assert StandingSnapshot.objects.get(season_id=season_id).results_version == 2


def test_a_run_that_finds_another_folding_gives_way_and_the_fold_runs_again(
    two_tables, monkeypatch
):
    """Two runs of one season at once (a worker's two processes under a busy night): the second
    finds the first's fold lock held and returns at once, without waiting (it used to wait,
    holding a worker process that other seasons' runs queued behind), having asked the first
    to run again. The first, once committed, queues the next run at once (no countdown), and that
    run folds the change committed while the first folded: nothing is left pending."""
    from unittest import mock

    from scoring.standings.services import shares

    first, second = two_tables
    season_id = first.season_id
    hand(first)
    assert season_standings_recompute(season_id=season_id) is not None
    hand(first)
    sent = []
    monkeypatch.setattr(
        jobs, "send_standings_recompute", lambda *args, **kwargs: sent.append(kwargs) or True
    )
    folding, release = threading.Event(), threading.Event()
    real = shares.shares_replace

    def held_replace(season, game_ids):
        if not folding.is_set():  # the first run only: it holds the fold lock here
            folding.set()
            assert release.wait(10)
        return real(season, game_ids)

    results, errors = {}, []

    def run(name):
        try:
            results[name] = season_standings_recompute(season_id=season_id)
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    with mock.patch.object(shares, "shares_replace", held_replace):
        running = threading.Thread(target=run, args=("first",))
        running.start()
        assert folding.wait(10)
        hand(second)  # committed while the first run folds: it is not in its read
        sent.clear()  # (the hand's own ask: the pending key was cleared by the first run)
        giving_way = threading.Thread(target=run, args=("second",))
        giving_way.start()
        giving_way.join(5)
        assert not giving_way.is_alive(), "the second run waited for the first's fold"
        assert results["second"] is None and sent == []  # nothing folded, nothing sent yet
        release.set()
        running.join(10)
    assert not errors, errors
    assert results["first"] is not None and results["first"].results_version == 2
    assert sent == [{"countdown": None}]  # the first, after its commit: the next run, at once
    assert ResultChange.objects.count() == 1  # the change the first run did not read
    jobs.standings_pending_clear(season_id)  # the sent run, as a worker runs it:
    again = season_standings_recompute(season_id=season_id)
    assert again is not None and again.results_version == 3
    assert not ResultChange.objects.exists()
    assert StandingSnapshot.objects.get(season_id=season_id).results_version == 3
