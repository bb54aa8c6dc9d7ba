"""API hand entry against PostgreSQL through gunicorn, side by side with its floor.

Run: ``python benchmarks/bench_api_hands.py`` (or ``make bench``). Needs PostgreSQL (and Redis,
used as the cache and broker) on 127.0.0.1; ``BENCH_DATABASE_URL`` / ``BENCH_REDIS_URL`` override,
``BENCH_DATABASE_NAME`` names the database it creates and drops (default ``euchre_bench``).
Prints its figures; not a test.

- *floor*: a bare Django view doing one INSERT (``benchmarks/floor_settings.py``,
  ``floor_urls.py``), served by the same gunicorn command on the same database;
- *hands*: ``POST /api/v1/games/<id>/hands/`` as an organiser (token), each client on its own
  games, with the hand's number and a fresh Idempotency-Key.

For each gunicorn configuration (``BENCH_GUNICORN``, e.g. ``sync:2,gthread:2x4``) both servers
run, and the load (``benchmarks/http_load.py``, a process of its own) goes to them in turn,
round after round: 1 client (latency alone) and 32 clients (throughput). The box is shared, so
the figures to read are the ratios to the floor measured in the same round. Under load it also
prints the CPU each request cost the web processes, PostgreSQL and the load generator (from
``/proc``): where the machine's time went. Then 4 clients enter the same hand numbers of one
game: every number must be recorded exactly once, the rest 409.
"""

import json
import math
import os
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADMIN_URL = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
DATABASE_NAME = os.environ.get("BENCH_DATABASE_NAME", "euchre_bench")
DATABASE_URL = ADMIN_URL.rsplit("/", 1)[0] + "/" + DATABASE_NAME
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
PORT = int(os.environ.get("BENCH_PORT", "8765"))
FLOOR_PORT = PORT + 1
CONFIGS = os.environ.get("BENCH_GUNICORN", "sync:2,sync:4,gthread:2x4").split(",")
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "2"))
SECONDS_ALONE = float(os.environ.get("BENCH_SECONDS_ALONE", "4"))
SECONDS_LOADED = float(os.environ.get("BENCH_SECONDS_LOADED", "8"))
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "32"))
HANDS_PER_GAME = 150  # a game to 100 with alternating makes ends after 199 hands
MOST_PER_SECOND = 2000  # to give each client games enough for a run
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
    "STATIC_ROOT": str(ROOT / "benchmarks" / ".static"),
}
FLOOR_ENV = {**ENV, "DJANGO_SETTINGS_MODULE": "benchmarks.floor_settings"}


def recreate_database() -> None:
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE_NAME} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {DATABASE_NAME}")


def drop_database() -> None:
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE_NAME} WITH (FORCE)")


class Bench:
    """The league, season and players the games are made in (the rulebook never ends a game
    before 150 hands: target 100)."""

    def __init__(self) -> None:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=ENV, check=True
        )
        os.environ.update(ENV)
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.db import connection
        from rest_framework.authtoken.models import Token

        from benchmarks.floor_urls import CREATE_TABLE
        from league import services as league_services

        user = get_user_model().objects.create_user("bench", password=uuid.uuid4().hex)
        league = league_services.league_create(name="Bench league", owner=user)
        rulebook = league_services.rulebook_create(
            league=league, name="Long games", preset="standard", options={"target_score": 100}
        )
        self.season = league_services.season_create(league=league, name="Bench", rulebook=rulebook)
        self.players = [
            league_services.player_create(league=league, name=f"Player {n}") for n in range(4)
        ]
        self.token = Token.objects.create(user=user).key
        with connection.cursor() as cursor:
            cursor.execute(CREATE_TABLE)

    def games(self, count: int) -> list[int]:
        from scoring.models import Game

        seats = dict(zip(("seat_0", "seat_1", "seat_2", "seat_3"), self.players, strict=True))
        made = Game.objects.bulk_create(Game(season=self.season, **seats) for _ in range(count))
        return [game.pk for game in made]

    def close(self) -> None:
        from django.db import connections

        connections.close_all()


def gunicorn_args(config: str) -> list[str]:
    """``sync:N`` (N processes) or ``gthread:NxT`` (N processes of T threads)."""
    kind, _, size = config.partition(":")
    if kind == "sync":
        return ["--worker-class", "sync", "--workers", size]
    workers, _, threads = size.partition("x")
    return ["--worker-class", "gthread", "--workers", workers, "--threads", threads]


def start_server(config: str, port: int, env: dict, health: str) -> subprocess.Popen:
    import http.client

    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            *gunicorn_args(config),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request(health[0], health[1], headers={"Host": "127.0.0.1"}, body=b"")
            if connection.getresponse().status < 500:
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit(f"gunicorn did not start on port {port}")


def load(port: int, path: str, token: str | None, clients: list[list[int]], seconds: float):
    plan = {
        "port": port,
        "path": path,
        "token": token,
        "seconds": seconds,
        "hands_per_game": HANDS_PER_GAME,
        "clients": clients,
    }
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "http_load.py")],
        input=json.dumps(plan),
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise SystemExit(f"the load on port {port} failed:\n{done.stderr}")
    result = json.loads(done.stdout)
    bad = {status: n for status, n in result["statuses"].items() if status != "201"}
    if bad:
        raise SystemExit(f"answers other than 201 from port {port}: {bad}")
    return result


def percentile(latencies: list[float], share: float) -> float:
    return latencies[min(len(latencies) - 1, math.ceil(len(latencies) * share) - 1)]


def cpu_seconds() -> dict[str, float]:
    """CPU seconds used so far by this machine's gunicorn and PostgreSQL processes, and by this
    process's finished children (the load generator), from ``/proc`` (empty elsewhere).

    Each process's own time and its finished children's: a PostgreSQL backend that exits during
    a round (its Django connection reached ``CONN_MAX_AGE``) takes its time out of the live
    processes' sum, and into its parent's, the postmaster's (a round of the floor once showed
    0.11 ms of PostgreSQL per INSERT, counted without it)."""
    import resource

    used = {"web": 0.0, "postgres": 0.0}
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for pid in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not pid.isdigit():
            continue
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        kind = "web" if b"gunicorn" in command else "postgres" if b"postgres" in command else None
        if kind:
            fields = stat.rsplit(")", 1)[1].split()
            # utime + stime + cutime + cstime
            used[kind] += sum(int(value) for value in fields[11:15]) / tick
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    used["load"] = children.ru_utime + children.ru_stime
    return used


class Target:
    def __init__(self, name: str, port: int, path: str, token: str | None) -> None:
        self.name, self.port, self.path, self.token = name, port, path, token
        self.alone: list[float] = []
        self.loaded: list[float] = []
        self.rates: list[float] = []
        self.cpu: dict[str, float] = {}  # CPU seconds per request under load, by process kind
        self.requests = 0

    def run(self, bench: Bench, clients: int, seconds: float) -> None:
        per_client = math.ceil(seconds * MOST_PER_SECOND / clients / HANDS_PER_GAME) + 1
        games = bench.games(clients * per_client)
        plan = [games[n * per_client : (n + 1) * per_client] for n in range(clients)]
        before = cpu_seconds()
        result = load(self.port, self.path, self.token, plan, seconds)
        if clients == 1:
            self.alone.extend(result["latencies"])
        else:
            after = cpu_seconds()
            for kind, used in after.items():
                self.cpu[kind] = self.cpu.get(kind, 0.0) + used - before.get(kind, 0.0)
            self.requests += result["count"]
            self.loaded.extend(result["latencies"])
            self.rates.append(result["count"] / result["elapsed"])

    def cpu_line(self) -> str:
        """Where the CPU went, per request under load: what to cut to move the ratio."""
        spent = ", ".join(
            f"{kind} {used / self.requests * 1000:.2f}" for kind, used in self.cpu.items()
        )
        return f"  {self.name:<6} CPU ms per request at {CLIENTS} clients: {spent}"

    def line(self) -> str:
        alone, loaded = sorted(self.alone), sorted(self.loaded)
        return (
            f"  {self.name:<6} 1 client p50 {statistics.median(alone) * 1000:6.2f} ms │ "
            f"{CLIENTS} clients {statistics.median(self.rates):7.0f} req/s "
            f"(rounds {', '.join(f'{rate:.0f}' for rate in self.rates)}) "
            f"p50 {statistics.median(loaded) * 1000:7.1f} ms  "
            f"p99 {percentile(loaded, 0.99) * 1000:7.1f} ms"
        )


def measure(bench: Bench, config: str) -> dict:
    hands_server = start_server(config, PORT, ENV, ("GET", "/healthz"))
    floor_server = start_server(config, FLOOR_PORT, FLOOR_ENV, ("GET", "/floor/0/hands/"))
    floor = Target("floor", FLOOR_PORT, "/floor/{game}/hands/", None)
    hands = Target("hands", PORT, "/api/v1/games/{game}/hands/", bench.token)
    try:
        for target in (floor, hands):  # warm up: connections, imports, caches
            target.run(bench, CLIENTS, 1.0)
            target.alone, target.loaded, target.rates = [], [], []
            target.cpu, target.requests = {}, 0
        for _ in range(ROUNDS):
            for target in (floor, hands):
                target.run(bench, 1, SECONDS_ALONE)
            for target in (floor, hands):
                target.run(bench, CLIENTS, SECONDS_LOADED)
        print(f"gunicorn {' '.join(gunicorn_args(config))}")
        print(floor.line())
        print(hands.line())
        if floor.requests and hands.requests:
            print(floor.cpu_line())
            print(hands.cpu_line())
        ratio = statistics.median(hands.rates) / statistics.median(floor.rates)
        # Each round's hands beside the floor's just before it: this box's speed drifts by a
        # quarter from minute to minute, and a pair in time shows how much of a run is drift.
        paired = ", ".join(f"{h / f:.2f}" for f, h in zip(floor.rates, hands.rates, strict=True))
        alone = statistics.median(hands.alone) * 1000
        print(
            f"  hands/floor throughput at {CLIENTS} clients: {ratio:.2f}× (target ≥ 0.5×; "
            f"by round {paired}); p50 alone {alone:.2f} ms (target ≤ 15 ms)"
        )
        return {"config": config, "ratio": ratio, "alone_ms": alone}
    finally:
        for server in (hands_server, floor_server):
            server.terminate()
            server.wait(timeout=15)


def contended(bench: Bench, config: str, hands: int = 50) -> None:
    """4 captains enter the same hand numbers of one game: each number recorded once."""
    import http.client

    server = start_server(config, PORT, ENV, ("GET", "/healthz"))
    (game_id,) = bench.games(1)
    outcomes: dict[int, list[int]] = {}
    lock = threading.Lock()

    def captain():
        connection = http.client.HTTPConnection("127.0.0.1", PORT)
        for number in range(1, hands + 1):
            body = {"makers": "A" if number % 2 else "B", "tricks_won": 3, "number": number}
            connection.request(
                "POST",
                f"/api/v1/games/{game_id}/hands/",
                body=json.dumps(body),
                headers={
                    "Content-Type": "application/json",
                    "Authorization": f"Token {bench.token}",
                    "Idempotency-Key": uuid.uuid4().hex,
                    "Host": "127.0.0.1",
                },
            )
            response = connection.getresponse()
            response.read()
            with lock:
                outcomes.setdefault(number, []).append(response.status)

    try:
        threads = [threading.Thread(target=captain) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        server.terminate()
        server.wait(timeout=15)
    from scoring.models import Game, Hand

    created = sum(statuses.count(201) for statuses in outcomes.values())
    conflicts = sum(statuses.count(409) for statuses in outcomes.values())
    once = all(statuses.count(201) == 1 for statuses in outcomes.values())
    stored = Hand.objects.filter(game_id=game_id).count()
    game = Game.objects.get(pk=game_id)
    print(
        f"contended (4 on one game, {config}): {created} recorded, {conflicts} answered 409, "
        f"{stored} stored, score {game.score_a}–{game.score_b}; every number exactly once: "
        f"{once and stored == created == hands == game.score_a + game.score_b}"
    )


def main() -> None:
    recreate_database()
    bench = Bench()
    try:
        print(
            f"Hand entry on PostgreSQL via gunicorn against a one-INSERT floor "
            f"({ROUNDS} rounds, {SECONDS_ALONE:g} s alone and {SECONDS_LOADED:g} s loaded each)"
        )
        results = [measure(bench, config) for config in CONFIGS]
        best = max(results, key=lambda result: result["ratio"])
        contended(bench, best["config"])
    finally:
        bench.close()
        drop_database()


if __name__ == "__main__":
    main()
