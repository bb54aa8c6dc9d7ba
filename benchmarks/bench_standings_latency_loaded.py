"""Hand -> standing visible at 1M hands WHILE 32 captains post hands, with the processes
production runs, beside floors measured in the same run (issue 30's target: p95 <= 2 s).

Run: ``python benchmarks/bench_standings_latency_loaded.py`` (``scripts/benchmarks
standings_latency_loaded``). Needs PostgreSQL and Redis on 127.0.0.1 (``BENCH_DATABASE_URL``,
``BENCH_REDIS_URL`` override; the Redis database is flushed, so give it one of its own);
creates and drops its own database ``BENCH_DATABASE_NAME`` (default ``euchre_bench_loaded``;
``BENCH_KEEP=1`` keeps it and reuses a kept one: the 1M-hand build takes minutes). Prints its
figures; not a test. ``BENCH_HANDS`` (default 1,000,000) sizes the season, ``BENCH_CAPTAINS``
(32) the captains, ``BENCH_SECONDS`` (60) each round's sampling, ``BENCH_ROUNDS`` (3) the rounds,
``BENCH_POLL`` (0.05 s) the watchers' poll interval, ``BENCH_THINK`` (0 s) a captain's pause
between hands. ``BENCH_PROFILE=1`` adds a round with the worker's recomputes under cProfile
(slower: its latencies are not among the figures) and prints where their time went.

What runs, as ``docker-compose.yml`` runs it, on the benchmark's database and Redis:

- ``gunicorn config.wsgi:application`` with the Dockerfile's flags and 4 sync workers (its
  ``WEB_CONCURRENCY``; ``bench_api_hands.gunicorn_command``, which leaves out ``--max-requests``);
- the ``worker`` (queue ``celery``, 2 processes), the ``race-worker`` (queue ``race``, 1 process,
  ``nice -n 10``) and the ``beat`` (the stale-season sweeps every ``SWEEP_SECONDS``, 5 s), each
  ``--without-gossip --without-mingle`` as there; the workers run the product's app through
  ``benchmarks/worker_probe.py``, which only writes a line per task run (Celery's signals) to
  say where the time went;
- Redis (broker and cache), PostgreSQL. Nothing is read from a cache the product would not
  have: the standings API reads the snapshot from the database on every request.

The season: ``bench_standings_pg``'s individual season (1,000 players, ``BENCH_HANDS`` hands,
standard rules), folded into its snapshot before the first round. Each round makes games for it:
each captain's seat the same four players, whom no other captain seats (so the public stats of
one of them say exactly which of its captain's games the standings count). The captains and the
watchers (``benchmarks/latency_load.py``, a process of its own) then post hands through
``X-Captain-Token`` for ``BENCH_SECONDS`` (games to 10 of 19 hands each, after a first game of
1 to 19 hands so that the tables do not all end their games at once); every hand that ends a
game is a sample, timed from its 201 to the answer of the public standings poll that first shows
a snapshot counting it (see ``latency_load.py``). The captains go on posting until every sample
is seen.

Floors, measured in the same rounds, under the same load:

- *poll floor* (``bare``): on a small season of its own (4 players), one client posts the one
  hand of a one-hand game while its standings are current, and polls the same endpoint: the time
  from the 201 to the first answer that shows the hand in any way (``is_current`` false, which
  the pending change shows at once, before any worker has run). What the same poll through the
  same loaded server takes to see a change that needs nothing done: the least any latency here
  could be.
- *pipeline floor* (``small``): the same sample until that small season's standings count the
  game: the same POST, coalescing countdown, queue, worker and poll, with almost nothing to fold.
  What the 1M-hand fold adds is the large figure less this one.

Each round prints the load average before and after it (``/proc/loadavg``: the box is shared,
the figures are noisy), then the three rounds' min/median/max. Where the time went: from the
probe's lines, for each sample, the recompute run whose snapshot first showed it: the time from
the 201 until that run started (waiting behind the run in progress, the countdown, the queue),
the run itself, and from its commit to the poll's answer; and the worker's runs in the round
(recomputes that stored a snapshot, that gave way, races, sweeps) with their durations.
"""

import itertools
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("BENCH_DATABASE_NAME", "euchre_bench_loaded")
os.environ.setdefault("BENCH_HANDS", "1000000")

from benchmarks import bench_api_hands as hands_bench  # noqa: E402
from benchmarks import bench_standings_pg as big  # noqa: E402  (reads the two settings above)

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
PORT = int(os.environ.get("BENCH_LATENCY_PORT", "8768"))
CAPTAINS = int(os.environ.get("BENCH_CAPTAINS", "32"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "60"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
POLL = float(os.environ.get("BENCH_POLL", "0.05"))
THINK = float(os.environ.get("BENCH_THINK", "0"))
PROFILE = os.environ.get("BENCH_PROFILE") == "1"
TARGET = 2.0  # issue 30: hand -> standing visible p95 <= 2 s at 1M hands, 32 captains posting
HANDS_PER_GAME = 19  # a game to 10, won 10-9 (latency_load.py)
MOST_PER_CAPTAIN = 6.0  # hands a second: bounds the games made for a round
SAMPLE_TIMEOUT = 120.0
GUNICORN = "sync:4"  # the Dockerfile's WEB_CONCURRENCY
ENV = {
    **os.environ,
    **big.ENV,
    "REDIS_URL": REDIS_URL,
    "SECURE_SSL_REDIRECT": "0",
    "ALLOWED_HOSTS": "127.0.0.1",
    "CELERY_TASK_ALWAYS_EAGER": "0",
    "STATIC_ROOT": str(ROOT / "benchmarks" / ".static"),
    "PYTHONUNBUFFERED": "1",
    "LOG_LEVEL": "INFO",  # compose's defaults
    "CELERY_LOG_LEVEL": "INFO",
    "LOG_FORMAT": "json",
    "SWEEP_SECONDS": "5",
}
ENV.pop("WEB_CONCURRENCY", None)


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


# --- The season, the captains' players and their games ------------------------------------------


def prepare() -> dict:
    """Build (or find) the season, fold it, make the floor season; the ids the rounds need."""
    import redis

    kept = big.DATABASE.recreate(keep=big.KEEP)
    big.setup_django(big.ENV, without=("REDIS_URL",))
    from league import services as league_services
    from league.models import Player, Season
    from scoring.games import jobs
    from scoring.games.models import Hand
    from scoring.games.selectors import season_results_version
    from scoring.standings.models import StandingSnapshot
    from scoring.standings.services.recompute import season_standings_recompute

    # No broker in this process: a race asked for here would run inline. The race worker works
    # it out once the beat's sweep sees it stale, before the first round.
    jobs.race_compute_soon = lambda season_id: False
    large_id = big.kept_season() if kept else big.build_season()
    snapshot = StandingSnapshot.objects.filter(season_id=large_id).first()
    started = time.perf_counter()
    if snapshot is None:
        season_standings_recompute(season_id=large_id, force=True)
        print(f"the season's first recompute: {time.perf_counter() - started:.1f} s")
    elif snapshot.results_version < season_results_version(season_id=large_id):
        season_standings_recompute(season_id=large_id)
    large = Season.objects.select_related("league").get(pk=large_id)
    players = list(
        Player.objects.filter(league=large.league).order_by("pk").values_list("pk", flat=True)
    )
    if len(players) < 4 * CAPTAINS + 4:
        raise SystemExit(f"{len(players)} players: too few for {CAPTAINS} captains and the floor")
    small = Season.objects.filter(league=large.league, name="Floor").first()
    if small is None:
        small = league_services.season_create(
            league=large.league, name="Floor", preset="standard", format=Season.Format.INDIVIDUAL
        )
    hands = Hand.objects.filter(game__season_id=large_id).count()  # each round adds a few
    from django.db import connections

    connections.close_all()
    redis.Redis.from_url(REDIS_URL).flushdb()
    return {
        "large": large_id,
        "small": small.pk,
        "hands": hands,
        "captains": [tuple(players[4 * n : 4 * n + 4]) for n in range(CAPTAINS)],
        "floor": tuple(players[4 * CAPTAINS : 4 * CAPTAINS + 4]),
    }


def make_games(season_id: int, seats: tuple, count: int, hands_per_game=None) -> list[dict]:
    """``count`` games of the season at one table (untimed, in bulk, as bench_api_hands does)."""
    from scoring.games.models import Game

    games = Game.objects.bulk_create(
        Game(
            season_id=season_id,
            seat_0_id=seats[0],
            seat_1_id=seats[1],
            seat_2_id=seats[2],
            seat_3_id=seats[3],
            hands_per_game=hands_per_game,
        )
        for _ in range(count)
    )
    return [{"id": game.pk, "token": game.captain_token} for game in games]


def drop_unplayed(season_ids: list[int]) -> None:
    """The games a round made and no captain reached: gone before the next round's are made, so
    the season's games to play stay a night's, not every round's."""
    from scoring.games.models import Game

    Game.objects.filter(season_id__in=season_ids, hands_played=0, hands__isnull=True).delete()


def games_counted(season_id: int, player_id: int) -> int:
    """The player's games in the season's public stats (0 before the first)."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    path = f"/api/v1/seasons/{season_id}/players/{player_id}/stats/"
    connection.request("GET", path, headers={"Host": "127.0.0.1"})
    response = connection.getresponse()
    body = json.loads(response.read() or b"null")
    if response.status == 404:
        return 0
    if response.status != 200:
        raise SystemExit(f"GET {path}: {response.status} {body}")
    return (body.get("stats") or {}).get("games", 0)


def play_first_floor_game(ids: dict) -> None:
    """The floor season's first game, through the API, and its standings computed by the worker:
    each floor sample then starts from standings that exist and are current."""
    import http.client

    (game,) = make_games(ids["small"], ids["floor"], 1, hands_per_game=1)
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    body = json.dumps({"makers": "A", "tricks_won": 3, "number": 1})
    headers = {
        "Host": "127.0.0.1",
        "Content-Type": "application/json",
        "X-Captain-Token": game["token"],
        "Idempotency-Key": uuid.uuid4().hex,
    }
    connection.request("POST", f"/api/v1/games/{game['id']}/hands/", body=body, headers=headers)
    response = connection.getresponse()
    if response.status not in (200, 201):
        raise SystemExit(f"the floor's first hand: {response.status} {response.read()[:300]}")
    response.read()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        connection.request(
            "GET",
            f"/api/v1/seasons/{ids['small']}/standings/?limit=1",
            headers={"Host": "127.0.0.1"},
        )
        response = connection.getresponse()
        answer = json.loads(response.read() or b"null")
        if response.status == 200 and answer["is_current"]:
            return
        time.sleep(0.2)
    raise SystemExit("the floor season's standings did not appear within 60 s")


# --- The processes ------------------------------------------------------------------------------


class Services:
    """gunicorn, the two workers and the beat, as compose runs them (see the docstring)."""

    def __init__(self, logs: Path, profile_folder: str | None = None) -> None:
        self.logs = logs
        self.probe = logs / "probe.jsonl"
        env = {**ENV, "BENCH_PROBE_FILE": str(self.probe)}
        if profile_folder:
            env["BENCH_PROBE_PROFILE"] = profile_folder
        self.processes = [
            hands_bench.start_server("web", GUNICORN, PORT, ENV, ("GET", "/healthz"), logs)
        ]
        self.nodes = []
        for queue, concurrency, nice in (("celery", 2, []), ("race", 1, ["nice", "-n", "10"])):
            node = f"bench-loaded-{queue}-{uuid.uuid4().hex[:6]}@%h"
            command = [*nice, sys.executable, "-m", "celery", "-A", "benchmarks.worker_probe"]
            command += ["worker", f"--queues={queue}", "--loglevel=INFO"]
            command += [f"--concurrency={concurrency}", "--without-gossip", "--without-mingle"]
            command += ["-n", node]
            self.processes.append(hands_bench.Process(f"worker-{queue}", command, env, logs))
            self.nodes.append(node.replace("%h", __import__("socket").gethostname()))
        beat = [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=INFO"]
        beat += [f"--schedule={logs / 'celerybeat-schedule'}"]
        self.processes.append(hands_bench.Process("beat", beat, ENV, logs))
        from celery import Celery

        self.app = Celery(broker=REDIS_URL)
        waiting, deadline = set(self.nodes), time.monotonic() + 60
        while waiting:
            for answer in self.app.control.ping(destination=sorted(waiting), timeout=1):
                waiting -= set(answer)
            if waiting and time.monotonic() > deadline:
                self.stop()
                raise SystemExit(f"no Celery worker {waiting}: see {logs}")

    def idle(self) -> bool:
        """Nothing queued, held for later (a countdown) or running on either worker."""
        import redis

        client = redis.Redis.from_url(REDIS_URL)
        if client.llen("celery") or client.llen("race"):
            return False
        inspect = self.app.control.inspect(destination=self.nodes, timeout=1)
        for look in (inspect.active, inspect.reserved, inspect.scheduled):
            answer = look()
            if answer is None or any(answer.get(node) for node in self.nodes):
                return False
        return True

    def settle(self, most: float = 300.0) -> float:
        """Wait until the workers are idle twice in a row (the beat's sweep may queue a race);
        the seconds it took."""
        started = time.monotonic()
        quiet = 0
        while quiet < 2 and time.monotonic() - started < most:
            quiet = quiet + 1 if self.idle() else 0
            time.sleep(1.0)
        return time.monotonic() - started

    def probe_lines(self, since: float) -> list[dict]:
        if not self.probe.exists():
            return []
        lines = [json.loads(line) for line in self.probe.read_text().splitlines() if line]
        return [line for line in lines if (line["start"] or line["end"]) >= since]

    def stop(self) -> None:
        for process in self.processes:
            process.process.terminate()
        for process in self.processes:
            process.stop(grace=60)

    def problems(self) -> list[str]:
        return [f"{p.name}: {line}" for p in self.processes for line in p.problems()]


# --- A round ------------------------------------------------------------------------------------


def stagger(index: int) -> int:
    """The length of captain ``index``'s first game: 1 to 19 hands, spread over the captains."""
    return 1 + index * HANDS_PER_GAME // CAPTAINS


def round_plan(ids: dict) -> dict:
    per_captain = math.ceil((SECONDS + 30) * MOST_PER_CAPTAIN / HANDS_PER_GAME) + 1
    captains = [
        {
            "player": seats[0],
            "games_before": games_counted(ids["large"], seats[0]),
            # A first game of a few hands (1 to 19, by captain), then games to 10: the tables
            # end their games at moments spread over the 19 hands of a game, not all at once.
            "games": make_games(ids["large"], seats, 1, stagger(index))
            + make_games(ids["large"], seats, per_captain),
        }
        for index, seats in enumerate(ids["captains"])
    ]
    floor = {
        "season": ids["small"],
        "player": ids["floor"][0],
        "games_before": games_counted(ids["small"], ids["floor"][0]),
        "games": make_games(ids["small"], ids["floor"], int(SECONDS * 4) + 10, hands_per_game=1),
    }
    return {
        "port": PORT,
        "seconds": SECONDS,
        "poll": POLL,
        "timeout": SAMPLE_TIMEOUT,
        "think": THINK,
        "season": ids["large"],
        "captains": captains,
        "floor": floor,
    }


def run_round(ids: dict, services: Services) -> dict:
    plan = round_plan(ids)
    settled = services.settle()
    before, started = load_average(), time.time()
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.latency_load"],  # it reads answers as http_load does
        cwd=ROOT,
        input=json.dumps(plan),
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise SystemExit(f"the captains failed:\n{done.stderr}")
    result = json.loads(done.stdout)
    result |= {
        "load_before": before,
        "load_after": load_average(),
        "settled": settled,
        "started": started,
        "runs": services.probe_lines(started),
    }
    drop_unplayed([ids["large"], ids["small"]])
    return result


def quantile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(len(ordered) * share) - 1)]


def three(values: list[float]) -> str:
    """p50 / p95 / max in ms."""
    if not values:
        return "no samples"
    return (
        f"p50 {quantile(values, 0.5) * 1000:6.0f}  p95 {quantile(values, 0.95) * 1000:6.0f}  "
        f"max {max(values) * 1000:6.0f} ms"
    )


PARTS = ("to its start", "behind a fold", "its fold", "commit->seen")
"""A sample's latency in four parts: from the 201 until the run that stored it started (the
coalescing countdown, and the queue for a free worker process); from then until the run of the
season in progress when it started ended (its wait on the fold lock, ``locks.fold_lock``);
the rest of the run (its reads, the fold, the writes, the commit); from the commit to the poll's
answer (the poll's interval and its time through the loaded server)."""


def where_the_time_went(result: dict, ids: dict) -> dict[str, list[float]]:
    """Per sample of the large season, matched to the recompute run that stored the version its
    poll first showed (by the probe's lines), its latency's :data:`PARTS`."""
    runs = [
        run
        for run in result["runs"]
        if run["task"] == "scoring.recompute_season_standings" and run["args"] == [ids["large"]]
    ]
    stored = {run["result"]: run for run in runs if isinstance(run["result"], int)}
    parts: dict[str, list[float]] = {name: [] for name in PARTS}
    for sample in result["samples"]:
        run = stored.get(sample["version"])
        if run is None or sample["late"]:
            continue
        posted = sample["posted_at"]
        start = max(run["start"], posted)
        ahead = [r["end"] for r in runs if r["start"] < start < r["end"] and r is not run]
        folding = min(max([start, *ahead]), run["end"])
        parts["to its start"].append(start - posted)
        parts["behind a fold"].append(folding - start)
        parts["its fold"].append(run["end"] - folding)
        parts["commit->seen"].append(posted + sample["latency"] - run["end"])
    return parts


def worker_summary(result: dict, ids: dict) -> list[str]:
    runs = result["runs"]
    recomputes = [
        r
        for r in runs
        if r["task"] == "scoring.recompute_season_standings" and r["args"] == [ids["large"]]
    ]
    stored = [r for r in recomputes if isinstance(r["result"], int)]
    gave_way = [r for r in recomputes if r["result"] is None]
    lines = []
    if stored:
        durations = [r["end"] - r["start"] for r in stored]
        versions = sorted(r["result"] for r in stored)
        folded = [b - a for a, b in itertools.pairwise(versions)]
        late = [r["start"] - r["eta"] for r in stored if r["eta"]]
        overlap = sum(
            1
            for a in recomputes
            for b in recomputes
            if a is not b and a["start"] < b["start"] < a["end"]
        )
        lines.append(
            f"large season's recomputes: {len(stored)} stored a snapshot, {len(gave_way)} "
            f"found nothing new or gave way; a storing run took {three(durations)}; "
            f"changes folded per run: median {statistics.median(folded) if folded else 0:.0f}, "
            f"max {max(folded) if folded else 0}; started after its ETA by {three(late)}; "
            f"{overlap} runs started while another of the season ran"
        )
        if gave_way:
            wasted = [r["end"] - r["start"] for r in gave_way]
            lines.append(f"  the runs that stored nothing took {three(wasted)}")
    for name, label in (
        ("scoring.compute_season_race", "races (race-worker, nice 10)"),
        ("scoring.sweep_stale_seasons", "sweeps"),
    ):
        mine = [r["end"] - r["start"] for r in runs if r["task"] == name]
        if mine:
            lines.append(f"{label}: {len(mine)}, {three(mine)}, {sum(mine):.1f} s in all")
    others = sorted(
        {r["task"] for r in runs}
        - {
            "scoring.recompute_season_standings",
            "scoring.compute_season_race",
            "scoring.sweep_stale_seasons",
        }
    )
    if others:
        lines.append(f"other tasks: {', '.join(others)}")
    return lines


def report_round(number: int, result: dict, ids: dict) -> dict:
    latencies = [s["latency"] for s in result["samples"]]
    bare = [f["bare"] for f in result["floor"]]
    small = [f["pipeline"] for f in result["floor"]]
    rate = result["hands_sampled"] / SECONDS
    print(
        f"round {number}: load average {result['load_before']} before, "
        f"{result['load_after']} after (settled {result['settled']:.0f} s first); "
        f"{result['hands_sampled']} hands in {SECONDS:g} s ({rate:.1f}/s, "
        f"{result['hands']} with the drain), POST {three(result['post_latencies'])}; "
        f"answers {result['statuses']}"
    )
    print(f"  large season: {len(latencies):3} samples  {three(latencies)}", end="")
    print(f"  (not seen within {SAMPLE_TIMEOUT:g} s: {result['unseen']})")
    print(f"  floor, poll:  {len(bare):3} samples  {three(bare)}")
    print(f"  floor, small season pipeline:  {three(small)}")
    print(f"  one standings poll under load: {three(result['poll_latencies'])}")
    for line in worker_summary(result, ids):
        print("  " + line)
    parts = where_the_time_went(result, ids)
    if parts["its fold"]:
        print(
            f"  the samples' latency by part ({len(parts['its fold'])} of {len(latencies)} "
            "matched to the run that stored them), p50 / p95 ms:"
        )
        for name, values in parts.items():
            print(
                f"    {name:<14} {quantile(values, 0.5) * 1000:6.0f} "
                f"{quantile(values, 0.95) * 1000:6.0f}"
            )
    for failure in result["failures"][:3]:
        print(f"  FAILURE: {failure}")
    return {
        "p50": quantile(latencies, 0.5) if latencies else math.nan,
        "p95": quantile(latencies, 0.95) if latencies else math.nan,
        "max": max(latencies) if latencies else math.nan,
        "bare p95": quantile(bare, 0.95) if bare else math.nan,
        "small p95": quantile(small, 0.95) if small else math.nan,
        "rate": rate,
        "ok": not result["failures"] and not result["unseen"],
    }


def print_profile(folder: str) -> None:
    import pstats

    files = sorted(Path(folder).glob("recompute-*.prof"))
    if not files:
        print("no profile written")
        return
    stats = pstats.Stats(*map(str, files))
    print("the worker's recomputes under load, cProfile (cumulative, the top 30):")
    stats.sort_stats("cumulative").print_stats(30)


def main() -> None:
    logs = Path(tempfile.mkdtemp(prefix="bench-loaded-"))
    ids = prepare()
    services = None
    summaries = []
    ok = True
    try:
        services = Services(logs)
        play_first_floor_game(ids)
        from scoring.games.jobs import COALESCE_COUNTDOWN

        print(
            f"hand -> standing visible while {CAPTAINS} captains post (X-Captain-Token, games to "
            f"10, think {THINK:g} s), season of {ids['hands']:,} hands; gunicorn {GUNICORN}, "
            "worker 2 processes (queue celery), race-worker 1 (nice 10), beat; PostgreSQL, "
            f"Redis; coalescing countdown {COALESCE_COUNTDOWN:g} s; poll every {POLL * 1000:g} ms; "
            f"{ROUNDS} rounds of {SECONDS:g} s; logs in {logs}"
        )
        for number in range(1, ROUNDS + 1):
            result = run_round(ids, services)
            summary = report_round(number, result, ids)
            summaries.append(summary)
            ok &= summary["ok"]
        if summaries:
            print(f"over {len(summaries)} rounds, min / median / max:")
            for key in ("p50", "p95", "max", "bare p95", "small p95"):
                values = [s[key] for s in summaries]
                low, middle, high = (
                    v * 1000 for v in (min(values), statistics.median(values), max(values))
                )
                print(f"  {key:<10} {low:6.0f} {middle:6.0f} {high:6.0f} ms")
            rates = [s["rate"] for s in summaries]
            print(
                f"  hands/s    {min(rates):6.1f} {statistics.median(rates):6.1f} {max(rates):6.1f}"
            )
            p95 = statistics.median(s["p95"] for s in summaries)
            print(
                f"target p95 <= {TARGET:g} s: {'met' if p95 <= TARGET else 'NOT met'} "
                f"(median of the rounds' p95: {p95:.2f} s)"
            )
        if PROFILE:
            services.stop()
            problems = services.problems()
            for line in problems[:10]:
                print(f"  log: {line}")
            ok &= not problems
            folder = tempfile.mkdtemp(prefix="bench-loaded-profile-")
            services = Services(logs, profile_folder=folder)
            result = run_round(ids, services)
            print("profiled round (cProfile in the worker: slower, not among the figures):")
            report_round(0, result, ids)
            print_profile(folder)
    finally:
        if services is not None:
            services.stop()
            problems = services.problems()
            for line in problems[:10]:
                print(f"  log: {line}")
            ok &= not problems
        from django.db import connections

        connections.close_all()
        if not big.KEEP:
            big.DATABASE.drop()
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
