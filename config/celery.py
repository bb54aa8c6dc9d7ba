"""The Celery app: tasks live in each app's ``tasks`` module; settings use the CELERY_ prefix.

- *heartbeat*: every ``HEARTBEAT_SECONDS`` each worker, and the beat, set a key of their own in
  Redis that expires after ``HEARTBEAT_MISSED`` beats (Redis's clock decides, so no two machines'
  clocks are compared). A worker or beat that died, hangs or cannot reach Redis stops beating and
  its key expires; ``/readyz`` (``config.health``) lists the keys alive. A worker beats from its
  own timer (a bootstep, Celery's documented way to extend a worker), the beat from its scheduler's
  tick (``beat_max_loop_interval`` keeps the tick at least that frequent).
- *logs and request ids*: a worker logs through the site's ``LOGGING`` (JSON lines in
  production, each record with its ``request_id``), not Celery's own format (``setup_logging``);
  while a job runs, the request id its message carries (sent by ``core.enqueue``) is bound, so
  the recompute a hand triggered logs that hand's request id.
- *metrics*: with ``WORKER_METRICS_PORT`` set, a worker serves its metrics (the recompute
  durations; every pool process's, through ``PROMETHEUS_MULTIPROC_DIR``) on that port for
  Prometheus to scrape, as prometheus_client's ``start_http_server`` does.
"""

import contextlib
import os
import socket
from contextvars import Token

from celery import Celery, bootsteps, signals
from celery.beat import PersistentScheduler

from core.request_id import JOB_HEADER, request_id_bind, request_id_unbind

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


@signals.setup_logging.connect
def log_as_the_site_does(**kwargs):
    """The worker's and the beat's logs as the web's: Django's ``LOGGING`` (Celery configures
    none of its own when this signal has a receiver)."""
    import logging.config

    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)


_bound: dict[str, Token] = {}


def job_request_id(request) -> str | None:
    """The request id a running job's message carries: a worker puts a message's own headers on
    the job's request; an eager run keeps them in ``request.headers``."""
    found = getattr(request, JOB_HEADER, None)
    if not found:
        found = (getattr(request, "headers", None) or {}).get(JOB_HEADER)
    return found if isinstance(found, str) else None


@signals.task_prerun.connect
def bind_job_request_id(task_id=None, task=None, **kwargs):
    request_id = job_request_id(task.request)
    if request_id and task_id:
        _bound[task_id] = request_id_bind(request_id)


@signals.task_postrun.connect
def unbind_job_request_id(task_id=None, **kwargs):
    token = _bound.pop(task_id, None)
    if token is not None:
        request_id_unbind(token)


@signals.worker_ready.connect
def serve_worker_metrics(**kwargs):
    from django.conf import settings

    if settings.WORKER_METRICS_PORT:
        from prometheus_client import start_http_server

        from config.metrics_registry import processes_registry

        start_http_server(settings.WORKER_METRICS_PORT, registry=processes_registry())
