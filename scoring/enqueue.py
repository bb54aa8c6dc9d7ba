"""Sending a task to the broker without letting a broker outage reach the user.

A hand, an undo or a rulebook change is committed first; the task that follows it (recompute the
standings, re-derive points, advance a bracket) is sent after commit. If Redis, the broker, is down
then, the send fails fast (short socket timeouts and a short publish retry policy, see
config/settings.py) and :func:`enqueue_safely` logs it and returns ``False`` instead of raising:
the data is safe in the database, and the beat sweeps (``scoring.sweep_stale_seasons``,
``tournaments.sweep_brackets``) find what the lost message would have done and do it once the
broker is back.

After a failed send, further sends are skipped for ``PAUSE_SECONDS`` (they would only wait for the
same timeout): each process pays the broker's timeout once per pause, not once per hand.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from kombu.exceptions import OperationalError as KombuOperationalError
from redis.exceptions import RedisError

from league.request_id import JOB_HEADER, request_id_current

logger = logging.getLogger("scoring.enqueue")

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
    """Send with the current request id in the message's headers (``league.request_id``): the
    worker binds it while the job runs, so the job's log records name the request that sent it."""
    request_id = request_id_current()
    headers = {JOB_HEADER: request_id} if request_id else None
    task.apply_async(args, countdown=countdown, headers=headers)


def resume_sends() -> None:
    """Forget a pause: the next send tries the broker again (the broker is known to be back;
    tests start each case with it)."""
    global _paused_until
    _paused_until = 0.0
