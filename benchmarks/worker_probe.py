"""The product's Celery app (``config.celery``) with a probe, for
``bench_standings_latency_loaded.py``: ``celery -A benchmarks.worker_probe worker ...`` runs the
very same app, settings and tasks, and also appends one JSON line per task run to
``BENCH_PROBE_FILE``: the task, its arguments, its ETA (when it was sent with a countdown), when
it started and ended (wall clock, seconds) and what it returned. Through Celery's documented
signals (``task_prerun``, ``task_postrun``); nothing of the product changes.

With ``BENCH_PROBE_PROFILE`` (a folder), each pool process also profiles its standings recomputes
with cProfile and writes the sum so far to ``<folder>/recompute-<pid>.prof`` after each one
(profiling slows them: a profiled round is not a measured one).
"""

import cProfile
import json
import os
import time
from datetime import datetime

from celery import signals

from config.celery import app

__all__ = ["app"]

PROBE_FILE = os.environ.get("BENCH_PROBE_FILE")
PROFILE_FOLDER = os.environ.get("BENCH_PROBE_PROFILE")
RECOMPUTE = "scoring.recompute_season_standings"
_started: dict[str, float] = {}
_profiler: cProfile.Profile | None = None


@signals.task_prerun.connect
def _task_started(task_id=None, task=None, **_kwargs) -> None:
    global _profiler
    _started[task_id] = time.time()
    if PROFILE_FOLDER and task.name == RECOMPUTE:
        _profiler = _profiler or cProfile.Profile()
        _profiler.enable()


@signals.task_postrun.connect
def _task_ended(task_id=None, task=None, args=None, retval=None, state=None, **_kwargs) -> None:
    ended = time.time()
    if PROFILE_FOLDER and task.name == RECOMPUTE and _profiler is not None:
        _profiler.disable()
        _profiler.dump_stats(os.path.join(PROFILE_FOLDER, f"recompute-{os.getpid()}.prof"))
    if not PROBE_FILE:
        return
    eta = task.request.eta
    if isinstance(eta, str):
        eta = datetime.fromisoformat(eta).timestamp()
    elif isinstance(eta, datetime):
        eta = eta.timestamp()
    record = {
        "task": task.name,
        "args": list(args or ()),
        "eta": eta,
        "start": _started.pop(task_id, None),
        "end": ended,
        "state": state,
        "result": retval if isinstance(retval, int | float | str | type(None)) else repr(retval),
        "pid": os.getpid(),
    }
    with open(PROBE_FILE, "a") as probe:  # one short line per write: appends do not interleave
        probe.write(json.dumps(record) + "\n")
