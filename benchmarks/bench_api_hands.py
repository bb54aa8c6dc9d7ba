"""API hand entry against PostgreSQL through gunicorn: sequential, concurrent, and contended.

Run: ``python benchmarks/bench_api_hands.py`` (or ``make bench``). Needs PostgreSQL (and Redis,
used as the cache and broker) on 127.0.0.1; ``BENCH_DATABASE_URL`` / ``BENCH_REDIS_URL`` override.
It creates and drops its own database ``euchre_bench``. Prints its figures; not a test.

- sequential: one client posting hands one after another (keep-alive connection);
- concurrent: N clients, each scoring its own game at the same time;
- contended: 4 clients entering the same hand numbers of one game (two captains at a table, times
  two): every number must be recorded exactly once, the rest answered 409.
"""

import http.client
import json
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
DATABASE_URL = ADMIN_URL.rsplit("/", 1)[0] + "/euchre_bench"
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
PORT = int(os.environ.get("BENCH_PORT", "8765"))
SEQUENTIAL_GAMES = 4
CLIENTS = 8
HANDS_PER_CLIENT = 100
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


def recreate_database() -> None:
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as connection:
        connection.execute("DROP DATABASE IF EXISTS euchre_bench WITH (FORCE)")
        connection.execute("CREATE DATABASE euchre_bench")


def prepare(games: int) -> tuple[str, list[int], list[tuple[int, ...]]]:
    """Migrate, then create a league whose rulebook never ends a game (target 100)."""
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=ENV, check=True)
    os.environ.update(ENV)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from league import services as league_services
    from scoring import services as scoring_services

    user = get_user_model().objects.create_user("bench", password=uuid.uuid4().hex)
    league = league_services.league_create(name="Bench league", owner=user)
    rulebook = league_services.rulebook_create(
        league=league, name="Long games", preset="standard", options={"target_score": 100}
    )
    season = league_services.season_create(league=league, name="Bench", rulebook=rulebook)
    players = [league_services.player_create(league=league, name=f"Player {n}") for n in range(4)]
    game_ids = [
        scoring_services.game_create(season=season, seats=tuple(players)).pk for _ in range(games)
    ]
    from django.db import connections

    connections.close_all()
    return Token.objects.create(user=user).key, game_ids, [p.pk for p in players]


def start_server() -> subprocess.Popen:
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{PORT}",
            "--workers",
            "4",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=ENV,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=2)
            connection.request("GET", "/healthz", headers={"Host": "127.0.0.1"})
            if connection.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("gunicorn did not start")


def post_hand(connection, token, game_id, number=None, key=None):
    body = {"makers": "A" if (number or 0) % 2 else "B", "tricks_won": 3}
    if number is not None:
        body["number"] = number
    started = time.perf_counter()
    connection.request(
        "POST",
        f"/api/v1/games/{game_id}/hands/",
        body=json.dumps(body),
        headers={
            "Content-Type": "application/json",
            "Authorization": f"Token {token}",
            "Idempotency-Key": key or uuid.uuid4().hex,
            "Host": "127.0.0.1",
        },
    )
    response = connection.getresponse()
    response.read()
    return response.status, time.perf_counter() - started


def report(label: str, latencies: list[float], elapsed: float) -> None:
    latencies = sorted(latencies)
    p95 = latencies[int(len(latencies) * 0.95) - 1]
    print(
        f"{label:<28} {len(latencies):>6} hands  {len(latencies) / elapsed:>8.0f} hands/s  "
        f"median {statistics.median(latencies) * 1000:6.1f} ms  p95 {p95 * 1000:6.1f} ms"
    )


def sequential(token, game_ids) -> None:
    """Games to 100 with alternating makes end after 199 hands: 100 hands a game stays below."""
    connection = http.client.HTTPConnection("127.0.0.1", PORT)
    latencies = []
    started = time.perf_counter()
    for game_id in game_ids:
        for number in range(1, HANDS_PER_CLIENT + 1):
            status, latency = post_hand(connection, token, game_id, number)
            assert status == 201, status
            latencies.append(latency)
    report("sequential (1 client)", latencies, time.perf_counter() - started)


def concurrent(token, game_ids) -> None:
    latencies: list[float] = []
    lock = threading.Lock()

    def client(game_id):
        connection = http.client.HTTPConnection("127.0.0.1", PORT)
        mine = []
        for number in range(1, HANDS_PER_CLIENT + 1):
            status, latency = post_hand(connection, token, game_id, number)
            assert status == 201, status
            mine.append(latency)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client, args=(game_id,)) for game_id in game_ids]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    report(f"concurrent ({len(game_ids)} clients)", latencies, time.perf_counter() - started)


def contended(token, game_id, hands: int = 50) -> None:
    outcomes: dict[int, list[int]] = {}
    lock = threading.Lock()

    def captain():
        connection = http.client.HTTPConnection("127.0.0.1", PORT)
        for number in range(1, hands + 1):
            status, _ = post_hand(connection, token, game_id, number)
            with lock:
                outcomes.setdefault(number, []).append(status)

    threads = [threading.Thread(target=captain) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    created = sum(statuses.count(201) for statuses in outcomes.values())
    conflicts = sum(statuses.count(409) for statuses in outcomes.values())
    once = all(statuses.count(201) <= 1 for statuses in outcomes.values())
    from scoring.models import Hand

    stored = Hand.objects.filter(game_id=game_id).count()
    print(
        f"{'contended (4 on one game)':<28} {created} recorded, {conflicts} answered 409, "
        f"{stored} stored; every number at most once: {once and stored == created}"
    )


def main() -> None:
    recreate_database()
    token, game_ids, _players = prepare(games=SEQUENTIAL_GAMES + CLIENTS + 1)
    server = start_server()
    try:
        print(f"API hand entry on PostgreSQL via gunicorn (4 sync workers), port {PORT}")
        sequential(token, game_ids[:SEQUENTIAL_GAMES])
        concurrent(token, game_ids[SEQUENTIAL_GAMES : SEQUENTIAL_GAMES + CLIENTS])
        contended(token, game_ids[-1])
    finally:
        server.terminate()
        server.wait(timeout=10)
        from django.db import connections

        connections.close_all()
        import psycopg

        with psycopg.connect(ADMIN_URL, autocommit=True) as connection:
            connection.execute("DROP DATABASE IF EXISTS euchre_bench WITH (FORCE)")


if __name__ == "__main__":
    main()
