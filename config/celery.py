"""The Celery app: tasks live in each app's ``tasks`` module; settings use the CELERY_ prefix.

- *heartbeat*: every ``HEARTBEAT_SECONDS`` each worker, and the beat, set a key of their own in
  Redis that expires after ``HEARTBEAT_MISSED`` beats (Redis's clock decides, so no two machines'
  clocks are compared). A worker or beat that died, hangs or cannot reach Redis stops beating and
  its key expires; ``/readyz`` (``config.health``) lists the keys alive. A worker beats from its
  own timer (a bootstep, Celery's documented way to extend a worker), the beat from its scheduler's
  tick (``beat_max_loop_interval`` keeps the tick at least that frequent).
"""

import contextlib
import os
import socket

from celery import Celery, bootsteps
from celery.beat import PersistentScheduler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("euchre")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

HEARTBEAT_PREFIX = "heartbeat:"
HEARTBEAT_MISSED = 3
"""A key outlives this many beats: one late beat is not a death."""


def heartbeat_seconds() -> float:
    from django.conf import settings

    return settings.HEARTBEAT_SECONDS


def heartbeat_redis():
    """A client of the broker's Redis with short timeouts, or ``None`` without Redis."""
    from django.conf import settings

    if not settings.REDIS_URL:
        return None
    import redis

    timeout = settings.REDIS_TIMEOUT
    return redis.Redis.from_url(
        settings.REDIS_URL, socket_connect_timeout=timeout, socket_timeout=timeout
    )


def beat_once(client, name: str) -> None:
    """Say ``name`` is alive (``heartbeat:<name>``, expiring after ``HEARTBEAT_MISSED`` beats).
    A Redis that is down is no error here: the key simply expires, which is what it means."""
    import redis

    lifetime = max(1, round(heartbeat_seconds() * HEARTBEAT_MISSED))
    unreachable = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)
    with contextlib.suppress(*unreachable):
        client.set(f"{HEARTBEAT_PREFIX}{name}", os.getpid(), ex=lifetime)


class Heartbeat(bootsteps.StartStopStep):
    """A worker's heartbeat, from the worker's own timer (``worker.timer``)."""

    requires = {"celery.worker.components:Timer"}

    def __init__(self, worker, **kwargs):
        super().__init__(worker, **kwargs)
        self.timer_entry = None
        self.client = None

    def start(self, worker):
        self.client = heartbeat_redis()
        if self.client is None:
            return
        name = f"worker:{worker.hostname}"
        beat_once(self.client, name)
        self.timer_entry = worker.timer.call_repeatedly(
            heartbeat_seconds(), beat_once, (self.client, name), priority=10
        )

    def stop(self, worker):
        if self.timer_entry is not None:
            self.timer_entry.cancel()
            self.timer_entry = None


app.steps["worker"].add(Heartbeat)


class HeartbeatScheduler(PersistentScheduler):
    """Celery's default scheduler, beating at each tick (at least every ``HEARTBEAT_SECONDS``)."""

    def setup_schedule(self):
        super().setup_schedule()
        self.heartbeat_client = heartbeat_redis()
        self.heartbeat_name = f"beat:{socket.gethostname()}"

    def tick(self, *args, **kwargs):
        if self.heartbeat_client is not None:
            beat_once(self.heartbeat_client, self.heartbeat_name)
        return super().tick(*args, **kwargs)
