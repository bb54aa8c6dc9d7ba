"""From a hand's POST to the updated standing, at 1M hands, with a real Celery worker, Redis and
gunicorn; side by side with the same pipeline on a fresh season (the floor) in the same run.

Run: ``python benchmarks/bench_standings_latency.py`` (or ``make bench``). Needs PostgreSQL and
Redis on 127.0.0.1 (``BENCH_DATABASE_URL`` / ``BENCH_REDIS_URL`` override); creates and drops its
own database ``euchre_bench_latency`` (``BENCH_KEEP=1`` keeps it and reuses a kept one).
``BENCH_HANDS`` sizes the large season (default 1,000,000). Prints its figures; not a test.

- *large*: the individual season of ``bench_standings_pg`` (1,000 players, ``BENCH_HANDS`` hands
  already played and folded into its snapshot).
- *floor*: a fresh season of 16 players in the same league: the same POST, queue, worker and GET,
  with almost nothing to fold.

Each sample: a game of one hand (a night's game length of one hand) stands at 0–0; the benchmark
POSTs a march to ``/api/v1/games/<id>/hands/`` through gunicorn, which ends it, then polls
``GET /api/v1/seasons/<id>/standings/?limit=1`` every 20 ms until the snapshot is at the season's
results version read just after the POST. The time from the POST to that GET is one sample;
the two seasons' samples alternate. The figures include the recompute's coalescing wait
(``scoring.games.jobs.COALESCE_COUNTDOWN``).
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
sys.path.insert(0, str(ROOT))
os.environ.setdefault("BENCH_DATABASE_NAME", "euchre_bench_latency")
os.environ.setdefault("BENCH_HANDS", "1000000")

from benchmarks import bench_standings_pg as big  # noqa: E402  (reads the two settings above)

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
PORT = int(os.environ.get("BENCH_LATENCY_PORT", "8766"))
SAMPLES = int(os.environ.get("BENCH_SAMPLES", "30"))
POLL_SECONDS = 0.02
ENV = {
    **os.environ,
    **big.ENV,
    "REDIS_URL": REDIS_URL,
    "SECURE_SSL_REDIRECT": "0",
    "ALLOWED_HOSTS": "127.0.0.1",
    "CELERY_TASK_ALWAYS_EAGER": "0",
    "STATIC_ROOT": str(ROOT / "benchmarks" / ".static"),
    "PYTHONUNBUFFERED": "1",
    "CELERY_LOG_LEVEL": "INFO",
}


def prepare() -> tuple[str, dict[str, tuple[int, list[int]]], float]:
    """The token, per season its id and the games to end, and one full recompute's seconds."""
    import random

    import redis

    kept = big.DATABASE.recreate(keep=big.KEEP)
    big.setup_django(big.ENV, without=("REDIS_URL",))
    from django.contrib.auth import get_user_model
    from django.db import connections
    from rest_framework.authtoken.models import Token

    from league import services as league_services
    from league.models import Player, Season
    from scoring.games import services as scoring_services
    from scoring.standings.services.recompute import season_standings_recompute

    large_id = big.kept_season() if kept else big.build_season()
    started = time.perf_counter()
    season_standings_recompute(season_id=large_id, force=True)
    full = time.perf_counter() - started
    large = Season.objects.select_related("league").get(pk=large_id)
    user = get_user_model().objects.get(username="bench")
    small = Season.objects.filter(league=large.league, name="Floor").first()
    if small is None:
        small = league_services.season_create(
            league=large.league, name="Floor", preset="standard", format=Season.Format.INDIVIDUAL
        )
    chance = random.Random(7)
    players = list(Player.objects.filter(league=large.league).order_by("pk")[:1000])
    games = {}
    for name, season, pool in (("large", large, players), ("floor", small, players[:16])):
        ids = [
            scoring_services.game_create(
                season=season, seats=tuple(chance.sample(pool, 4)), hands_per_game=1
            ).pk
            for _ in range(SAMPLES)
        ]
        games[name] = (season.pk, ids)
    token = Token.objects.get_or_create(user=user)[0].key
    connections.close_all()
    redis.Redis.from_url(REDIS_URL).flushdb()
    return token, games, full


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


def wait_for_workers(names: list[str]) -> None:
    import socket

    from celery import Celery

    app = Celery(broker=REDIS_URL)  # this process has no broker of its own (the recompute ran here)
    waiting = {name.replace("%h", socket.gethostname()) for name in names}
    deadline = time.monotonic() + 60
    while waiting:
        for answer in app.control.ping(destination=sorted(waiting), timeout=1):
            waiting -= set(answer)
        if waiting and time.monotonic() > deadline:
            raise SystemExit(f"no Celery worker {waiting}: see test-artifacts/bench-*worker.log")


def request(connection, method: str, path: str, token: str, body=None):
    headers = {"Host": "127.0.0.1", "Authorization": f"Token {token}"}
    if body is not None:
        headers |= {"Content-Type": "application/json", "Idempotency-Key": uuid.uuid4().hex}
    connection.request(method, path, body=json.dumps(body) if body else None, headers=headers)
    response = connection.getresponse()
    return response.status, json.loads(response.read() or b"null")


def sample(connection, token: str, season_id: int, game_id: int) -> float:
    from scoring.games.selectors import season_results_version

    started = time.perf_counter()
    march = {"makers": "A", "tricks_won": 5}
    status, body = request(connection, "POST", f"/api/v1/games/{game_id}/hands/", token, march)
    assert status == 201 and body["game"]["status"] == "finished", (status, body)
    target = season_results_version(season_id=season_id)
    deadline = started + 120
    path = f"/api/v1/seasons/{season_id}/standings/?limit=1"
    while time.perf_counter() < deadline:
        status, body = request(connection, "GET", path, token)
        if status == 200 and body["results_version"] >= target:
            return time.perf_counter() - started
        time.sleep(POLL_SECONDS)
    raise SystemExit(f"the standings did not reach version {target} within 120 s")


def figures(name: str, latencies: list[float]) -> str:
    latencies = sorted(latencies)
    p95 = latencies[max(0, int(len(latencies) * 0.95) - 1)]
    return (
        f"{name:<28} median {statistics.median(latencies) * 1000:7.0f} ms  "
        f"p95 {p95 * 1000:7.0f} ms  max {latencies[-1] * 1000:7.0f} ms"
    )


def main() -> None:
    processes: list[subprocess.Popen] = []
    try:
        token, games, full = prepare()
        gunicorn = [sys.executable, "-m", "gunicorn", "config.wsgi:application"]
        gunicorn += ["--bind", f"127.0.0.1:{PORT}", "--workers", "2", "--log-level", "warning"]
        processes.append(start(gunicorn, "bench-gunicorn.log"))
        # The workers as docker-compose runs them: one of 2 processes on the default queue, one
        # of 1 process on the race queue at a lower CPU priority. A line per task (with its time)
        # in test-artifacts/bench-worker.log and bench-race-worker.log.
        names = []
        for queue, concurrency, nice, log in (
            ("celery", 2, [], "bench-worker.log"),
            ("race", 1, ["nice", "-n", "10"], "bench-race-worker.log"),
        ):
            names.append(f"bench-{queue}-{uuid.uuid4().hex[:8]}@%h")
            worker = [*nice, sys.executable, "-m", "celery", "-A", "config", "worker"]
            worker += [f"--queues={queue}", f"--concurrency={concurrency}", "--loglevel=INFO"]
            worker += ["--without-gossip", "--without-mingle", "-n", names[-1]]
            processes.append(start(worker, log))
        wait_for_server()
        wait_for_workers(names)
        from scoring.games.jobs import COALESCE_COUNTDOWN
        from scoring.games.models import Hand

        connection = http.client.HTTPConnection("127.0.0.1", PORT)
        latencies: dict[str, list[float]] = {"large": [], "floor": []}
        for index in range(SAMPLES):
            for name, (season_id, game_ids) in games.items():
                latencies[name].append(sample(connection, token, season_id, game_ids[index]))
        hands = Hand.objects.filter(game__season_id=games["large"][0]).count()
        print(
            "POST hand -> standing visible via GET (gunicorn 2 workers; Celery as docker-compose "
            "runs it: a worker of 2 processes on the default queue, one of 1 on the race queue; "
            "Redis, PostgreSQL; coalescing wait "
            f"{COALESCE_COUNTDOWN:.2f} s; {SAMPLES} samples each)"
        )
        print(figures(f"large season ({hands:,} hands)", latencies["large"]))
        print(figures("floor: fresh season", latencies["floor"]))
        print(f"for scale: one full recompute of the large season took {full:.2f} s")
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
        if not big.KEEP:
            big.DATABASE.drop()


if __name__ == "__main__":
    main()
