"""The season's background jobs, by name: how the games' services ask a worker for work without
importing a task (the tasks import the services, never the other way round), and how a stored
change reaches the standings without the games app importing them (DESIGN.md: "a stored change
is recorded in the result-change log and a job is sent by name").

- ``scoring.rederive_season_points`` (``scoring.games.tasks``): re-derive a season's points under
  its rulebook.
- ``scoring.recompute_season_standings``, ``scoring.compute_season_race`` and
  ``scoring.sweep_stale_seasons`` (``scoring.standings.tasks``). Their names keep the ``scoring.``
  of the app the tasks lived in before standings moved out: a message queued before an upgrade is
  still understood after it.

Services call these from ``transaction.on_commit`` so a worker never sees a write that was rolled
back; a send the broker refuses is logged and left to the beat sweep (``core.enqueue``).
"""

from __future__ import annotations

from django.core.cache import cache

from core.enqueue import PENDING_SECONDS, send_job, send_once

RECOMPUTE_SEASON_STANDINGS = "scoring.recompute_season_standings"
REDERIVE_SEASON_POINTS = "scoring.rederive_season_points"
SWEEP_STALE_SEASONS = "scoring.sweep_stale_seasons"
COMPUTE_SEASON_RACE = "scoring.compute_season_race"

COALESCE_COUNTDOWN = 0.25
"""Seconds a queued recompute waits, so a burst of hands is computed once. Short: only one run
is queued at a time per season, and changes made while it runs queue the next, so the wait only
gathers the first hands of a burst; it adds to the time a hand takes to reach the standings
(a quarter of a second; it was half a second while a recompute of a large season took two)."""
RACE_COUNTDOWN = 2.0
"""Seconds a queued race waits: nobody waits on the race (a second or more of simulation in a
large season, on its own queue), so it gathers more snapshots of a busy night than a recompute
does, and takes less CPU from the recomputes."""


def standings_pending_key(season_id: int) -> str:
    return f"standings:pending:{season_id}"


def race_pending_key(season_id: int) -> str:
    return f"race:pending:{season_id}"


def standings_recompute_soon(
    season_id: int, *, countdown: float | None = COALESCE_COUNTDOWN
) -> bool:
    """Queue the season's standings recompute unless one is already queued; say whether this call
    queued it. Called after a change commits: forty tables entering hands at once queue one run,
    which reads the newest results when it runs (``scoring.standings.services.recompute``)."""
    return send_once(
        standings_pending_key(season_id),
        lambda: send_standings_recompute(season_id, countdown=countdown),
    )


def standings_pending_clear(season_id: int) -> None:
    """The recompute's first step: a change committed from now on queues the next run."""
    cache.delete(standings_pending_key(season_id))


def standings_rerun_key(season_id: int) -> str:
    return f"standings:rerun:{season_id}"


def standings_rerun_ask(season_id: int) -> None:
    """A recompute that found another run of the season folding asks it to run once more when it
    is done (:func:`standings_rerun_asked`), instead of holding a worker process while it waits."""
    cache.set(standings_rerun_key(season_id), 1, timeout=PENDING_SECONDS)


def standings_rerun_asked(season_id: int) -> bool:
    """Whether a run of the season was asked for while this one folded; the ask is taken (a
    second call says no)."""
    return bool(cache.delete(standings_rerun_key(season_id)))


def race_compute_soon(season_id: int) -> bool:
    """Queue the season's playoff race unless it is already queued; say whether this call queued
    it. Asked for after each new snapshot and each new game that counts, coalesced likewise."""
    return send_once(
        race_pending_key(season_id), lambda: send_race_compute(season_id, countdown=RACE_COUNTDOWN)
    )


def race_pending_clear(season_id: int) -> None:
    """The race's first step: a change from now on asks for another run."""
    cache.delete(race_pending_key(season_id))


def send_standings_recompute(season_id: int, *, countdown: float | None = None) -> bool:
    """Recompute a season's standings snapshot (idempotent; ``countdown`` seconds from now).
    Callers go through :func:`standings_recompute_soon`, which coalesces a burst."""
    return send_job(RECOMPUTE_SEASON_STANDINGS, season_id, countdown=countdown)


def send_race_compute(season_id: int, *, countdown: float | None = None) -> bool:
    """Work out a season's playoff race from its snapshot (idempotent). Callers go through
    :func:`race_compute_soon`, which coalesces a burst."""
    return send_job(COMPUTE_SEASON_RACE, season_id, countdown=countdown)


def send_points_rederive(season_id: int) -> bool:
    """Re-derive every hand's points of a season under its current rulebook (idempotent)."""
    return send_job(REDERIVE_SEASON_POINTS, season_id)
