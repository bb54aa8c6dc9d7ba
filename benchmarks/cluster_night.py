"""A league night on a small cluster of network namespaces (``scripts/cluster-night``, README: How
to scale out). Run as root; needs ``ip``, ``haproxy``, ``pgbouncer`` and ``redis-server``, and
PostgreSQL on 127.0.0.1:5432.

The machines, each a network namespace with its own address on a bridge (``eun-br``,
10.77.0.0/24); the root namespace is the database host (10.77.0.1):

| host | address | runs |
|---|---|---|
| (root) | 10.77.0.1 | PostgreSQL (127.0.0.1:5432), PgBouncer (:6432, transaction pooling) |
| proxy | 10.77.0.10 | haproxy on :80, health-checking the web hosts' ``/healthz`` every second |
| web1, web2 | 10.77.0.11, .12 | gunicorn with the production settings (the image's flags) |
| worker1, worker2 | 10.77.0.21, .22 | Celery workers: one for the ``celery`` queue, one ``race`` |
| beat | 10.77.0.30 | Celery beat (the sweeps) |
| redis | 10.77.0.40 | redis-server (the broker and the cache, database 12) |

Every app process reaches PostgreSQL through PgBouncer (``DATABASE_POOLING=transaction``).

The night: one individual season in a fresh database (``cluster_night``, dropped and created),
``--captains`` tables each playing ``--games`` games to 10 one after another. Each captain posts
hands through the proxy with the game's ``X-Captain-Token`` and a fresh ``Idempotency-Key`` per
hand; a hand not answered as stored (connection error, 5xx, 429) is sent again with the same key
and number, as the captain page's offline queue does, before the next. ``--readers`` players read
the public standings page and the standings API meanwhile. When ``--kill-at`` of the planned hands
are answered, every process of web1 and worker1 is killed (SIGKILL).

Then it checks (:mod:`benchmarks.cluster_ledger`) and prints: hands sent, stored, lost,
duplicates; the seconds from the last hand until the public standings API says current (and
counts every finished game); that answer against the one after ``manage.py recompute_standings
--force``; 5xx by host from haproxy's log. Exits 1 when any check fails. The namespaces, the
bridge and every process it started are removed at exit, also on Ctrl-C (the database is kept for
a look: ``psql -h 127.0.0.1 -U postgres cluster_night``).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_api_hands import dockerfile_gunicorn_flags  # noqa: E402
from benchmarks.cluster_ledger import (  # noqa: E402
    Failure,
    Ledger,
    StoredHand,
    client_failures_judge,
    convergence_wait,
    hands_compare,
    proxy_counters_judge,
    proxy_down_active,
    proxy_line_parse,
    server_errors_judge,
    standings_differences,
)

BIN = ROOT / ".venv" / "bin"
PYTHON = BIN / "python"
SUBNET = "10.77.0"
DATABASE_HOST = f"{SUBNET}.1"
BRIDGE = "eun-br"
PREFIX = "eun-"
HOSTS = {
    "proxy": 10,
    "web1": 11,
    "web2": 12,
    "worker1": 21,
    "worker2": 22,
    "beat": 30,
    "redis": 40,
}
WEB_HOSTS = ("web1", "web2")
KILLED = ("web1", "worker1")
PGBOUNCER_PORT = 6432
PROXY = f"{SUBNET}.{HOSTS['proxy']}"
DATABASE = "cluster_night"
FOLDER = Path("/tmp/cluster-night")  # the run's configuration files and logs (one run at a time)
PGBOUNCER_PID = Path("/tmp/cluster-night.pgbouncer.pid")
ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"
REDIS_DB = 12
WEB_PROCESSES = 3  # gunicorn sync workers per web host; the proxy sends each at most this many
MARK_DOWN_ON_ERROR = "observe layer4 error-limit 1 on-error mark-down"
FAILURE_WINDOW = 2.0  # seconds after the kill in which requests in flight on it fail (the proxy
# marks the host down at the first refused connection; its health check, at two failed ones)
CONVERGENCE_LIMIT = 10.0  # issue 32: standings converge within 10 s of the last hand
CONVERGENCE_WATCH = 120.0  # how long it goes on watching, to print the time even when late


def address(host: str) -> str:
    return f"{SUBNET}.{HOSTS[host]}"


def run(*command: str, check: bool = True, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(command, check=check, capture_output=True, text=True, **kwargs)


def say(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S', time.gmtime())}] {message}", flush=True)


# --- The machines --------------------------------------------------------------------------------


class Cluster:
    """The network, the processes started in it, and their removal (:meth:`close`)."""

    def __init__(self, folder: Path, sweep_seconds: str) -> None:
        self.folder = folder
        self.processes: dict[str, list[subprocess.Popen]] = {}
        self.pgbouncer: subprocess.Popen | None = None
        self.secret = "cluster-night-" + uuid.uuid4().hex
        self.sweep_seconds = sweep_seconds

    # network
    def build_network(self) -> None:
        self.remove_network()  # what a run killed before its cleanup may have left
        run("ip", "link", "add", BRIDGE, "type", "bridge")
        run("ip", "addr", "add", f"{DATABASE_HOST}/24", "dev", BRIDGE)
        run("ip", "link", "set", BRIDGE, "up")
        for host, number in HOSTS.items():
            namespace = PREFIX + host
            run("ip", "netns", "add", namespace)
            run("ip", "link", "add", namespace, "type", "veth", "peer", "name", "eth0", "netns",
                namespace)  # fmt: skip
            run("ip", "link", "set", namespace, "master", BRIDGE, "up")
            inside = ("ip", "netns", "exec", namespace)
            run(*inside, "ip", "addr", "add", f"{SUBNET}.{number}/24", "dev", "eth0")
            run(*inside, "ip", "link", "set", "eth0", "up")
            run(*inside, "ip", "link", "set", "lo", "up")

    def remove_network(self) -> None:
        for host in HOSTS:
            namespace = PREFIX + host
            if Path(f"/run/netns/{namespace}").exists():
                self.kill_host(host)
                run("ip", "netns", "delete", namespace, check=False)
            run("ip", "link", "delete", namespace, check=False)
        run("ip", "link", "delete", BRIDGE, check=False)

    # processes
    def app_env(self) -> dict[str, str]:
        """The production settings' environment (README: Configuration; docker-compose.yml)."""
        keep = {"PATH", "HOME", "LANG", "LC_ALL", "TZ"}
        env = {key: value for key, value in os.environ.items() if key in keep}
        env["PATH"] = f"{BIN}:{env.get('PATH', '/usr/bin:/bin')}"
        return env | {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "0",
            "SECRET_KEY": self.secret,
            "ALLOWED_HOSTS": ",".join([PROXY, *(address(h) for h in WEB_HOSTS), "localhost"]),
            "DATABASE_URL": f"postgres://postgres@{DATABASE_HOST}:{PGBOUNCER_PORT}/{DATABASE}",
            "DATABASE_POOLING": "transaction",
            "REDIS_URL": f"redis://{address('redis')}:6379/{REDIS_DB}",
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "SECURE_SSL_REDIRECT": "0",  # plain HTTP inside the cluster; the proxy has no TLS here
            "WHITENOISE_USE_FINDERS": "0",
            "STATIC_ROOT": str(self.folder / "static"),
            "SWEEP_SECONDS": self.sweep_seconds,
            "LOG_LEVEL": "WARNING",
            "CELERY_LOG_LEVEL": "INFO",
            "RATELIMIT_IP_META_KEY": "HTTP_X_FORWARDED_FOR",
            "WEB_CONCURRENCY": str(WEB_PROCESSES),
        }

    def start(self, host: str, name: str, command: list[str], env: dict | None = None) -> None:
        log = open(self.folder / f"{host}-{name}.log", "ab")  # noqa: SIM115 (kept by the process)
        process = subprocess.Popen(
            ["ip", "netns", "exec", PREFIX + host, *command],
            cwd=ROOT,
            env=env if env is not None else self.app_env(),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes.setdefault(host, []).append(process)

    def host_pids(self, host: str) -> list[int]:
        done = run("ip", "netns", "pids", PREFIX + host, check=False)
        return [int(pid) for pid in done.stdout.split()]

    def kill_host(self, host: str) -> int:
        """SIGKILL every process in the host's namespace, as a machine that dies; their count."""
        pids = self.host_pids(host)
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for process in self.processes.get(host, []):
            process.wait(timeout=10)
        return len(pids)

    def start_redis(self) -> None:
        self.start(
            "redis",
            "redis",
            ["redis-server", "--bind", address("redis"), "--port", "6379", "--save", "",
             "--appendonly", "no", "--protected-mode", "no", "--dir", str(self.folder)],
            env={"PATH": "/usr/bin:/bin"},
        )  # fmt: skip

    def start_pgbouncer(self) -> None:
        """PgBouncer on the database host, in transaction pooling, as the ``postgres`` user (it
        refuses to run as root)."""
        folder = self.folder / "pgbouncer"
        folder.mkdir()
        (folder / "userlist.txt").write_text('"postgres" ""\n')
        (folder / "pgbouncer.ini").write_text(
            f"""[databases]
{DATABASE} = host=127.0.0.1 port=5432 dbname={DATABASE} user=postgres

[pgbouncer]
listen_addr = {DATABASE_HOST}
listen_port = {PGBOUNCER_PORT}
unix_socket_dir =
auth_type = trust
auth_file = {folder}/userlist.txt
pool_mode = transaction
default_pool_size = 12
max_client_conn = 500
server_reset_query =
ignore_startup_parameters = extra_float_digits
admin_users = postgres
"""
        )
        shutil.chown(folder, "postgres")
        for path in folder.iterdir():
            shutil.chown(path, "postgres")
        log = open(self.folder / "pgbouncer.log", "ab")  # noqa: SIM115 (kept by the process)
        self.pgbouncer = subprocess.Popen(
            ["pgbouncer", "-u", "postgres", str(folder / "pgbouncer.ini")],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        PGBOUNCER_PID.write_text(str(self.pgbouncer.pid))

    def start_proxy(self) -> None:
        servers = "\n".join(
            f"  server {host} {address(host)}:8000 check" for host in WEB_HOSTS
        )  # fmt: skip
        config = self.folder / "haproxy.cfg"
        config.write_text(
            f"""global
  log stdout format raw local0
  maxconn 4000
  stats socket {self.folder}/haproxy.sock mode 600 level admin

defaults
  mode http
  log global
  option httplog
  option forwardfor
  option redispatch 1
  retries 3
  retry-on conn-failure
  timeout connect 2s
  timeout client 30s
  timeout server 30s
  timeout queue 30s

frontend night
  bind {PROXY}:80
  default_backend web

backend web
  balance roundrobin
  option httpchk
  http-check send meth GET uri /healthz ver HTTP/1.1 hdr Host {PROXY}
  http-check expect status 200
  timeout check 2s
  # A connection refused in live traffic marks the host down at once (not after two checks), so
  # the retries go to the other one.
  default-server inter 1s fall 2 rise 2 maxconn {WEB_PROCESSES} {MARK_DOWN_ON_ERROR}
{servers}
"""
        )
        self.start(
            "proxy",
            "haproxy",
            ["haproxy", "-db", "-f", str(config)],
            env={"PATH": "/usr/sbin:/usr/bin:/bin"},
        )

    def start_web(self, host: str) -> None:
        self.start(
            host,
            "gunicorn",
            [str(PYTHON), "-m", "gunicorn", "config.wsgi:application", "--bind",
             f"{address(host)}:8000", *dockerfile_gunicorn_flags()],
        )  # fmt: skip

    def start_worker(self, host: str) -> None:
        """The two workers of docker-compose.yml (``worker`` and ``race-worker``) on one host."""
        celery = [str(BIN / "celery"), "-A", "config", "worker", "--loglevel=INFO",
                  "--without-gossip", "--without-mingle"]  # fmt: skip
        self.start(host, "worker", [*celery, "--queues=celery", "--concurrency=2",
                                    f"--hostname=celery@{host}"])  # fmt: skip
        self.start(host, "race-worker", ["nice", "-n", "10", *celery, "--queues=race",
                                         "--concurrency=1", f"--hostname=race@{host}"])  # fmt: skip

    def start_beat(self) -> None:
        self.start(
            "beat",
            "beat",
            [str(BIN / "celery"), "-A", "config", "beat", "--loglevel=INFO",
             f"--schedule={self.folder / 'celerybeat-schedule'}"],
        )  # fmt: skip

    def proxy_command(self, command: str) -> str:
        """One command on haproxy's stats socket, and its answer."""
        import socket

        with socket.socket(socket.AF_UNIX) as connection:
            connection.connect(str(self.folder / "haproxy.sock"))
            connection.sendall(command.encode() + b"\n")
            return b"".join(iter(lambda: connection.recv(65536), b"")).decode()

    def proxy_stats(self) -> dict[str, dict[str, str]]:
        """haproxy's own counters (``show stat``) of the backend and each web host."""
        import csv

        text = self.proxy_command("show stat")
        rows = csv.DictReader(text.lstrip("# ").splitlines())
        return {row["svname"]: row for row in rows if row["pxname"] == "web"}

    def close(self) -> None:
        for host in HOSTS:
            self.kill_host(host)
        if self.pgbouncer is not None and self.pgbouncer.poll() is None:
            self.pgbouncer.kill()
            self.pgbouncer.wait(timeout=10)
        PGBOUNCER_PID.unlink(missing_ok=True)
        self.remove_network()


def leftovers_remove() -> None:
    """What a run killed before its own cleanup left (``--cleanup``; scripts/cluster-night's
    trap): the namespaces' processes, the namespaces, the bridge, and its PgBouncer."""
    if PGBOUNCER_PID.exists():
        pid = int(PGBOUNCER_PID.read_text())
        command = Path(f"/proc/{pid}/comm")
        if command.exists() and command.read_text().strip() == "pgbouncer":
            os.kill(pid, signal.SIGKILL)
        PGBOUNCER_PID.unlink()
    Cluster(FOLDER, "60").remove_network()


def wait_until(what: str, ready, seconds: float = 90.0) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise SystemExit(f"cluster-night: {what} not ready after {seconds:.0f} s")
        threading.Event().wait(0.2)


def answers(host: str, port: int, path: str = "/healthz", status: int = 200) -> bool:
    try:
        connection = http.client.HTTPConnection(host, port, timeout=2)
        connection.request("GET", path, headers={"Host": PROXY})
        return connection.getresponse().status == status
    except OSError:
        return False


def port_open(host: str, port: int) -> bool:
    import socket

    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def in_log(path: Path, text: str) -> bool:
    return path.exists() and text in path.read_text(errors="replace")


# --- The database and the night's league --------------------------------------------------------


def database_create(env: dict) -> None:
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{DATABASE}"')
    direct = env | {"DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}"}
    for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([str(PYTHON), "manage.py", *command], cwd=ROOT, env=direct, check=True)


@dataclass
class Night:
    league_slug: str
    season_id: int
    games: list[list[tuple[int, str]]]  # per captain: (game id, captain token) in order


def night_create(captains: int, games: int, seed: int) -> Night:
    """A league, an individual season (standard rulebook: games to 10) and its games: the
    organisers' part, done with the services before the night (the captains' is over HTTP)."""
    from django.contrib.auth import get_user_model

    from league import services as league_services
    from league.models import Season
    from scoring.games.models import Game

    rng = random.Random(seed)
    owner = get_user_model().objects.create_user("organiser", password=uuid.uuid4().hex)
    league = league_services.league_create(name="Cluster night", owner=owner)
    season = league_services.season_create(
        league=league, name="Night", format=Season.Format.INDIVIDUAL, preset="standard"
    )
    players = [
        league_services.player_create(league=league, name=f"Player {n + 1}")
        for n in range(4 * captains)
    ]
    tables = []
    for _table in range(captains):
        made = []
        for _ in range(games):
            seats = rng.sample(players, 4)
            made.append(
                Game(season=season, **{f"seat_{n}": player for n, player in enumerate(seats)})
            )
        tables.append([(game.pk, game.captain_token) for game in Game.objects.bulk_create(made)])
    return Night(league_slug=league.slug, season_id=season.pk, games=tables)


def stored_hands(season_id: int) -> list[StoredHand]:
    from scoring.games.models import Hand

    rows = Hand.objects.filter(game__season_id=season_id, status=Hand.Status.ACTIVE).values_list(
        "pk", "game_id", "number", "client_key"
    )
    return [StoredHand(*row) for row in rows]


def finished_games(season_id: int) -> dict[int, tuple[int, int]]:
    from scoring.games.models import Game

    rows = Game.objects.filter(season_id=season_id, finished_at__isnull=False).values_list(
        "pk", "score_a", "score_b"
    )
    return {pk: (a, b) for pk, a, b in rows}


# --- The clients ---------------------------------------------------------------------------------


@dataclass
class Counts:
    lock: threading.Lock = field(default_factory=threading.Lock)
    statuses: dict[str, int] = field(default_factory=dict)

    def add(self, what: str) -> None:
        with self.lock:
            self.statuses[what] = self.statuses.get(what, 0) + 1


class Client:
    """One phone: a keep-alive connection to the proxy, reopened after any error."""

    def __init__(self) -> None:
        self.connection: http.client.HTTPConnection | None = None
        self.port = 0  # the connection's own port, as the proxy's log names it

    def request(self, method: str, path: str, body: bytes | None = None, headers=None):
        if self.connection is None:
            self.connection = http.client.HTTPConnection(PROXY, 80, timeout=15)
        try:
            if self.connection.sock is None:
                self.connection.connect()
                self.port = self.connection.sock.getsockname()[1]
            self.connection.request(method, path, body=body, headers=headers or {})
            response = self.connection.getresponse()
            return response.status, response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = None
            raise


class Driver:
    def __init__(self, night: Night, args, on_progress) -> None:
        self.night = night
        self.args = args
        self.ledger = Ledger()
        self.finals: dict[int, tuple[int, int]] = {}
        self.answered = 0
        self.last_stored = 0.0
        self.lock = threading.Lock()
        self.on_progress = on_progress
        self.captains_done = threading.Event()
        self.reads = Counts()
        self.hand_answers = Counts()
        self.failures: list[Failure] = []

    def failed(self, what: str, path: str, started: float) -> None:
        with self.lock:
            self.failures.append(Failure(what, path, started, time.time()))

    def captain(self, index: int) -> None:
        rng = random.Random(self.args.seed * 1000 + index)
        client = Client()
        pause = threading.Event()
        for game_id, token in self.night.games[index]:
            number = 1
            while True:
                facts = {
                    "makers": rng.choice("AB"),
                    "tricks_won": rng.choice((3, 3, 4, 5)),
                    "number": number,
                }
                entry = self.ledger.sent(
                    game=game_id, number=number, key=uuid.uuid4().hex, facts=facts
                )
                body = json.dumps(facts).encode()
                headers = {
                    "Content-Type": "application/json",
                    "X-Captain-Token": token,
                    "Idempotency-Key": entry.key,
                    "Host": PROXY,
                }
                backoff = 0.2
                path = f"/api/v1/games/{game_id}/hands/"
                while True:
                    self.ledger.attempt(entry)
                    sent = time.time()
                    try:
                        status, answer = client.request("POST", path, body, headers)
                    except (OSError, http.client.HTTPException) as error:
                        self.hand_answers.add(type(error).__name__)
                        self.ledger.failed(entry, type(error).__name__)
                        self.failed(type(error).__name__, f"{path} :{client.port}", sent)
                    else:
                        self.hand_answers.add(str(status))
                        if status in (200, 201):
                            hand = json.loads(answer)
                            self.ledger.acknowledged(entry, status=status, hand_id=hand["id"])
                            break
                        if status < 500 and status != 429:
                            self.ledger.refuse(entry, status=status, body=answer.decode())
                            return
                        self.ledger.failed(entry, str(status))
                        self.failed(str(status), f"{path} :{client.port}", sent)
                    pause.wait(backoff)  # the offline queue's retry timer
                    backoff = min(backoff * 2, 2.0)
                with self.lock:
                    self.answered += 1
                    self.last_stored = time.time()
                self.on_progress(self.answered)
                game = hand["game"]
                if game["finished_at"]:
                    self.finals[game_id] = (game["score_a"], game["score_b"])
                    break
                number += 1
                pause.wait(rng.uniform(0, 2 * self.args.think))

    def reader(self, index: int) -> None:
        client = Client()
        pause = threading.Event()
        paths = [
            f"/l/{self.night.league_slug}/s/{self.night.season_id}/",
            f"/api/v1/seasons/{self.night.season_id}/standings/",
        ]
        turn = index
        while not self.captains_done.is_set():
            path = paths[turn % 2]
            turn += 1
            sent = time.time()
            try:
                status, _ = client.request("GET", path, headers={"Host": PROXY})
            except (OSError, http.client.HTTPException) as error:
                self.reads.add(type(error).__name__)
                self.failed(type(error).__name__, f"{path} :{client.port}", sent)
            else:
                self.reads.add(str(status))
                if status >= 500:
                    self.failed(str(status), f"{path} :{client.port}", sent)
            pause.wait(self.args.read_every)


def standings_read(season_id: int) -> dict | None:
    path = f"/api/v1/seasons/{season_id}/standings/?detail=true&limit=500"
    try:
        status, body = Client().request("GET", path, headers={"Host": PROXY})
    except (OSError, http.client.HTTPException):
        return None
    return json.loads(body) if status == 200 else None


def games_counted(standings: dict) -> int:
    """Games the standings count: each game gives its four players one game played each."""
    return sum(row["games"] for row in standings["standings"]["rows"]) // 4


# --- The run -------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--captains", type=int, default=24, help="tables scoring at once")
    parser.add_argument("--games", type=int, default=4, help="games each table plays, to 10")
    parser.add_argument("--readers", type=int, default=6, help="players reading the standings")
    parser.add_argument("--think", type=float, default=0.3, help="mean seconds between hands")
    parser.add_argument("--read-every", type=float, default=0.5, help="seconds between reads")
    parser.add_argument("--kill-at", type=float, default=0.4, help="share of hands, then kill")
    parser.add_argument(
        "--sweep-seconds",
        default="5",
        help="SWEEP_SECONDS of the cluster (a recompute queued on a killed worker waits for it)",
    )
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--keep-logs", action="store_true", help=f"keep the logs in {FOLDER}")
    parser.add_argument("--cleanup", action="store_true", help="remove a run's leftovers, only")
    args = parser.parse_args()
    if os.geteuid() != 0:
        raise SystemExit("cluster-night: run as root (it makes network namespaces)")
    if args.cleanup:
        leftovers_remove()
        return 0
    for tool in ("ip", "haproxy", "pgbouncer", "redis-server"):
        if shutil.which(tool) is None:
            raise SystemExit(f"cluster-night: {tool} is missing (apt-get install {tool})")
    leftovers_remove()
    shutil.rmtree(FOLDER, ignore_errors=True)
    FOLDER.mkdir(mode=0o755)
    folder = FOLDER
    cluster = Cluster(folder, args.sweep_seconds)

    def stop(_signum, _frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    passed = False
    try:
        passed = night_run(cluster, args) == 0
    except KeyboardInterrupt:
        say("interrupted: removing the cluster")
        return 130
    finally:
        cluster.close()
        if args.keep_logs or not passed:
            say(f"logs kept in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return 0 if passed else 1


def night_run(cluster: Cluster, args) -> int:
    say("network: bridge eun-br, namespaces " + ", ".join(PREFIX + h for h in HOSTS))
    cluster.build_network()
    cluster.start_redis()
    cluster.start_pgbouncer()
    wait_until("redis", lambda: port_open(address("redis"), 6379))
    wait_until("pgbouncer", lambda: port_open(DATABASE_HOST, PGBOUNCER_PORT))
    env = cluster.app_env()
    say(f"database {DATABASE}: created, migrated")
    database_create(env)
    os.environ.update(env)
    import django

    django.setup()
    night = night_create(args.captains, args.games, args.seed)
    say(
        f"season {night.season_id}: {args.captains} tables x {args.games} games, "
        f"{4 * args.captains} players"
    )
    for host in WEB_HOSTS:
        cluster.start_web(host)
    for host in ("worker1", "worker2"):
        cluster.start_worker(host)
    cluster.start_beat()
    cluster.start_proxy()
    for host in WEB_HOSTS:
        wait_until(host, lambda host=host: answers(address(host), 8000))
    wait_until("proxy", lambda: answers(PROXY, 80))
    for host in ("worker1", "worker2"):
        log = cluster.folder / f"{host}-worker.log"
        wait_until(f"{host}'s worker", lambda log=log: in_log(log, "ready."))
    say("cluster up: proxy, web1, web2, worker1, worker2, beat, redis, pgbouncer")
    cluster.proxy_command("clear counters all")  # the night's figures, not the start-up's probes

    planned = args.captains * args.games * 15  # about 15 hands a game to 10 (a guess, for the kill)
    kill_after = int(planned * args.kill_at)
    killed_at: list[float] = []
    kill_lock = threading.Lock()

    def on_progress(answered: int) -> None:
        if answered < kill_after or killed_at:
            return
        with kill_lock:
            if killed_at:
                return
            killed_at.append(time.time())
            counts = {}
            for host in KILLED:
                counts[host] = cluster.kill_host(host)
                killed_at.append(time.time())  # when each host's last process was gone
            say(
                f"killed (SIGKILL) at hand {answered}: "
                + ", ".join(f"{host} ({n} processes)" for host, n in counts.items())
                + f", web1 gone after {1000 * (killed_at[1] - killed_at[0]):.0f} ms"
            )

    driver = Driver(night, args, on_progress)
    captains = [
        threading.Thread(target=driver.captain, args=(n,), daemon=True)
        for n in range(args.captains)
    ]
    readers = [
        threading.Thread(target=driver.reader, args=(n,), daemon=True) for n in range(args.readers)
    ]
    started = time.time()
    say(f"night: {args.captains} captains, {args.readers} readers, kill after {kill_after} hands")
    for thread in captains + readers:
        thread.start()
    for thread in captains:
        thread.join()
    driver.captains_done.set()
    for thread in readers:
        thread.join()
    last = driver.last_stored
    say(f"last hand answered {last - started:.1f} s after the start")

    finished = finished_games(night.season_id)
    seconds, converged = convergence_wait(
        lambda: standings_read(night.season_id),
        is_converged=lambda s: s["is_current"] and games_counted(s) == len(finished),
        clock=time.time,
        wait=lambda s: threading.Event().wait(s),
        since=last,
        limit=CONVERGENCE_WATCH,
    )
    recompute = subprocess.run(
        [str(PYTHON), "manage.py", "recompute_standings", "--season", str(night.season_id),
         "--force"],
        cwd=ROOT, env=cluster.app_env(), capture_output=True, text=True,
    )  # fmt: skip
    recomputed = standings_read(night.season_id)

    stats = cluster.proxy_stats()
    proxy_log = (cluster.folder / "proxy-haproxy.log").read_text(errors="replace").splitlines()
    downs = proxy_down_active(proxy_log, KILLED[0])
    lines = [
        line
        for line in map(proxy_line_parse, proxy_log)
        if line is not None and line.accepted >= started
    ]
    dying = killed_at[1] - killed_at[0] if killed_at else 0.0
    hands = hands_compare(driver.ledger.entries, stored_hands(night.season_id))
    errors = server_errors_judge(
        lines, killed=KILLED[0], killed_at=killed_at[0] if killed_at else float("inf"),
        dying=dying,
        in_flight_most=WEB_PROCESSES,
    )  # fmt: skip
    dropped = client_failures_judge(
        driver.failures,
        killed_at=killed_at[0] if killed_at else float("inf"),
        window=FAILURE_WINDOW,
        dying=dying,
    )
    problems = [
        *hands.problems,
        *errors.problems,
        *dropped.problems,
        *proxy_counters_judge(stats, killed=KILLED[0]),
    ]
    if not killed_at:
        problems.append("nothing was killed: the night ended before --kill-at")
    if recompute.returncode != 0:
        problems.append(f"recompute_standings failed: {recompute.stderr[-500:]}")
    if seconds is None:
        problems.append(f"standings not converged {CONVERGENCE_WATCH:.0f} s after the last hand")
    elif seconds > CONVERGENCE_LIMIT:
        problems.append(f"standings converged after {seconds:.1f} s (> {CONVERGENCE_LIMIT:.0f} s)")
    differences = (
        standings_differences(converged, recomputed)
        if converged and recomputed
        else ["(no answer)"]
    )
    if differences:
        problems.append(f"converged standings differ from a forced recompute in {differences}")
    wrong_finals = {
        game: (told, finished.get(game))
        for game, told in driver.finals.items()
        if finished.get(game) != told
    }
    if wrong_finals:
        problems.append(f"games whose final score differs from what captains saw: {wrong_finals}")
    unfinished = sum(len(games) for games in night.games) - len(finished)
    if unfinished:
        problems.append(f"{unfinished} games not finished")

    elapsed = last - started
    print()
    print("cluster night: figures")
    print(f"  hands sent        {hands.sent} ({hands.attempts} POSTs, {hands.resent} resent)")
    print(f"  acknowledged      {hands.acknowledged}")
    print(f"  stored (counting) {hands.stored}")
    print(f"  lost              {hands.lost}")
    print(f"  duplicates        {hands.duplicates}")
    print(f"  never answered    {hands.unacknowledged}, refused {hands.refused}")
    print(f"  games finished    {len(finished)} of {sum(len(g) for g in night.games)}")
    print(f"  night             {elapsed:.1f} s, {hands.acknowledged / elapsed:.1f} hands/s")
    if killed_at:
        print(f"  killed            {', '.join(KILLED)} at {killed_at[0] - started:.1f} s")
    shown = "not converged" if seconds is None else f"{seconds:.2f} s"
    print(f"  convergence       {shown} after the last hand (limit {CONVERGENCE_LIMIT:.0f} s)")
    print(f"  forced recompute  {'equal' if not differences else 'DIFFERS: ' + str(differences)}")
    recomputes = {
        host: sum(
            "recompute_season_standings[" in line and "succeeded" in line
            for line in (cluster.folder / f"{host}-worker.log").open(errors="replace")
        )
        for host in ("worker1", "worker2")
    }
    print(f"  recomputes        {recomputes} (runs of the standings job, by worker host)")
    print(f"  requests by host  {dict(sorted(errors.requests_by_host.items()))}")
    print(f"  5xx by host       {dict(sorted(errors.by_host.items())) or '{}'} in the proxy's log"
          f" ({errors.in_flight} in flight on {KILLED[0]})")  # fmt: skip
    print(f"  proxy             {KILLED[0]} marked down with {downs[-1:] or '?'} requests active")
    print(
        f"  client failures   {dropped.by_kind or '{}'} ({dropped.in_flight} in flight at the kill)"
    )
    print(f"  hand answers      {dict(sorted(driver.hand_answers.statuses.items()))}")
    print(f"  reads             {dict(sorted(driver.reads.statuses.items()))}")
    for name in (*WEB_HOSTS, "BACKEND"):
        row = stats.get(name, {})
        counters = ("hrsp_5xx", "econ", "eresp", "wretr", "wredis", "cli_abrt", "srv_abrt")
        print(f"  proxy {name:<11} " + ", ".join(f"{c} {row.get(c, '?')}" for c in counters))
    kill = killed_at[0] if killed_at else started
    for failure in sorted(driver.failures, key=lambda f: f.started):
        print(
            f"  failed            {failure.what} {failure.path}, sent "
            f"{failure.started - kill:+.3f} s, ended {failure.ended - kill:+.3f} s from the kill"
        )
    print()
    for problem in problems[:40]:
        print(f"  FAIL {problem}")
    print("PASS" if not problems else f"FAIL ({len(problems)} problems)")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
