"""From a hand's POST to the updated standing, with a real Celery worker, Redis and gunicorn.

Run: ``python benchmarks/bench_standings_latency.py``. Needs PostgreSQL and Redis on 127.0.0.1
(``BENCH_DATABASE_URL`` / ``BENCH_REDIS_URL`` override); creates and drops its own database
``euchre_bench_latency``. Prints its figures; not a test.

Each sample: a game of an individual season (16 players) stands at 0–0 under a rulebook whose
games go to 2, so one march ends it. The benchmark POSTs that march to
``/api/v1/games/<id>/hands/`` through gunicorn, then polls ``GET /api/v1/seasons/<id>/standings/``
(every 20 ms) until the snapshot is at the season's new results version and counts the game's
win. The time from the POST to that GET is one sample; 50 samples, one after another.

The figure includes the recompute's coalescing wait (``scoring.standings.COALESCE_COUNTDOWN``):
a recompute is queued with that countdown so a burst of hands is computed once.
"""

import http.client
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADMIN_URL = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
DATABASE_NAME = "euchre_bench_latency"
DATABASE_URL = ADMIN_URL.rsplit("/", 1)[0] + "/" + DATABASE_NAME
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
PORT = int(os.environ.get("BENCH_LATENCY_PORT", "8766"))
SAMPLES = int(os.environ.get("BENCH_SAMPLES", "50"))
PLAYERS = 16
POLL_SECONDS = 0.02
ENV = {
    **os.environ,
    "DATABASE_URL": DATABASE_URL,
    "REDIS_URL": REDIS_URL,
    "SECRET_KEY": "benchmark-only-" + uuid.uuid4().hex,
    "DEBUG": "0",
    "SECURE_SSL_REDIRECT": "0",
    "ALLOWED_HOSTS": "127.0.0.1",
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "LOG_LEVEL": "ERROR",
    "CELERY_TASK_ALWAYS_EAGER": "0",
    "STATIC_ROOT": str(ROOT / "benchmarks" / ".static"),
    "PYTHONUNBUFFERED": "1",
}


def database(action: str) -> None:
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE_NAME} WITH (FORCE)")
        if action == "create":
            connection.execute(f"CREATE DATABASE {DATABASE_NAME}")


def prepare() -> tuple[str, int, list[int]]:
    import random

    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=ENV, check=True)
    os.environ.update(ENV)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connections
    from rest_framework.authtoken.models import Token

    from league import services as league_services
    from league.models import Season
    from scoring import services as scoring_services

    user = get_user_model().objects.create_user("bench", password=uuid.uuid4().hex)
    league = league_services.league_create(name="Latency league", owner=user)
    rulebook = league_services.rulebook_create(
        league=league, name="Short games", preset="standard", options={"target_score": 2}
    )
    season = league_services.season_create(
        league=league, name="Live", rulebook=rulebook, format=Season.Format.INDIVIDUAL
    )
    players = [
        league_services.player_create(league=league, name=f"Player {n:02}") for n in range(PLAYERS)
    ]
    chance = random.Random(7)
    game_ids = [
        scoring_services.game_create(season=season, seats=tuple(chance.sample(players, 4))).pk
        for _ in range(SAMPLES)
    ]
    connections.close_all()
    return Token.objects.create(user=user).key, season.pk, game_ids


def start(command: list[str], log_name: str) -> subprocess.Popen:
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    log = open(ROOT / "test-artifacts" / log_name, "w")  # noqa: SIM115  (closed with the process)
    return subprocess.Popen(command, cwd=ROOT, env=ENV, stdout=log, stderr=subprocess.STDOUT)


def wait_for_server() -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=2)
            connection.request("GET", "/healthz", headers={"Host": "127.0.0.1"})
            if connection.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not start")


def wait_for_worker() -> None:
    from config.celery import app

    deadline = time.monotonic() + 60
    while not app.control.ping(timeout=1):
        if time.monotonic() > deadline:
            raise SystemExit("no Celery worker: see test-artifacts/bench-worker.log")


def request(connection, method: str, path: str, token: str, body=None):
    headers = {"Host": "127.0.0.1", "Authorization": f"Token {token}"}
    if body is not None:
        headers |= {"Content-Type": "application/json", "Idempotency-Key": uuid.uuid4().hex}
    connection.request(method, path, body=json.dumps(body) if body else None, headers=headers)
    response = connection.getresponse()
    return response.status, json.loads(response.read() or b"null")


def sample(connection, token: str, season_id: int, game_id: int, finished: int) -> float:
    from league.models import Season

    started = time.perf_counter()
    march = {"makers": "A", "tricks_won": 5}
    status, body = request(connection, "POST", f"/api/v1/games/{game_id}/hands/", token, march)
    assert status == 201 and body["game"]["status"] == "finished", (status, body)
    target = Season.objects.values_list("results_version", flat=True).get(pk=season_id)
    deadline = started + 60
    while time.perf_counter() < deadline:
        status, body = request(connection, "GET", f"/api/v1/seasons/{season_id}/standings/", token)
        if status == 200 and body["results_version"] >= target:
            wins = sum(row["wins"] for row in body["standings"]["rows"])
            assert wins == 2 * finished, (wins, finished)  # two winners a game
            return time.perf_counter() - started
        time.sleep(POLL_SECONDS)
    raise SystemExit(f"the standings did not reach version {target} within 60 s")


def main() -> None:
    database("create")
    processes: list[subprocess.Popen] = []
    try:
        token, season_id, game_ids = prepare()
        processes.append(
            start(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "config.wsgi:application",
                    "--bind",
                    f"127.0.0.1:{PORT}",
                    "--workers",
                    "2",
                    "--log-level",
                    "warning",
                ],
                "bench-gunicorn.log",
            )
        )
        processes.append(
            start(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "config",
                    "worker",
                    "--pool=solo",
                    "--loglevel=WARNING",
                    "--without-gossip",
                    "--without-mingle",
                    "-n",
                    f"bench-{uuid.uuid4().hex[:8]}@%h",
                ],
                "bench-worker.log",
            )
        )
        wait_for_server()
        wait_for_worker()
        from scoring.standings import COALESCE_COUNTDOWN

        connection = http.client.HTTPConnection("127.0.0.1", PORT)
        latencies = [
            sample(connection, token, season_id, game_id, finished)
            for finished, game_id in enumerate(game_ids, start=1)
        ]
        latencies.sort()
        p95 = latencies[max(0, int(len(latencies) * 0.95) - 1)]
        print(
            f"POST hand -> updated standing visible via GET (gunicorn 2 workers, 1 Celery worker, "
            f"Redis, PostgreSQL; coalescing wait {COALESCE_COUNTDOWN:.1f} s)"
        )
        print(
            f"{len(latencies)} hands  median {statistics.median(latencies) * 1000:7.1f} ms  "
            f"p95 {p95 * 1000:7.1f} ms  min {latencies[0] * 1000:7.1f} ms  "
            f"max {latencies[-1] * 1000:7.1f} ms"
        )
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
        from django.db import connections

        connections.close_all()
        database("drop")


if __name__ == "__main__":
    main()
