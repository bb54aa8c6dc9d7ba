"""Sending a job to the broker, by its name, without letting a broker outage reach the user.

A hand, an undo or a rulebook change is committed first; the task that follows it (recompute the
standings, re-derive points, advance a bracket) is sent after commit. If Redis, the broker, is down
then, the send fails fast (short socket timeouts and a short publish retry policy, see
config/settings.py) and :func:`enqueue_safely` logs it and returns ``False`` instead of raising:
the data is safe in the database, and the beat sweeps (``scoring.sweep_stale_seasons``,
``tournaments.sweep_brackets``) find what the lost message would have done and do it once the
broker is back.

- *job*: a Celery task known by its registered ``name=``: each app's ``jobs`` module names the
  jobs it asks for (``scoring.games.jobs``, ``tournaments.jobs``), so no service imports a task.
- *send once*: a job for an object that is already queued is not queued again (a short-lived
  cache key, the *pending key*, set by ``cache.add``); the job clears the key before it reads
  anything (``cache.delete``), so a change committed after that queues the next run
  (:func:`send_once`).

After a failed send, further sends are skipped for ``PAUSE_SECONDS`` (they would only wait for the
same timeout): each process pays the broker's timeout once per pause, not once per hand.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from celery import current_app
from django.core.cache import cache
from kombu.exceptions import OperationalError as KombuOperationalError
from redis.exceptions import RedisError

from core.request_id import JOB_HEADER, request_id_current

logger = logging.getLogger("core.enqueue")

PENDING_SECONDS = 30
"""How long a queued job keeps the same job for the same object from queueing (longer than any
such job waits)."""

BROKER_DOWN = (KombuOperationalError, RedisError, ConnectionError, TimeoutError, OSError)
"""What sending raises while the broker is unreachable."""
PAUSE_SECONDS = 5.0
_paused_until = 0.0


def enqueue_safely(task, *args: Any, countdown: float | None = None) -> bool:
    """``task.delay(*args)`` (or ``apply_async`` with a countdown) for a task or a signature; on a
    broker error log it and return ``False``. In eager mode (no broker) the task just runs."""
    global _paused_until
    if task.app.conf.task_always_eager:
        # No broker: the task runs here and now, and its own errors are bugs to raise.
        _send(task, args, countdown)
        return True
    if time.monotonic() < _paused_until:
        logger.info("broker down a moment ago: %s%r not sent (the sweep will)", task.name, args)
        return False
    try:
        _send(task, args, countdown)
    except BROKER_DOWN as error:
        _paused_until = time.monotonic() + PAUSE_SECONDS
        logger.warning(
            "broker unreachable, %s%r not sent (%s: %s); the beat sweep will catch up",
            task.name,
            args,
            error.__class__.__name__,
            error,
        )
        return False
    return True


def _send(task, args: tuple, countdown: float | None) -> None:
    """Send with the current request id in the message's headers (``core.request_id``): the
    worker binds it while the job runs, so the job's log records name the request that sent it."""
    request_id = request_id_current()
    headers = {JOB_HEADER: request_id} if request_id else None
    task.apply_async(args, countdown=countdown, headers=headers)


def resume_sends() -> None:
    """Forget a pause: the next send tries the broker again (the broker is known to be back;
    tests start each case with it)."""
    global _paused_until
    _paused_until = 0.0


def send_job(name: str, *args: int, countdown: float | None = None) -> bool:
    """Send the job registered as ``name``; ``False`` when the broker is down (logged; the beat
    sweep catches up).

    Eager mode (no ``REDIS_URL``): the job is sent through ``app.signature(name)``, which runs it in
    process when ``task_always_eager`` is on, as ``Task.apply_async`` does; ``Celery.send_task``
    would not (it always goes to the broker, and the embedded one has no worker). The tasks are
    registered when the apps are ready, so in eager mode a job that is not registered is a bug,
    raised as one rather than lost."""
    app = current_app
    if app.conf.task_always_eager and name not in app.tasks:
        raise LookupError(f"no task is registered as {name!r}: eager mode cannot run it")
    return enqueue_safely(app.signature(name), *args, countdown=countdown)


def send_once(key: str, send: Callable[[], bool]) -> bool:
    """Call ``send`` (which sends one job and says whether it was sent) unless the job ``key``
    names is already queued; say whether this call queued it. Not queued (broker down): the key is
    dropped, so the next ask tries again (see *send once*)."""
    if not cache.add(key, 1, timeout=PENDING_SECONDS):
        return False
    if not send():
        cache.delete(key)
        return False
    return True
