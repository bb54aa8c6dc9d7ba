"""The lines a reader must follow for three operations, each driven through what a user touches.

Run from the repository root: ``.venv/bin/python benchmarks/reading_paths.py`` (the tree measured
is the current directory when it holds ``manage.py``, else this file's repository;
``READPATHS_ROOT`` overrides). Prints its tables; not a test. It writes nothing in the tree: a
throwaway SQLite file under the system's temporary folder, no ``.pyc`` files, ``SECRET_KEY`` and
``SQLITE_PATH`` given in the environment. It names no product module: data is made through the
REST API (``/api/v1/leagues/``, ``seasons``, ``players``, ``teams``, ``games``, ``brackets``) as
an organiser with a DRF token, and the recompute job is sent by its task name, so the same
script runs unchanged before and after the ``games``/``standings`` split (issue 30).

The operations (each run once untraced first, so imports and caches do not count):

1. *storing a hand*: ``POST /api/v1/games/<id>/hands/`` (organiser token, an idempotency key), a
   hand that does not end the game. The standings job that the commit enqueues runs in process
   in eager mode; it is a worker's job in production, so it is not traced (Celery's
   ``task_prerun``/``task_postrun`` signals switch the trace off while any task runs).
2. *recomputing standings*: ``scoring.recompute_season_standings`` sent by name,
   ``current_app.signature(name).apply(args=(season_id,))``, after hands in three games were
   stored with eager mode off (so they are pending, not already folded): the incremental fold.
   Tasks it enqueues itself (the playoff race) are not traced.
3. *advancing a bracket*: the hand that ends a bracket match's game (8-team single
   elimination; the game whose match makes the next match ready, so a game is created). Traced
   from the moment the ``game_finished`` signal is sent (a ``django.dispatch`` send carrying
   ``game_id`` and ``change``) until it returns: the tournaments receiver, the
   ``tournaments.bracket_advance`` task (eager) and the advance. A second row gives the whole
   POST (hand + advance, the standings job still excluded).

Traced: the *product* files, every ``.py`` file under a top-level package of the tree (a folder
with ``__init__.py``) other than ``tests``, ``benchmarks`` and ``scripts``, and not under
``migrations``. Measures, per operation:

- *files*: product files in which at least one function was entered;
- *functions*: distinct code objects entered (comprehensions and generator expressions are not
  counted apart from the function holding them; lambdas are);
- *lines to read*: the union, per file, of the source ranges of the functions entered (from
  ``co_firstlineno``, decorators included, to the last line in ``co_lines()``): the lines a
  reader must follow; nested functions are not counted twice;
- *lines run*: distinct (file, line) pairs executed;
- *moves*: how often the innermost product frame's file changes along the call/return sequence
  (a call into another file, a return to the caller's file; time spent in Django, DRF or Celery
  between two product frames is skipped, so a framework calling back into another product file
  counts as a move);
- *re-entries*: for each file, how often control comes back to it after it went to another
  product file, summed ("leaves and re-enters the same module").

Traced with ``sys.settrace`` in the main thread only: work on other threads (the PostgreSQL
helper thread of the old standings; SQLite here) is not seen. ``READPATHS_SEQUENCE=1`` also
prints each operation's sequence of files.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import warnings
from collections import Counter, defaultdict
from pathlib import Path

sys.dont_write_bytecode = True  # nothing written in the tree measured


def _root() -> Path:
    if os.environ.get("READPATHS_ROOT"):
        return Path(os.environ["READPATHS_ROOT"]).resolve()
    if (Path.cwd() / "manage.py").exists():
        return Path.cwd().resolve()
    return Path(__file__).resolve().parent.parent


ROOT = _root()
NOT_PRODUCT = {"tests", "benchmarks", "scripts", ".venv", "node_modules", "static", "templates"}
PACKAGES = sorted(
    path.name
    for path in ROOT.iterdir()
    if path.is_dir() and path.name not in NOT_PRODUCT and (path / "__init__.py").exists()
)
PASSWORD = "reading-paths-benchmark"
LONE_MARCH = {"makers": "A", "caller_alone": True, "tricks_won": 5}  # 4 points
MARCH = {"makers": "A", "tricks_won": 5}  # 2 points
POINT = {"makers": "A", "tricks_won": 3}  # 1 point
ENDING = [LONE_MARCH, LONE_MARCH, LONE_MARCH]  # 12 points: over under every preset used here


# --------------------------------------------------------------------------------------------
# The tracer
# --------------------------------------------------------------------------------------------
_product_cache: dict[str, str | None] = {}


def product_name(filename: str) -> str | None:
    """The file's path relative to the tree when it is product code, else ``None``."""
    try:
        return _product_cache[filename]
    except KeyError:
        pass
    name = None
    try:
        relative = Path(filename).resolve().relative_to(ROOT)
    except (ValueError, OSError):
        relative = None
    if (
        relative is not None
        and relative.suffix == ".py"
        and relative.parts[0] in PACKAGES
        and "migrations" not in relative.parts
    ):
        name = relative.as_posix()
    _product_cache[filename] = name
    return name


def code_range(code) -> tuple[int, int]:
    last = max((line for _, _, line in code.co_lines() if line is not None), default=0)
    return code.co_firstlineno, max(last, code.co_firstlineno)


NESTED = {"<genexpr>", "<listcomp>", "<dictcomp>", "<setcomp>"}


class Stats:
    note = ""

    def __init__(self, title: str) -> None:
        self.title = title
        self.codes: dict[str, set] = defaultdict(set)
        self.lines: dict[str, set[int]] = defaultdict(set)
        self.last: str | None = None
        self.visited: set[str] = set()
        self.moves = 0
        self.reentries: Counter[str] = Counter()
        self.sequence: list[str] = []

    def enter(self, name: str, code) -> None:
        self.codes[name].add(code)

    def line(self, name: str, number: int) -> None:
        self.lines[name].add(number)

    def current(self, name: str | None) -> None:
        if name is None or name == self.last:
            return
        if self.last is not None:
            self.moves += 1
            if name in self.visited:
                self.reentries[name] += 1
        self.visited.add(name)
        self.last = name
        self.sequence.append(name)

    # figures
    def functions(self, name: str | None = None) -> int:
        files = [name] if name else list(self.codes)
        return sum(1 for file in files for code in self.codes[file] if code.co_name not in NESTED)

    def lines_to_read(self, name: str | None = None) -> int:
        files = [name] if name else list(self.codes)
        total = 0
        for file in files:
            covered: set[int] = set()
            for code in self.codes[file]:
                first, last = code_range(code)
                covered.update(range(first, last + 1))
            total += len(covered)
        return total

    def file_lines(self) -> int:
        return sum(len((ROOT / name).read_text().splitlines()) for name in self.codes)

    def lines_run(self, name: str | None = None) -> int:
        files = [name] if name else list(self.lines)
        return sum(len(self.lines[file]) for file in files)


class Tracer:
    """``sys.settrace`` over product frames. ``window``: ``"all"`` traces everything the
    operation runs; ``"game_finished"`` only what runs inside the send of the game_finished
    signal (``whole`` then collects the entire operation as well). Celery tasks not named in
    ``allowed`` switch the trace off while they run (and everything they call)."""

    def __init__(self, stats: Stats, *, allowed=(), window="all", whole: Stats | None = None):
        self.stats = stats
        self.whole = whole
        self.allowed = set(allowed)
        self.window = window
        self.in_window = window == "all"
        self.window_frame = None
        self.windows_seen = 0
        self.tasks: list[str] = []
        self.blocked = 0  # depth of tasks not allowed
        self.tasks_seen: Counter[str] = Counter()
        self.tasks_skipped: Counter[str] = Counter()

    # Celery's documented task signals
    def task_prerun(self, sender=None, **kwargs) -> None:
        name = getattr(sender, "name", str(sender))
        self.tasks.append(name)
        if name in self.allowed and not self.blocked:
            self.tasks_seen[name] += 1
        else:
            self.blocked += 1
            if self.blocked == 1:
                self.tasks_skipped[name] += 1

    def task_postrun(self, sender=None, **kwargs) -> None:
        name = self.tasks.pop() if self.tasks else ""
        if not (name in self.allowed and not self.blocked) and self.blocked:
            self.blocked -= 1

    def _targets(self) -> list[Stats]:
        if self.blocked:
            return []
        targets = [self.whole] if self.whole is not None else []
        if self.in_window:
            targets.append(self.stats)
        return targets

    @staticmethod
    def _innermost(frame, stop=None) -> str | None:
        while frame is not None and frame is not stop:
            name = product_name(frame.f_code.co_filename)
            if name is not None:
                return name
            frame = frame.f_back
        return None

    def global_trace(self, frame, event, arg):
        code = frame.f_code
        name = product_name(code.co_filename)
        if name is None:
            if (
                self.window == "game_finished"
                and self.window_frame is None
                and code.co_name in ("send", "send_robust")
                and code.co_filename.replace("\\", "/").endswith("django/dispatch/dispatcher.py")
            ):
                named = frame.f_locals.get("named") or {}
                if "game_id" in named and "change" in named:
                    self.window_frame = frame
                    self.in_window = True
                    self.windows_seen += 1
                    return self.window_trace
            return None
        targets = self._targets()
        if not targets:
            return None
        for stats in targets:
            stats.enter(name, code)
            stats.current(name)
        return self.local_trace

    def window_trace(self, frame, event, arg):
        if event == "return" and frame is self.window_frame:
            self.window_frame = None
            self.in_window = False
            self.stats.last = None  # a later window starts afresh
        return self.window_trace if event != "return" else None

    def local_trace(self, frame, event, arg):
        if event == "line":
            targets = self._targets()
            if targets:
                name = product_name(frame.f_code.co_filename)
                for stats in targets:
                    stats.line(name, frame.f_lineno)
        elif event == "return":
            targets = self._targets()
            if targets:
                back = self._innermost(frame.f_back)
                for stats in targets:
                    if stats is self.stats and self.window_frame is not None:
                        # inside the window, the frames below the send are not the advance's
                        stats.current(self._innermost(frame.f_back, stop=self.window_frame))
                    else:
                        stats.current(back)
        return self.local_trace

    def run(self, operation):
        from celery.signals import task_postrun, task_prerun

        task_prerun.connect(self.task_prerun, weak=False)
        task_postrun.connect(self.task_postrun, weak=False)
        sys.settrace(self.global_trace)
        try:
            return operation()
        finally:
            sys.settrace(None)
            task_prerun.disconnect(self.task_prerun)
            task_postrun.disconnect(self.task_postrun)


# --------------------------------------------------------------------------------------------
# Django, data through the API
# --------------------------------------------------------------------------------------------
def setup_django(workdir: Path) -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "SQLITE_PATH": str(workdir / "readpaths.sqlite3"),
            "DATABASE_URL": "",
            "REDIS_URL": "",
            "SECURE_SSL_REDIRECT": "0",
            "LOG_LEVEL": "ERROR",
            "SECRET_KEY": "reading-paths-benchmark-not-a-secret",
            "DEBUG": "0",
            "STATIC_ROOT": str(workdir / "static"),
        }
    )
    sys.path[:] = [str(ROOT)] + [
        p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent
    ]
    import django

    django.setup()
    from django.db import connection

    database = Path(str(connection.settings_dict["NAME"])).resolve()
    if ROOT in database.parents:
        raise SystemExit(f"refusing to run: the database {database} is inside the tree")
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()  # locmem email, testserver allowed
    warnings.filterwarnings("ignore", message="No directory at")  # whitenoise: no collectstatic
    call_command("migrate", verbosity=0)
    import logging

    logging.disable(logging.WARNING)


class Api:
    def __init__(self) -> None:
        from django.contrib.auth import get_user_model
        from rest_framework.authtoken.models import Token
        from rest_framework.test import APIClient

        user = get_user_model().objects.create_user("readpaths", password=PASSWORD)
        token, _ = Token.objects.get_or_create(user=user)
        self.client = APIClient()
        self.client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        self.keys = 0

    def post(self, url: str, body: dict | None = None, expect=(200, 201), **headers) -> dict:
        response = self.client.post(url, body or {}, format="json", **headers)
        if response.status_code not in expect:
            raise RuntimeError(f"POST {url} {body}: {response.status_code} {response.content!r}")
        return response.json()

    def get(self, url: str) -> dict:
        response = self.client.get(url)
        if response.status_code != 200:
            raise RuntimeError(f"GET {url}: {response.status_code} {response.content!r}")
        return response.json()

    def hand(self, game_id: int, facts: dict) -> dict:
        self.keys += 1
        return self.post(
            f"/api/v1/games/{game_id}/hands/",
            facts,
            HTTP_IDEMPOTENCY_KEY=f"readpaths-{self.keys}",
        )

    def season(self, name: str, teams: int, preset: str = "standard") -> tuple[int, list[dict]]:
        league = self.post("/api/v1/leagues/", {"name": f"Reading paths {name}"})["id"]
        season = self.post(
            "/api/v1/seasons/",
            {"league": league, "name": name, "format": "teams", "preset": preset},
        )["id"]
        made = []
        for number in range(1, teams + 1):
            one, two = (
                self.post("/api/v1/players/", {"league": league, "name": f"{name} P{number}{s}"})[
                    "id"
                ]
                for s in "ab"
            )
            team = self.post(
                "/api/v1/teams/",
                {
                    "season": season,
                    "name": f"{name} T{number}",
                    "player_one": one,
                    "player_two": two,
                },
            )
            made.append({"id": team["id"], "players": (one, two)})
        return season, made

    def game(self, season: int, first: dict, second: dict) -> int:
        seats = [
            first["players"][0],
            second["players"][0],
            first["players"][1],
            second["players"][1],
        ]
        return self.post(
            "/api/v1/games/",
            {"season": season, "seats": seats, "team_a": first["id"], "team_b": second["id"]},
        )["id"]


def celery_eager(on: bool) -> None:
    from celery import current_app

    current_app.conf.task_always_eager = on


# --------------------------------------------------------------------------------------------
# The operations
# --------------------------------------------------------------------------------------------
def measure_hand(api: Api) -> list[Stats]:
    season, teams = api.season("Hands", 2)
    warm = api.game(season, teams[0], teams[1])
    measured = api.game(season, teams[0], teams[1])
    api.hand(warm, POINT)
    api.hand(warm, POINT)  # warm: a game's second hand, as measured
    api.hand(measured, POINT)
    stats = Stats("storing a hand: POST /api/v1/games/<id>/hands/ (a game's 2nd hand)")
    tracer = Tracer(stats)
    body = tracer.run(lambda: api.hand(measured, POINT))
    if body.get("number") != 2:
        raise RuntimeError(f"the traced hand was not stored as hand 2: {body}")
    stats.note = skipped_note(tracer)
    return [stats]


def measure_recompute(api: Api) -> list[Stats]:
    from celery import current_app

    season, teams = api.season("Standings", 4)
    pairs = [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)]
    games = [api.game(season, teams[a], teams[b]) for a, b in pairs]
    recompute_name = task_named("recompute_season_standings")
    recompute = current_app.signature(recompute_name)

    def store(batch):
        celery_eager(False)  # the commits' jobs go to the in-memory broker: the hands stay pending
        try:
            for game, hands in batch:
                for facts in hands:
                    api.hand(game, facts)
        finally:
            celery_eager(True)

    store([(games[0], ENDING), (games[1], ENDING), (games[2], [POINT, MARCH])])
    recompute.apply(args=(season,)).get()  # warm: the first snapshot
    store([(games[2], [LONE_MARCH, LONE_MARCH]), (games[3], ENDING), (games[4], [POINT])])
    recompute.apply(args=(season,)).get()  # warm: an incremental fold
    store([(games[4], [MARCH, LONE_MARCH]), (games[5], ENDING)])
    stats = Stats(f"recomputing standings: {recompute_name} (3 games changed, 2 finished)")
    tracer = Tracer(stats, allowed={recompute_name})
    result = tracer.run(lambda: recompute.apply(args=(season,)).get())
    if result is None:
        raise RuntimeError("the traced recompute found nothing to fold")
    stats.note = skipped_note(tracer)
    return [stats]


def measure_advance(api: Api) -> list[Stats]:
    season, teams = api.season("Bracket", 8)
    bracket = api.post(
        "/api/v1/brackets/",
        {"season": season, "kind": "single", "name": "Cup", "teams": [t["id"] for t in teams]},
    )["id"]
    detail = api.post(f"/api/v1/brackets/{bracket}/publish/", expect=(200,))
    first_round = sorted(
        (match for match in detail["matches"] if match["games"]), key=lambda m: m["code"]
    )
    games = [match["games"][0]["game"] for match in first_round]
    if len(games) != 4:
        raise RuntimeError(f"expected 4 first-round games, got {[m['code'] for m in first_round]}")
    # Warm: the first three matches end (the second makes a semi-final ready).
    for game in games[:3]:
        for facts in ENDING:
            api.hand(game, facts)
    last = games[3]
    for facts in ENDING[:-1]:
        api.hand(last, facts)
    before = len(ready_games(api, bracket))
    stats = Stats("advancing a bracket: from the game_finished send to its return")
    whole = Stats("  the whole POST of the game's last hand (hand + advance)")
    tracer = Tracer(
        stats, allowed={task_named("bracket_advance")}, window="game_finished", whole=whole
    )
    body = tracer.run(lambda: api.hand(last, ENDING[-1]))
    after = len(ready_games(api, bracket))
    if body["game"]["status"] != "finished" or after != before + 1 or not tracer.windows_seen:
        raise RuntimeError(
            f"the traced hand did not advance the bracket: game {body['game']['status']}, "
            f"{before} → {after} games, {tracer.windows_seen} game_finished sends"
        )
    stats.note = skipped_note(tracer) + f"; game_finished sends traced: {tracer.windows_seen}"
    whole.note = "the standings job excluded, as above"
    return [stats, whole]


def task_named(suffix: str) -> str:
    """The registered task called ``<app>.<suffix>`` (``scoring.…`` today; another app's prefix
    would do after a move)."""
    from celery import current_app

    names = sorted(name for name in current_app.tasks if name.split(".")[-1] == suffix)
    if len(names) != 1:
        raise RuntimeError(f"expected one task named *.{suffix}, found {names}")
    return names[0]


def ready_games(api: Api, bracket: int) -> list[int]:
    detail = api.get(f"/api/v1/brackets/{bracket}/")
    return [game["game"] for match in detail["matches"] for game in match["games"]]


def skipped_note(tracer: Tracer) -> str:
    seen = ", ".join(f"{n}×{c}" for n, c in sorted(tracer.tasks_seen.items())) or "none"
    skipped = ", ".join(f"{n}×{c}" for n, c in sorted(tracer.tasks_skipped.items())) or "none"
    return f"tasks traced: {seen}; tasks run in process but not traced: {skipped}"


# --------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------
def report(stats: Stats) -> None:
    print(f"\n== {stats.title}")
    if getattr(stats, "note", ""):
        print(f"   ({stats.note})")
    rows = [
        ("files reached", len(stats.codes)),
        ("functions entered", stats.functions()),
        ("lines to read (source of the functions entered)", stats.lines_to_read()),
        ("distinct lines executed", stats.lines_run()),
        ("lines of the files reached (whole files)", stats.file_lines()),
        ("moves between files", stats.moves),
        ("leaves and re-enters a file (sum over files)", sum(stats.reentries.values())),
    ]
    for label, value in rows:
        print(f"   {label:<50} {value:>6}")
    if os.environ.get("READPATHS_SEQUENCE"):
        print("   path: " + " → ".join(stats.sequence))
    print(f"   {'file':<48} {'funcs':>5} {'to read':>7} {'run':>5} {'re-entries':>10}")
    for name in sorted(stats.codes, key=lambda n: (-stats.lines_to_read(n), n)):
        print(
            f"   {name:<48} {stats.functions(name):>5} {stats.lines_to_read(name):>7} "
            f"{stats.lines_run(name):>5} {stats.reentries[name]:>10}"
        )


def header() -> None:
    def git(*args: str) -> str:
        try:
            return subprocess.run(
                ["git", "-C", str(ROOT), *args],
                capture_output=True,
                text=True,
                check=True,
                env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},  # a read: no index refresh
            ).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return "?"

    print(f"tree: {ROOT}")
    print(f"commit: {git('log', '-1', '--format=%h %s')[:110]}")
    status = git("status", "--short", "--untracked-files=no")
    dirty = len(status.splitlines())
    state = "unknown" if status == "?" else f"modified ({dirty} files)" if dirty else "clean"
    print(f"working tree: {state}")
    print(f"product packages: {', '.join(PACKAGES)} (migrations excluded)")
    print(f"python {sys.version.split()[0]}; SQLite in a temporary folder; Celery eager")


def main() -> None:
    header()
    with tempfile.TemporaryDirectory(prefix="readpaths-") as folder:
        setup_django(Path(folder))
        api = Api()
        results = measure_hand(api) + measure_recompute(api) + measure_advance(api)
        from django.db import connection

        connection.close()
    for stats in results:
        report(stats)


if __name__ == "__main__":
    main()
