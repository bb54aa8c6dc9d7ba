"""The scoring app's background jobs, by name: how services ask a worker for work without
importing ``scoring.tasks`` (the tasks import the services, never the other way round).

- *job*: a Celery task of ``scoring.tasks``, known here only by its registered ``name=``.
- *send*: put one job on the broker now; ``False`` when the broker is down, which is logged and
  left to the beat sweep (``scoring.enqueue``). Services call these from
  ``transaction.on_commit`` so a worker never sees a write that was rolled back; tasks may call
  them directly.

Eager mode (no ``REDIS_URL``): a job is sent through ``app.signature(name)``, which runs it in
process when ``task_always_eager`` is on, as ``Task.apply_async`` does. ``Celery.send_task`` would
not: it always goes to the broker, and the embedded broker (``memory://``) has no worker. The
tasks are registered when the app is ready (``scoring.apps``), so in eager mode a job that is not
registered is a bug, and is raised as one rather than lost.
"""

from __future__ import annotations

from celery import current_app

from scoring.enqueue import enqueue_safely

RECOMPUTE_SEASON_STANDINGS = "scoring.recompute_season_standings"
REDERIVE_SEASON_POINTS = "scoring.rederive_season_points"
SWEEP_STALE_SEASONS = "scoring.sweep_stale_seasons"
COMPUTE_SEASON_RACE = "scoring.compute_season_race"


def run_in_process() -> bool:
    """Whether jobs run in the process that sends them (eager mode), not on a worker."""
    return bool(current_app.conf.task_always_eager)


def send_standings_recompute(season_id: int, *, countdown: float | None = None) -> bool:
    """Recompute a season's standings snapshot (idempotent; ``countdown`` seconds from now).

    Callers go through ``scoring.standings.standings_recompute_soon``, which coalesces a burst.
    """
    return _send(RECOMPUTE_SEASON_STANDINGS, season_id, countdown=countdown)


def send_race_compute(season_id: int, *, countdown: float | None = None) -> bool:
    """Work out a season's playoff race from its snapshot (idempotent).

    Callers go through ``scoring.standings.race_compute_soon``, which coalesces a burst.
    """
    return _send(COMPUTE_SEASON_RACE, season_id, countdown=countdown)


def send_points_rederive(season_id: int) -> bool:
    """Re-derive every hand's points of a season under its current rulebook (idempotent)."""
    return _send(REDERIVE_SEASON_POINTS, season_id)


def _send(name: str, *args: int, countdown: float | None = None) -> bool:
    """Send one job; ``False`` when the broker is down (logged; the beat sweep catches up)."""
    app = current_app
    if app.conf.task_always_eager and name not in app.tasks:
        raise LookupError(f"no task is registered as {name!r}: eager mode cannot run it")
    return enqueue_safely(app.signature(name), *args, countdown=countdown)
