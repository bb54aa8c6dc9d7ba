"""A league night goes on while Redis hangs, and the standings catch up when it is back.

The test starts a Redis of its own (never the machine's shared one), points the app's cache and
Celery broker at it, starts a real worker on it, then freezes that Redis with SIGSTOP: it accepts
connections but never answers, the worst kind of outage (every call waits for its timeout).
While it hangs: the captain page opens and records hands, the public standings page renders from
the stored snapshot, the API records a hand, ``/healthz`` answers 503 within a second naming the
broker and the cache, and wrong captain links are still limited (by the per-process fallback).
Then Redis wakes up (SIGCONT) and the beat sweep, sent as beat sends it, has the worker recompute
the season, so the standings show the game finished during the outage.

The measured timings are printed (``-s``) and written to test-artifacts/outage-timings.txt.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
from html import unescape

import pytest
from django.core.cache import caches

from league.models import Team
from scoring.games.models import Hand
from scoring.games.selectors import season_results_version
from scoring.standings.models import StandingSnapshot
from scoring.standings.tasks import sweep_stale_seasons
from tests.conftest import require
from tests.factories import team_game
from tests.integration.conftest import (
    ROOT,
    _database_url_for_tests,
    start_worker,
    stop_worker,
    wait_for,
)
from tests.pages.test_public_pages import known, standing_rows  # noqa: F401

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

REDIS_SERVER = "/usr/bin/redis-server"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def own_redis():
    require(bool(os.environ.get("DATABASE_URL")), "needs DATABASE_URL (PostgreSQL)")
    require(os.path.exists(REDIS_SERVER), "redis-server is not installed")
    port = free_port()
    options = ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no"]
    server = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), *options],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    import redis

    url = f"redis://127.0.0.1:{port}/0"
    wait_for(lambda: _pings(redis.Redis.from_url(url, socket_timeout=0.2)), timeout=10)
    yield url, server
    server.send_signal(signal.SIGCONT)
    server.kill()
    server.wait(timeout=10)


def _pings(client) -> bool:
    try:
        return client.ping()
    except redis_errors():
        return False


def redis_errors():
    import redis

    return (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


@pytest.fixture
def app_on_own_redis(own_redis, settings, django_db_blocker):
    """The web app (this process) and a real worker both on the test's own Redis."""
    from config.celery import app

    url, server = own_redis
    settings.CACHES = {
        **settings.CACHES,
        "default": {**settings.CACHES["default"], "LOCATION": url},
    }
    previous = app.conf.broker_url
    app.conf.broker_url = url
    app._after_fork()  # forget pooled connections to the old broker
    with django_db_blocker.unblock():
        database_url = _database_url_for_tests()
    worker, log = start_worker(
        database_url=database_url, broker_url=url, name="outage-worker", log_name="outage-worker"
    )
    try:
        yield server
    finally:
        stop_worker(worker, log)
        app.conf.broker_url = previous
        app._after_fork()


def timed(call):
    started = time.perf_counter()
    result = call()
    return result, time.perf_counter() - started


def hand_fields(html: str) -> dict:
    return {
        "key": re.search(r'name="key" value="([^"]+)"', html).group(1),
        "number": re.search(r'name="number" value="(\d+)"', html).group(1),
    }


def test_a_night_goes_on_while_redis_hangs_and_standings_catch_up(
    app_on_own_redis,
    client,
    api,
    known,  # noqa: F811
    settings,
):
    server = app_on_own_redis
    season, playing = known["season"], known["games"][2]  # Aces v Clubs, 4–0 after one hand
    card = f"/t/{playing.captain_token}/"
    settings.CAPTAIN_TOKEN_GUESSES_PER_MINUTE = "3/m"
    address = "198.51.100.23"
    assert client.get("/healthz").status_code == 200
    time.sleep(2.5)  # the recomputes the fixture's hands queued have run (nothing was newer)
    timings: dict[str, float] = {}

    server.send_signal(signal.SIGSTOP)  # Redis hangs: connections open, no answers
    try:
        health, timings["healthz, first call"] = timed(lambda: client.get("/healthz"))
        health_again, timings["healthz, second call"] = timed(lambda: client.get("/healthz"))
        for response in (health, health_again):
            assert response.status_code == 503
            body = response.json()
            assert body["status"] == "down" and body["database"] == "ok"
            assert body["broker"].startswith("down") and body["cache"].startswith("down")

        page, timings["captain page GET"] = timed(lambda: client.get(card))
        assert page.status_code == 200
        aces = known["teams"]["Aces"]
        for facts in ({"caller_alone": "on", "tricks_won": "5"}, {"tricks_won": "5"}):
            fields = hand_fields(client.get(card).content.decode())
            posted, took = timed(
                lambda fields=fields, facts=facts: client.post(
                    f"{card}hands/", {**fields, **facts, "caller": aces.player_two_id}
                )
            )
            timings[f"captain hand {fields['number']} POST"] = took
            assert posted.status_code == 303, posted.content.decode()[:500]
        playing.refresh_from_db()
        assert (playing.score_a, playing.score_b, playing.status) == (10, 0, "finished")

        standings, timings["season standings page GET"] = timed(lambda: client.get(known["base"]))
        assert standings.status_code == 200
        rows = standing_rows(unescape(standings.content.decode()))
        assert rows[0].startswith("1 Aces") and "1–0" in rows[0]  # the stored snapshot

        spare = team_game(season, known["teams"]["Bowers"], aces)
        by_api, timings["API hand POST"] = timed(
            lambda: api.post(
                f"/api/v1/games/{spare.pk}/hands/",
                {"makers": "A", "tricks_won": 3, "number": 1},
                format="json",
                HTTP_IDEMPOTENCY_KEY="outage-1",
                HTTP_X_CAPTAIN_TOKEN=spare.captain_token,
            )
        )
        assert by_api.status_code == 201, by_api.json()
        assert Hand.objects.filter(game=spare).count() == 1

        for guess in range(3):
            assert client.get(f"/t/guess-{guess}/", REMOTE_ADDR=address).status_code == 404
        limited, timings["wrong link, 4th (limited)"] = timed(
            lambda: client.get("/t/guess-3/", REMOTE_ADDR=address)
        )
        assert limited.status_code == 429
        assert int(limited["Retry-After"]) >= 1
        # Only wrong links wait: the table's own link still opens from that address.
        assert client.get(card, REMOTE_ADDR=address).status_code == 200
    finally:
        server.send_signal(signal.SIGCONT)

    version = season_results_version(season_id=season.pk)  # the hands logged while Redis was down
    assert StandingSnapshot.objects.get(season=season).results_version < version
    caches["default"].clear()  # pages cached during the outage lived in this process only

    # Redis is back: beat sends the sweep, the worker finds the stale season and recomputes it.
    started = time.perf_counter()
    wait_for(lambda: _sent(sweep_stale_seasons), timeout=30)
    wait_for(
        lambda: (
            StandingSnapshot.objects.get(season=season).results_version
            == season_results_version(season_id=season.pk)
            >= version
        ),
        timeout=60,
    )
    timings["recovery: sweep sent -> snapshot current"] = time.perf_counter() - started
    final = standing_rows(unescape(client.get(known["base"]).content.decode()))
    assert final[:2] == [
        "1 Aces won more often than Clubs Ahead of Clubs on win percentage (1.000 to 0.500)."
        " 2–0 100% 22 +22",
        "2 Clubs won less often than Aces Behind Aces on win percentage (0.500 to 1.000)."
        " 1–1 50% 10 0",
    ]
    assert Team.objects.filter(season=season).count() == 3

    report = "\n".join(f"{name}: {seconds:.3f} s" for name, seconds in timings.items())
    print(f"\nRedis outage timings (Redis frozen with SIGSTOP):\n{report}")
    (ROOT / "test-artifacts" / "outage-timings.txt").write_text(report + "\n")
    assert timings["healthz, first call"] < 1.0, report
    assert timings["healthz, second call"] < 1.0, report


def _sent(task) -> bool:
    """Send ``task`` as beat does; a connection left broken by the outage may fail once."""
    from core.enqueue import enqueue_safely

    return enqueue_safely(task)
