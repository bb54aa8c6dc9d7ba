"""Hand entry against PostgreSQL through gunicorn, by every entrance, each beside its floor.

Run: ``python benchmarks/bench_api_hands.py`` (or ``make bench``). Needs PostgreSQL and Redis on
127.0.0.1; ``BENCH_DATABASE_URL`` / ``BENCH_REDIS_URL`` override, ``BENCH_DATABASE_NAME`` names
the database it creates and drops (default ``euchre_bench``), ``BENCH_PORT`` the product's port
(the floor's is the next one). Prints its figures; not a test. It exits with status 1 when a
check fails (an answer other than success, a hand answered as recorded but not stored, an error
in a server's or the worker's log, the contended check).

What runs, as in production (``Dockerfile``, ``docker-compose.yml``):

- *the product*: ``gunicorn config.wsgi:application`` with the Dockerfile's flags
  (:func:`gunicorn_command`) and the workers of ``BENCH_GUNICORN`` (default ``sync:4``, the
  Dockerfile's choice; e.g. ``sync:2,gthread:2x4`` measures each in turn);
- *the floor*: a bare Django view doing one INSERT (``benchmarks/floor_settings.py``,
  ``floor_urls.py``), on the product's connection settings, served by the same command;
- *a Celery worker*: ``celery -A config worker`` (``BENCH_CELERY``, default
  ``--concurrency=2``, compose's; without ``-Q`` it consumes both queues, the recomputes and the
  races), started before and stopped after the runs, so that the recomputes the hands queue run
  during the load and compete for the machine as on a real night. The worker's CPU is counted as
  the product's, and each run ends when the standings have folded every hand it stored and the
  worker is idle again (the time that took is printed), so no run's recomputes fall into the
  next one's time.

- *the skeleton*: the product's writes of a hand in the plainest ORM code, behind the
  product's whole request stack (``benchmarks/stack_settings.py``, ``stack_urls.py``), served
  by the same command on the next port again: what any hand entry on Django's ORM costs at
  least, measured as an entrance is (``BENCH_ENTRANCES`` chooses among the entrances below and
  ``skeleton``; all by default).

The hands are posted (``benchmarks/http_load.py``, a process of its own) by four entrances:

- *organiser token*: ``POST /api/v1/games/<id>/hands/`` with ``Authorization: Token …``;
- *X-Captain-Token*: the same URL with the game's captain token in ``X-Captain-Token``, and the
  hand's number in the body (required there);
- *captain form*: ``POST /t/<token>/hands/``, the captain page's hand form as its script sends
  it (``HX-Request``, form-encoded; the fields are read from the page itself, with any CSRF
  token and cookie it gives, :func:`hand_form`); a success is a 200 score card with the
  "recorded" flash, not a card with an error;
- *organiser session*: the JSON API with the session of an organiser who logged in once through
  ``/manage/login/``, with the CSRF cookie and ``X-CSRFToken`` header, as the workspace's
  pages would.

Each run plays games of a fresh season (its own standings) to 10 points, as a night's games are:
hand ``n`` is won by side A when ``n`` is odd, by side B when even, so each game ends at its
19th hand, 10-9, and the client moves on to its next game. Each round measures every target at 1
client (latency alone) and then, at 32 clients (throughput), the entrances in an order that turns
from round to round, with the floor before the first, between each two and after the last; an
entrance's ratio is its rate over the mean of the floor runs just before and just after it. The
box is shared, so the ratios are what to read; ``BENCH_ROUNDS`` rounds (default 3) give each
entrance's min, median and max. Under load it also prints the CPU each request cost the web
processes, PostgreSQL's backends on this database, the worker and the load generator (from
``/proc``, by process: other programs on the box are not counted). Then 4 clients, one per
entrance, enter the same hand numbers of one game: every number must be recorded exactly once,
the rest 409.
"""

from __future__ import annotations

import json
import math
import os
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
ADMIN_URL = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
DATABASE_NAME = os.environ.get("BENCH_DATABASE_NAME", "euchre_bench")
DATABASE_URL = ADMIN_URL.rsplit("/", 1)[0] + "/" + DATABASE_NAME
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
PORT = int(os.environ.get("BENCH_PORT", "8765"))
FLOOR_PORT = PORT + 1
SKELETON_PORT = PORT + 2
CONFIGS = os.environ.get("BENCH_GUNICORN", "sync:4").split(",")
WORKER_ARGS = os.environ.get("BENCH_CELERY", "--concurrency=2").split()
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
SECONDS_ALONE = float(os.environ.get("BENCH_SECONDS_ALONE", "4"))
SECONDS_LOADED = float(os.environ.get("BENCH_SECONDS_LOADED", "8"))
SECONDS_WARM_UP = 1.5
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "32"))
TARGET = 0.4  # issue 30: hand entry at least 0.4x the floor, through every entrance
HANDS_PER_GAME = 19  # a game to 10, won 10-9 (see the docstring)
LONG_GAME_HANDS = 100  # the long season's games (target 100) never end before this many
MOST_PER_SECOND = {1: 400, None: 2000}  # bounds on the rate, to give each client games enough
CATCH_UP_SECONDS = 120.0  # longest wait for the standings and the worker after a run
ENV = {
    **os.environ,
    "DATABASE_URL": DATABASE_URL,
    "REDIS_URL": REDIS_URL,
    "SECRET_KEY": "benchmark-only-" + uuid.uuid4().hex,
    "DEBUG": "0",
    "SECURE_SSL_REDIRECT": "0",
    "ALLOWED_HOSTS": "127.0.0.1",
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "CELERY_TASK_ALWAYS_EAGER": "0",
    "LOG_LEVEL": "INFO",  # compose's default
    "CELERY_LOG_LEVEL": "INFO",
    "STATIC_ROOT": str(ROOT / "benchmarks" / ".static"),
}
ENV.pop("WEB_CONCURRENCY", None)  # the workers are given on the command line
FLOOR_ENV = {**ENV, "DJANGO_SETTINGS_MODULE": "benchmarks.floor_settings"}
STACK_ENV = {**ENV, "DJANGO_SETTINGS_MODULE": "benchmarks.stack_settings"}
CHOSEN = os.environ.get("BENCH_ENTRANCES", "token,captain,form,session,skeleton").split(",")
"""The entrances measured (``token``, ``captain``, ``form``, ``session``) and ``skeleton``."""
ORIGIN = "http://127.0.0.1"  # what a browser sends with a page's POST (Host: 127.0.0.1)


def recreate_database() -> None:
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE_NAME} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {DATABASE_NAME}")


def drop_database() -> None:
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE_NAME} WITH (FORCE)")


def forget_queued_work() -> None:
    """Drop what an earlier run may have left in this Redis database: the broker's queues and
    the standings' and races' pending keys (a left key would hold back a season's first
    recompute for half a minute). Only those keys: the database may be shared."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    names = ["celery", "race", "unacked", "unacked_index", "unacked_mutex"]
    for pattern in ("*standings:pending:*", "*race:pending:*", "celery\x06*", "race\x06*"):
        names.extend(client.scan_iter(match=pattern))
    client.delete(*names)


class Bench:
    """The organiser, league, players and seasons the games are made in.

    ``season`` (rulebook target 100: no game ends before 150 hands) holds the games of
    :meth:`games`, for the contended check and ``bench_hand_instructions.py``;
    :meth:`night` makes a fresh season with the standard rulebook (games to 10) for each run."""

    def __init__(self) -> None:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=ENV, check=True
        )
        # The pages' static files, hashed into their manifest as the image's build does.
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT,
            env=ENV,
            check=True,
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

        self.username, self.password = "bench", uuid.uuid4().hex
        user = get_user_model().objects.create_user(self.username, password=self.password)
        self.league = league_services.league_create(name="Bench league", owner=user)
        rulebook = league_services.rulebook_create(
            league=self.league, name="Long games", preset="standard", options={"target_score": 100}
        )
        self.night_rulebook = league_services.rulebook_create(
            league=self.league, name="A night", preset="standard"
        )
        self.season = league_services.season_create(
            league=self.league, name="Bench", rulebook=rulebook
        )
        self.players = [
            league_services.player_create(league=self.league, name=f"Player {n}") for n in range(4)
        ]
        self.token = Token.objects.create(user=user).key
        self.nights = 0
        self.floor_games = 0
        with connection.cursor() as cursor:
            cursor.execute(CREATE_TABLE)

    @property
    def callers(self) -> dict[str, int]:
        """A caller of each side: seat 0 plays for side A, seat 1 for side B."""
        return {"A": self.players[0].pk, "B": self.players[1].pk}

    def made(self, count: int, season) -> list:
        from scoring.games.models import Game

        seats = dict(zip(("seat_0", "seat_1", "seat_2", "seat_3"), self.players, strict=True))
        return Game.objects.bulk_create(Game(season=season, **seats) for _ in range(count))

    def games(self, count: int) -> list[int]:
        """``count`` new games of the long season, by id."""
        return [game.pk for game in self.made(count, self.season)]

    def night(self):
        """A fresh season with the standard rulebook (games to 10)."""
        from league import services as league_services

        self.nights += 1
        return league_services.season_create(
            league=self.league, name=f"Night {self.nights}", rulebook=self.night_rulebook
        )

    def floor_ids(self, count: int) -> list[int]:
        """Game ids for the floor, which stores them without looking them up."""
        start = self.floor_games + 1
        self.floor_games += count
        return list(range(start, start + count))

    def close(self) -> None:
        from django.db import connections

        connections.close_all()


# --- The servers and the worker ---------------------------------------------------------------


def dockerfile_gunicorn_flags(dockerfile: Path = ROOT / "Dockerfile") -> list[str]:
    """The flags of the image's gunicorn command (its ``CMD``), but for the address it binds,
    and for ``--max-requests`` and its jitter: a worker restarts after about 1,000 requests, an
    hour or more of a real night's hands, but a few seconds of this benchmark's, which would
    measure process start-up instead of hand entry."""
    commands = [
        json.loads(line.removeprefix("CMD").strip())
        for line in dockerfile.read_text().splitlines()
        if line.startswith("CMD [")
    ]
    command = next((c for c in reversed(commands) if c[:1] == ["gunicorn"]), None)
    if command is None:
        raise SystemExit(f"{dockerfile}: no gunicorn CMD")
    flags, skip = [], False
    for argument in command[2:]:  # gunicorn config.wsgi:application …
        if skip:
            skip = False
        elif argument in ("--bind", "--max-requests", "--max-requests-jitter"):
            skip = True
        else:
            flags.append(argument)
    return flags


def gunicorn_args(config: str) -> list[str]:
    """``sync:N`` (N processes) or ``gthread:NxT`` (N processes of T threads)."""
    kind, _, size = config.partition(":")
    if kind == "sync":
        return ["--worker-class", "sync", "--workers", size]
    workers, _, threads = size.partition("x")
    return ["--worker-class", "gthread", "--workers", workers, "--threads", threads]


def gunicorn_command(config: str, port: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "config.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
        *dockerfile_gunicorn_flags(),
        *gunicorn_args(config),
    ]


LOG_PROBLEM = re.compile(r"Traceback|\[ERROR\]|\[CRITICAL\]|WORKER TIMEOUT| ERROR |CRITICAL")


def log_problems(path: Path) -> list[str]:
    return [
        line.rstrip()
        for line in path.read_text(errors="replace").splitlines()
        if LOG_PROBLEM.search(line)
    ]


class Process:
    """A program this benchmark starts, in a process group of its own, logging to a file."""

    def __init__(self, name: str, command: list[str], env: dict, logs: Path, stdout=None):
        self.name, self.log = name, logs / f"{name}.log"
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=stdout if stdout is not None else log,
                stderr=log,
                start_new_session=True,
            )

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self, grace: float = 60) -> None:
        if self.process.poll() is not None:
            return
        self.process.terminate()  # gunicorn and celery: a graceful (warm) shutdown
        try:
            self.process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def problems(self) -> list[str]:
        return log_problems(self.log)


def start_server(name: str, config: str, port: int, env: dict, health, logs: Path) -> Process:
    import http.client

    # The access log goes to stdout, as in the image: written (and formatted) per request.
    server = Process(name, gunicorn_command(config, port), env, logs, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise SystemExit(f"gunicorn ({name}) exited; see {server.log}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request(health[0], health[1], headers={"Host": "127.0.0.1"}, body=b"")
            if connection.getresponse().status < 500:
                return server
        except OSError:
            time.sleep(0.2)
    server.stop()
    raise SystemExit(f"gunicorn ({name}) did not start on port {port}; see {server.log}")


SUCCEEDED = re.compile(r"Task ([\w.]+)\[[^\]]+\] succeeded in [\d.e-]+s: (.*)$")


class Worker(Process):
    """``celery -A config worker``, the product's, on the benchmark's database and broker."""

    def __init__(self, logs: Path) -> None:
        self.node = f"bench-hands-{PORT}@{socket.gethostname()}"
        command = [sys.executable, "-m", "celery", "-A", "config", "worker"]
        command += ["-n", self.node, "--loglevel=INFO", *WORKER_ARGS]
        super().__init__("worker", command, ENV, logs)
        self.command = "celery -A config worker " + " ".join(WORKER_ARGS)
        from config.celery import app

        self.app = app
        deadline = time.monotonic() + 60
        while not app.control.ping(destination=[self.node], timeout=1):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise SystemExit(f"the Celery worker did not start; see {self.log}")

    def totals(self) -> dict[str, int]:
        """Tasks the worker has taken since it started, by name (Celery's ``inspect stats``)."""
        for _ in range(5):
            stats = self.app.control.inspect(destination=[self.node], timeout=2).stats()
            if stats and self.node in stats:
                return dict(stats[self.node]["total"])
        raise SystemExit(f"the Celery worker does not answer; see {self.log}")

    def idle(self) -> bool:
        """Nothing queued for it, nothing held for later (a countdown), nothing running."""
        import redis

        client = redis.Redis.from_url(REDIS_URL)
        if client.llen("celery") or client.llen("race"):
            return False
        inspect = self.app.control.inspect(destination=[self.node], timeout=1)
        for look in (inspect.active, inspect.reserved, inspect.scheduled):
            answer = look()
            if answer is None or answer.get(self.node):
                return False
        return True

    def runs(self) -> dict[str, dict[str, int]]:
        """From its log: each task's runs that returned a value, and those that returned None
        (a recompute with nothing new to fold, a race already current)."""
        counted: dict[str, dict[str, int]] = {}
        for line in self.log.read_text(errors="replace").splitlines():
            if found := SUCCEEDED.search(line):
                kind = "none" if found[2].strip() == "None" else "value"
                task = counted.setdefault(found[1], {"value": 0, "none": 0})
                task[kind] += 1
        return counted


# --- Where the CPU went -----------------------------------------------------------------------


def processes() -> dict[int, tuple[int, float, bytes]]:
    """Every process's parent, CPU seconds (its own, user and system) and command line."""
    found = {}
    tick = os.sysconf("SC_CLK_TCK")
    for pid in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not pid.isdigit():
            continue
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        found[int(pid)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick, command)
    return found


def cpu_snapshot(roots: dict[str, list[int]]) -> dict[str, dict[int, float]]:
    """CPU seconds so far of each process of each kind: ``roots[kind]`` and their descendants
    (gunicorn's workers, Celery's pool), PostgreSQL's backends connected to this benchmark's
    database, and this process's finished children (the load generator, as ``load``)."""
    table = processes()
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in table.items():
        children.setdefault(parent, []).append(pid)
    used: dict[str, dict[int, float]] = {}
    for kind, pids in roots.items():
        seen, todo = {}, list(pids)
        while todo:
            pid = todo.pop()
            if pid in table and pid not in seen:
                seen[pid] = table[pid][1]
                todo.extend(children.get(pid, ()))
        used[kind] = seen
    database = f" {DATABASE_NAME} ".encode()
    used["postgres"] = {
        pid: seconds
        for pid, (_, seconds, command) in table.items()
        if command.startswith(b"postgres:") and database in command
    }
    finished = resource.getrusage(resource.RUSAGE_CHILDREN)
    used["load"] = {0: finished.ru_utime + finished.ru_stime}
    return used


def cpu_used(before: dict, after: dict) -> dict[str, float]:
    """CPU seconds each kind used between two snapshots. A backend that exited meanwhile (its
    connection reached ``CONN_MAX_AGE``) is missing from the second: its last moments are not
    counted (an undercount of PostgreSQL, never a negative)."""
    return {
        kind: sum(seconds - before.get(kind, {}).get(pid, 0.0) for pid, seconds in now.items())
        for kind, now in after.items()
    }


# --- The entrances --------------------------------------------------------------------------


class _Forms(HTMLParser):
    """The forms of a page: each one's attributes and its controls, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self.current: dict | None = None

    def handle_starttag(self, tag, attrs):
        attributes = {name: value if value is not None else "" for name, value in attrs}
        if tag == "form":
            self.current = {"attrs": attributes, "controls": []}
            self.forms.append(self.current)
        elif self.current is not None and tag in ("input", "button", "select", "textarea"):
            self.current["controls"].append((tag, attributes))

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None


def hand_form(html: str) -> tuple[str, list[tuple[str, str]]]:
    """The captain page's hand form: its action, and the fields its script sends (``FormData``
    of the form, submitted by its unnamed "Record hand" button) as ``(name, template)`` in the
    page's order, for ``http_load.py``: the client key ``{key}``, the hand's ``{number}``, the
    tapped ``{caller}`` and 3 tricks; any other hidden field (a CSRF token) as the page gives
    it, radio buttons left as checked (no renege), boxes left unticked."""
    parser = _Forms()
    parser.feed(html)
    forms = [form for form in parser.forms if form["attrs"].get("action", "").endswith("/hands/")]
    if len(forms) != 1:
        raise ValueError(f"the captain page has {len(forms)} hand forms, not one")
    placeholders = {"key": "{key}", "number": "{number}"}
    tapped = {"caller": "{caller}", "tricks_won": "3"}
    fields: list[tuple[str, str]] = []
    groups: set[str] = set()
    choices: dict[str, set[str]] = {}
    for tag, attrs in forms[0]["controls"]:
        name, kind = attrs.get("name"), attrs.get("type", "text" if tag == "input" else tag)
        if not name or tag == "button" or kind in ("submit", "button", "reset"):
            continue  # the submitter has no name: "Record hand" sends no field of its own
        value = attrs.get("value", "")
        if kind == "radio":
            choices.setdefault(name, set()).add(value)
            if name in groups:
                continue
            if name in tapped:
                groups.add(name)
                fields.append((name, tapped[name]))
            elif "checked" in attrs:
                groups.add(name)
                fields.append((name, value))
        elif kind == "checkbox":
            if "checked" in attrs:
                fields.append((name, value or "on"))
        elif kind == "hidden" and name in placeholders:
            fields.append((name, placeholders[name]))
        elif tag in ("input", "textarea"):
            fields.append((name, value.replace("{", "{{").replace("}", "}}")))
        else:
            raise ValueError(f"the hand form has a {tag} {name!r} the benchmark cannot fill")
    missing = {*placeholders, *tapped} - {name for name, _ in fields}
    if missing:
        raise ValueError(f"the hand form has no {', '.join(sorted(missing))}")
    if "3" not in choices.get("tricks_won", ()):
        raise ValueError("the hand form offers no 3 tricks")
    return forms[0]["attrs"]["action"], fields


def _cookies(response) -> dict[str, str]:
    jar = SimpleCookie()
    for header in response.headers.get_all("Set-Cookie") or ():
        jar.load(header)
    return {name: morsel.value for name, morsel in jar.items()}


def cookie_header(cookies: dict[str, str]) -> str:
    return "; ".join(f"{name}={value}" for name, value in cookies.items())


def _get(port: int, path: str, cookies: dict[str, str] | None = None):
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Host": "127.0.0.1"}
    if cookies:
        headers["Cookie"] = cookie_header(cookies)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    return response, response.read().decode()


def organiser_session(port: int, username: str, password: str) -> dict[str, str]:
    """Log in once through ``/manage/login/`` as a browser does; its cookies (session, CSRF)."""
    import http.client

    response, page = _get(port, "/manage/login/")
    cookies = _cookies(response)
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    if response.status != 200 or found is None or "csrftoken" not in cookies:
        raise SystemExit(f"the login page answered {response.status} without a CSRF token")
    body = urlencode(
        {"csrfmiddlewaretoken": found[1], "username": username, "password": password, "next": ""}
    )
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request(
        "POST",
        "/manage/login/",
        body=body,
        headers={
            "Host": "127.0.0.1",
            "Origin": ORIGIN,
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": cookie_header(cookies),
        },
    )
    answer = connection.getresponse()
    answer.read()
    cookies |= _cookies(answer)  # the session, and the CSRF token rotated at login
    if answer.status != 302 or "sessionid" not in cookies:
        raise SystemExit(f"logging in through /manage/login/ answered {answer.status}")
    return cookies


@dataclass
class Entrance:
    """One way a hand gets in, as ``http_load.py`` is to send it."""

    key: str
    label: str
    port: int
    style: str = "json"
    expect: int = 201
    path: str = "/api/v1/games/{id}/hands/"  # {id} the game's, {token} its captain token
    headers: dict = field(default_factory=dict)
    game_headers: dict = field(default_factory=dict)  # with {token}
    marker: str | None = None
    form: list = field(default_factory=list)
    product: bool = True

    def plan(self, games: list, callers: dict, clients: int, seconds: float) -> dict:
        """``games``: (id, captain token) pairs, dealt out to ``clients`` clients."""
        per_client = len(games) // clients
        entries = [
            {
                "path": self.path.format(id=game_id, token=token),
                "headers": {
                    name: value.format(token=token) for name, value in self.game_headers.items()
                },
            }
            for game_id, token in games
        ]
        return {
            "port": self.port,
            "seconds": seconds,
            "hands_per_game": HANDS_PER_GAME,
            "style": self.style,
            "headers": self.headers,
            "expect": self.expect,
            "marker": self.marker,
            "form": self.form,
            "callers": callers,
            "clients": [entries[n * per_client : (n + 1) * per_client] for n in range(clients)],
        }


def entrances(bench: Bench) -> list[Entrance]:
    """The four entrances of the product, ready to post (the session logged in, the captain
    page's form read from the page)."""
    session = organiser_session(PORT, bench.username, bench.password)
    (game,) = bench.made(1, bench.night())
    response, page = _get(PORT, f"/t/{game.captain_token}/")
    if response.status != 200:
        raise SystemExit(f"the captain page answered {response.status}")
    action, fields = hand_form(page)
    if action != f"/t/{game.captain_token}/hands/":
        raise SystemExit(f"the captain page posts its hands to {action}")
    page_cookies = _cookies(response)
    form_headers = {"HX-Request": "true", "Origin": ORIGIN}  # captain.js's fetch
    if page_cookies:
        form_headers["Cookie"] = cookie_header(page_cookies)
    return [
        Entrance(
            "token", "organiser token", PORT, headers={"Authorization": f"Token {bench.token}"}
        ),
        Entrance("captain", "X-Captain-Token", PORT, game_headers={"X-Captain-Token": "{token}"}),
        Entrance(
            "form",
            "captain form (/t/)",
            PORT,
            style="form",
            expect=200,
            path="/t/{token}/hands/",
            headers=form_headers,
            marker='class="flash ok"',
            form=fields,
        ),
        Entrance(
            "session",
            "organiser session",
            PORT,
            headers={
                "Cookie": cookie_header(session),
                "X-CSRFToken": session["csrftoken"],
                "Origin": ORIGIN,
            },
        ),
    ]


FLOOR = Entrance(
    "floor", "floor (one INSERT)", FLOOR_PORT, path="/floor/{id}/hands/", product=False
)
SKELETON = Entrance(
    "skeleton",
    "writes alone, ORM",
    SKELETON_PORT,
    path="/skeleton/{id}/hands/",
    game_headers={"X-Captain-Token": "{token}"},
)
"""Not an entrance of the product: its writes of a hand in the plainest ORM code, behind its
whole request stack (``benchmarks/stack_urls.py``), served by a third server of the same
command. Any hand entry on Django's ORM costs at least this; it is measured as the entrances
are, and left out of the contended check (it refuses nothing)."""


# --- Runs ----------------------------------------------------------------------------------------


@dataclass
class Run:
    entrance: Entrance
    clients: int
    result: dict
    cpu: dict[str, float]
    tasks: dict[str, int]
    stored: int
    caught_up: float | None  # seconds from the end of the load to the standings folding it all

    @property
    def rate(self) -> float:
        return self.result["ok"] / self.result["elapsed"]

    @property
    def lost(self) -> int:
        return self.result["ok"] - self.stored


def load(plan: dict) -> dict:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "http_load.py")],
        input=json.dumps(plan),
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise SystemExit(f"the load on port {plan['port']} failed:\n{done.stderr}")
    return json.loads(done.stdout)


class Bencher:
    def __init__(self, bench: Bench, worker: Worker, servers: list[Process]) -> None:
        self.bench, self.worker = bench, worker
        self.roots = {"web": [server.pid for server in servers], "worker": [worker.pid]}

    def run(self, entrance: Entrance, clients: int, seconds: float) -> Run:
        from django.db import connection

        from scoring.games.models import Hand, ResultChange

        bound = MOST_PER_SECOND.get(clients, MOST_PER_SECOND[None])
        per_client = math.ceil(seconds * bound / clients / HANDS_PER_GAME) + 1
        count = clients * per_client
        season = None
        if entrance.product:
            season = self.bench.night()
            games = [(g.pk, g.captain_token) for g in self.bench.made(count, season)]
        else:
            games = [(pk, "") for pk in self.bench.floor_ids(count)]
        plan = entrance.plan(games, self.bench.callers, clients, seconds)
        tasks_before, cpu_before = self.worker.totals(), cpu_snapshot(self.roots)
        result = load(plan)
        ended, caught_up = time.monotonic(), None
        deadline = ended + CATCH_UP_SECONDS
        while time.monotonic() < deadline:
            pending = season is not None and ResultChange.objects.filter(season=season).exists()
            if not pending:
                caught_up = time.monotonic() - ended if caught_up is None else caught_up
                if self.worker.idle():
                    break
            time.sleep(0.05)
        cpu = cpu_used(cpu_before, cpu_snapshot(self.roots))
        tasks_after = self.worker.totals()
        tasks = {
            name: total - tasks_before.get(name, 0)
            for name, total in tasks_after.items()
            if total != tasks_before.get(name, 0)
        }
        if season is not None:
            stored = Hand.objects.filter(game__season=season, status=Hand.Status.ACTIVE).count()
        else:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM bench_floor_hand WHERE game_id BETWEEN %s AND %s",
                    [games[0][0], games[-1][0]],
                )
                (stored,) = cursor.fetchone()
        return Run(entrance, clients, result, cpu, tasks, stored, caught_up)


def percentile(latencies: list[float], share: float) -> float:
    return latencies[min(len(latencies) - 1, math.ceil(len(latencies) * share) - 1)]


def flash_error(body: str) -> str:
    found = re.search(r'class="flash error"[^>]*>([^<]*)', body)
    return found[1] if found else body[:300]


def measure(bench: Bench, config: str, logs: Path, worker: Worker) -> dict:
    name = config.replace(":", "-")
    product = start_server(f"web-{name}", config, PORT, ENV, ("GET", "/healthz"), logs)
    floor = start_server(
        f"floor-{name}", config, FLOOR_PORT, FLOOR_ENV, ("GET", "/floor/0/hands/"), logs
    )
    servers = [product, floor]
    if SKELETON.key in CHOSEN:
        servers.append(
            start_server(
                f"skeleton-{name}", config, SKELETON_PORT, STACK_ENV, ("GET", "/healthz"), logs
            )
        )
    runs: list[tuple[int, str, Run]] = []  # (round, "alone" | "loaded", run)
    order: dict[int, list[str]] = {}
    try:
        doors = [door for door in (*entrances(bench), SKELETON) if door.key in CHOSEN]
        bencher = Bencher(bench, worker, servers)
        for entrance in (FLOOR, *doors):  # warm up: connections, imports, caches; and a check
            run = bencher.run(entrance, CLIENTS, SECONDS_WARM_UP)
            if run.result["failures"]:
                failure = run.result["failures"][0]
                raise SystemExit(
                    f"{entrance.label}: {run.result['statuses']} while warming up; the first: "
                    f"{failure['status']} {failure['path']}: {flash_error(failure['body'])}"
                )
        for round_number in range(ROUNDS):
            turned = doors[round_number % len(doors) :] + doors[: round_number % len(doors)]
            order[round_number] = [entrance.key for entrance in turned]
            for entrance in (FLOOR, *turned):
                runs.append((round_number, "alone", bencher.run(entrance, 1, SECONDS_ALONE)))
            sequence = [FLOOR]
            for entrance in turned:
                sequence += [entrance, FLOOR]
            for entrance in sequence:
                run = bencher.run(entrance, CLIENTS, SECONDS_LOADED)
                runs.append((round_number, "loaded", run))
    finally:
        for server in servers:
            server.stop()
    return {
        "config": config,
        "doors": doors,
        "runs": runs,
        "order": order,
        "problems": {server.name: server.problems() for server in servers},
    }


def report(measured: dict) -> bool:
    """Print one configuration's table; say whether every check held."""
    doors, runs = measured["doors"], measured["runs"]
    ok = True
    print(
        f"gunicorn {' '.join(gunicorn_args(measured['config']))} "
        f"{' '.join(dockerfile_gunicorn_flags())}"
    )
    ratios: dict[str, list[float]] = {}
    by_round: dict[int, list[Run]] = {}
    for round_number, kind, run in runs:
        if kind == "loaded":
            by_round.setdefault(round_number, []).append(run)
    floor_spread = []
    for sequence in by_round.values():
        floors = [run.rate for run in sequence[0::2]]
        floor_spread.append(max(floors) / min(floors))
        for index in range(1, len(sequence), 2):
            run = sequence[index]
            floor = (sequence[index - 1].rate + sequence[index + 1].rate) / 2
            ratios.setdefault(run.entrance.key, []).append(run.rate / floor)
    print(
        f"  {'':<20} {'1 client':>8} │ {f'{CLIENTS} clients':<44} │ "
        f"hands/floor at {CLIENTS} clients"
    )
    print(
        f"  {'entrance':<20} {'p50 ms':>8} │ {'req/s':>5}  {'(by round)':<22} {'p50 ms':>6} "
        f"{'p99 ms':>7} │ {'min':>4} {'med':>5} {'max':>5}  (by round)"
    )
    for entrance in (FLOOR, *doors):
        alone = sorted(
            latency
            for _, kind, run in runs
            if kind == "alone" and run.entrance.key == entrance.key
            for latency in run.result["latencies"]
        )
        loaded_runs = [
            (round_number, run)
            for round_number, kind, run in runs
            if kind == "loaded" and run.entrance.key == entrance.key
        ]
        loaded = sorted(latency for _, run in loaded_runs for latency in run.result["latencies"])
        per_round = [
            statistics.median(run.rate for r, run in loaded_runs if r == round_number)
            for round_number in sorted(by_round)
        ]
        rounds = "(" + ", ".join(f"{rate:.0f}" for rate in per_round) + ")"
        line = (
            f"  {entrance.label:<20} {statistics.median(alone) * 1000:8.2f} │ "
            f"{statistics.median(per_round):5.0f}  {rounds:<22} "
            f"{statistics.median(loaded) * 1000:6.1f} {percentile(loaded, 0.99) * 1000:7.1f} │"
        )
        if entrance.key in ratios:
            values = ratios[entrance.key]
            line += (
                f" {min(values):4.2f} {statistics.median(values):5.2f} {max(values):5.2f}  "
                f"({', '.join(f'{value:.2f}' for value in values)})"
            )
        print(line)
    print(
        f"  an entrance's ratio: its rate over the mean of the floor's runs just before and "
        f"after it (target ≥ {TARGET}×); the floor's req/s by round: the median of its "
        f"{len(doors) + 1} runs, which spread {min(floor_spread):.2f}-{max(floor_spread):.2f}× "
        f"(max/min) within a round; order by round: "
        + "; ".join(", ".join(keys) for keys in measured["order"].values())
    )
    print(
        f"  CPU ms per request at {CLIENTS} clients (web, postgres, worker, load generator), "
        f"and the floor's total over this one's:"
    )
    floor_total = None
    for entrance in (FLOOR, *doors):
        loaded_runs = [r for _, k, r in runs if k == "loaded" and r.entrance.key == entrance.key]
        requests = sum(run.result["count"] for run in loaded_runs)
        spent = {
            kind: sum(run.cpu.get(kind, 0.0) for run in loaded_runs) / requests * 1000
            for kind in ("web", "postgres", "worker", "load")
        }
        total = sum(spent.values())
        floor_total = total if floor_total is None else floor_total
        print(
            f"    {entrance.label:<20} "
            + "  ".join(f"{kind} {value:5.2f}" for kind, value in spent.items())
            + f"   all {total:5.2f}"
            + (f"   {floor_total / total:.2f}×" if entrance.product else "")
        )
    recompute, race = "scoring.recompute_season_standings", "scoring.compute_season_race"
    print(
        f"  The worker during each run at {CLIENTS} clients (recomputes, races; the standings "
        "current after):"
    )
    for entrance in doors:
        loaded_runs = [r for _, k, r in runs if k == "loaded" and r.entrance.key == entrance.key]
        recomputes = [run.tasks.get(recompute, 0) for run in loaded_runs]
        races = [run.tasks.get(race, 0) for run in loaded_runs]
        hands = [run.result["ok"] for run in loaded_runs]
        caught = [run.caught_up for run in loaded_runs]
        shown = ", ".join("never" if c is None else f"{c:.1f}" for c in caught)
        print(
            f"    {entrance.label:<20} recomputes {', '.join(map(str, recomputes))} "
            f"for {', '.join(map(str, hands))} hands; races {', '.join(map(str, races))}; "
            f"standings current {shown} s after the load stopped"
        )
        ok &= all(c is not None for c in caught)
    others = {name for _, _, run in runs for name in run.tasks if name not in (recompute, race)}
    if others:
        print(f"    other tasks the worker took: {', '.join(sorted(others))}")
    failed = [
        (run.entrance.label, run.result["statuses"], run.result["failures"])
        for _, _, run in runs
        if run.result["failures"]
    ]
    lost = [(run.entrance.label, run.result["ok"], run.stored) for _, _, run in runs if run.lost]
    for label, statuses, failures in failed:
        first = failures[0]
        print(
            f"  ANSWERS OTHER THAN SUCCESS from {label}: {statuses}; the first: {first['status']} "
            f"{first['path']}: {flash_error(first['body'])}"
        )
    for label, answered, stored in lost:
        print(f"  HANDS MISCOUNTED by {label}: {answered} answered as recorded, {stored} stored")
    for name, problems in measured["problems"].items():
        for line in problems[:5]:
            print(f"  {name} log: {line}")
    problems = sum(len(lines) for lines in measured["problems"].values())
    print(
        f"  checks: every answer a success: {not failed}; every hand answered as recorded is "
        f"stored, once: {not lost}; errors in the servers' logs: {problems}"
    )
    return ok and not failed and not lost and not problems


def contended(bench: Bench, config: str, logs: Path, hands: int = 50) -> bool:
    """4 clients, one per entrance, enter the same hand numbers of one game (of the long
    season): each number must be recorded exactly once, and the others answered 409."""
    import http.client

    from scoring.games.models import Hand

    server = start_server("web-contended", config, PORT, ENV, ("GET", "/healthz"), logs)
    (game,) = bench.made(1, bench.season)
    outcomes: dict[int, list[tuple[str, int, bool]]] = {}
    lock = threading.Lock()
    try:
        doors = entrances(bench)

        def client(entrance: Entrance):
            from benchmarks.http_load import hand_body

            plan = entrance.plan([(game.pk, game.captain_token)], bench.callers, 1, 0)
            (entry,) = plan["clients"][0]
            kind = (
                "application/x-www-form-urlencoded"
                if entrance.style == "form"
                else ("application/json")
            )
            connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
            for number in range(1, hands + 1):
                key = uuid.uuid4().hex
                connection.request(
                    "POST",
                    entry["path"],
                    body=hand_body(plan, number, key),
                    headers={
                        "Host": "127.0.0.1",
                        "Content-Type": kind,
                        "Idempotency-Key": key,
                        **entrance.headers,
                        **entry["headers"],
                    },
                )
                response = connection.getresponse()
                body = response.read()
                recorded = response.status == entrance.expect and (
                    entrance.marker is None or entrance.marker.encode() in body
                )
                with lock:
                    outcomes.setdefault(number, []).append(
                        (entrance.key, response.status, recorded)
                    )

        threads = [threading.Thread(target=client, args=(door,)) for door in doors]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        server.stop()
    created = sum(recorded for results in outcomes.values() for _, _, recorded in results)
    conflicts = sum(status == 409 for results in outcomes.values() for _, status, _ in results)
    others = sorted(
        {
            (key, status)
            for results in outcomes.values()
            for key, status, recorded in results
            if not recorded and status != 409
        }
    )
    once = all(sum(r for _, _, r in results) == 1 for results in outcomes.values())
    stored = Hand.objects.filter(game=game, status=Hand.Status.ACTIVE).count()
    game.refresh_from_db()
    winners: dict[str, int] = {}
    for results in outcomes.values():
        for key, _, recorded in results:
            winners[key] = winners.get(key, 0) + recorded
    held = once and not others and stored == created == hands == game.score_a + game.score_b
    print(
        f"contended (4 clients on one game, one per entrance, {config}): {created} recorded "
        f"({', '.join(f'{key} {n}' for key, n in winners.items())}), {conflicts} answered 409"
        f"{', other answers: ' + str(others) if others else ''}, {stored} stored, score "
        f"{game.score_a}–{game.score_b}; every number exactly once: {held}"
    )
    return held


def main() -> None:
    logs = Path(tempfile.mkdtemp(prefix="bench-hands-"))
    recreate_database()
    bench = Bench()
    forget_queued_work()
    worker = Worker(logs)
    held = True
    try:
        print(
            f"Hand entry on PostgreSQL via gunicorn, by every entrance, beside a one-INSERT floor "
            f"({ROUNDS} rounds; runs of {SECONDS_ALONE:g} s at 1 client and {SECONDS_LOADED:g} s "
            f"at {CLIENTS}; games to 10, {HANDS_PER_GAME} hands each, a fresh season a run; "
            f"a Celery worker consuming: {worker.command}; logs in {logs})"
        )
        for config in CONFIGS:
            held &= report(measure(bench, config, logs, worker))
        held &= contended(bench, CONFIGS[0], logs)
    finally:
        worker.stop()
        tasks = worker.runs()
        problems = worker.problems()
        bench.close()
        drop_database()
        forget_queued_work()
    recomputes = tasks.get("scoring.recompute_season_standings", {"value": 0, "none": 0})
    races = tasks.get("scoring.compute_season_race", {"value": 0, "none": 0})
    print(
        f"the worker ran {recomputes['value'] + recomputes['none']} recomputes "
        f"({recomputes['value']} stored a snapshot, {recomputes['none']} found nothing new or "
        f"gave way) and {races['value'] + races['none']} races in all; errors in its log: "
        f"{len(problems)}"
    )
    for line in problems[:5]:
        print(f"  worker log: {line}")
    if problems or not held:
        sys.exit(1)


if __name__ == "__main__":
    main()
