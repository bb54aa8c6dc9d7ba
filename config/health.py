"""``/healthz``: are the database, the broker and the cache reachable? 200 when all are, else 503
naming the part that is down, e.g. ``{"status": "down", "database": "ok", "broker": "down:
OperationalError", "cache": "down: ConnectionError"}``.

It answers within about a second either way: the broker and the cache are asked at the same time,
each with Redis's short timeouts (``REDIS_TIMEOUT``) and no retry, and a part that has not answered
by ``DEADLINE`` is reported down.
"""

from concurrent.futures import ThreadPoolExecutor, wait

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from config.celery import HEARTBEAT_MISSED, HEARTBEAT_PREFIX, app, heartbeat_redis

DEADLINE = 0.8
"""Seconds the broker and cache checks may take together before they count as down."""
_checks = ThreadPoolExecutor(max_workers=4, thread_name_prefix="healthz")


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:
        return f"down: {error.__class__.__name__}"
    return "ok"


def _broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER and settings.CELERY_BROKER_URL.startswith("memory"):
        return "ok (embedded: tasks run in process)"
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=0, timeout=DEADLINE)  # one try, no retry sleep
    return "ok"


def _cache() -> str:
    """The default cache's Redis itself, pinged (not the fail-soft cache in front of it, which
    answers from memory while Redis is down)."""
    import redis

    config = settings.CACHES["default"]
    if "redis" not in config["BACKEND"].lower():
        return "ok (local memory)"
    location = config["LOCATION"]
    url = location if isinstance(location, str) else location[0]
    timeout = settings.REDIS_TIMEOUT
    client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
    client.ping()
    return "ok"


def _outcome(future) -> str:
    if not future.done():
        return "down: no answer in time"
    error = future.exception()
    return f"down: {error.__class__.__name__}" if error else future.result()


def _parts() -> dict[str, str]:
    pending = {"broker": _checks.submit(_broker), "cache": _checks.submit(_cache)}
    checks = {"database": _database()}
    wait(pending.values(), timeout=DEADLINE)
    checks.update({name: _outcome(future) for name, future in pending.items()})
    return checks


@never_cache
def healthz(request):
    checks = _parts()
    healthy = all(value.startswith("ok") for value in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "down", **checks}, status=200 if healthy else 503
    )


def _heartbeats(client, kind: str) -> dict[str, float]:
    """``{name: seconds since its last beat}`` of the ``kind`` ("worker", "beat") whose keys are
    alive, by Redis's own clock (the key's lifetime less its time to live)."""
    lifetime = max(1, round(settings.HEARTBEAT_SECONDS * HEARTBEAT_MISSED))
    found = {}
    for key in client.scan_iter(match=f"{HEARTBEAT_PREFIX}{kind}:*", count=100):
        remaining = client.pttl(key)
        if remaining > 0:
            name = key.decode().removeprefix(f"{HEARTBEAT_PREFIX}{kind}:")
            found[name] = round(max(0.0, lifetime - remaining / 1000), 1)
    return found


def _queues() -> dict[str, int]:
    """Messages waiting in each queue (a passive declare: it creates nothing)."""
    depths = {}
    with app.connection_for_read() as conn:
        conn.ensure_connection(max_retries=0, timeout=DEADLINE)
        channel = conn.default_channel
        for queue in settings.CELERY_TASK_QUEUES:
            try:
                depths[queue.name] = channel.queue_declare(queue=queue.name, passive=True)[1]
            except conn.channel_errors:  # never declared yet: nothing waits in it
                depths[queue.name] = 0
    return depths


def _oldest_pending_change() -> float | None:
    """Seconds the oldest result change has waited for the standings, by the database's clock
    (``None``: nothing waits)."""
    from django.db.models import Min
    from django.db.models.functions import Now

    from scoring.games.models import ResultChange

    waited = ResultChange.objects.aggregate(waited=Now() - Min("created_at"))["waited"]
    return None if waited is None else round(waited.total_seconds(), 1)


def _background() -> dict:
    """What the background work looks like: workers and beat alive, queues, oldest change."""
    client = heartbeat_redis()
    if client is None:
        return {"workers": "in process (embedded: tasks run eagerly)", "beat": "none (embedded)"}
    found = {
        name: _checks.submit(work)
        for name, work in (
            ("workers", lambda: _heartbeats(client, "worker")),
            ("beat", lambda: _heartbeats(client, "beat")),
            ("queues", _queues),
        )
    }
    wait(found.values(), timeout=DEADLINE)
    return {
        name: future.result() if future.done() and not future.exception() else _outcome(future)
        for name, future in found.items()
    }


def _oldest_or_down() -> float | str | None:
    try:
        return _oldest_pending_change()
    except Exception as error:
        return f"down: {error.__class__.__name__}"


def pending_work() -> dict:
    """What ``/metrics`` reports of the background work at each scrape, by ``/readyz``'s own
    checks: ``queues`` (each queue's depth; ``None`` without a broker, or when it does not answer
    in time) and ``oldest_pending_change_seconds`` (``None``: nothing waits; ``"down: …"``)."""
    queues = None
    if heartbeat_redis() is not None:
        future = _checks.submit(_queues)
        wait([future], timeout=DEADLINE)
        if future.done() and not future.exception():
            queues = future.result()
    return {"queues": queues, "oldest_pending_change_seconds": _oldest_or_down()}


@never_cache
def readyz(request):
    """Readiness: the parts ``/healthz`` checks, and the background work a league night relies
    on: at least one worker and the beat beating (``config.celery``), the depth of each queue,
    and how long the oldest result change has waited for the standings. 503 naming what is
    wrong when a part is down, no worker or no beat beats, or a change has waited longer than
    ``READY_PENDING_SECONDS``."""
    checks = _parts()
    background = _background()
    oldest = _oldest_or_down()
    problems = [name for name, value in checks.items() if not value.startswith("ok")]
    for kind in ("workers", "beat"):
        value = background[kind]
        if isinstance(value, dict) and not value:
            problems.append(f"no {kind.rstrip('s')} alive")
        elif isinstance(value, str) and value.startswith("down"):
            problems.append(kind)
    if isinstance(oldest, str):
        problems.append("pending changes")
    elif oldest is not None and oldest > settings.READY_PENDING_SECONDS:
        problems.append(f"a result change has waited {oldest:.0f} s")
    body = {
        "status": "down" if problems else "ok",
        "problems": problems,
        **checks,
        **background,
        "oldest_pending_change_seconds": oldest,
    }
    return JsonResponse(body, status=503 if problems else 200)
