"""``/healthz``: are the database, the broker and the cache reachable? 200 when all are, else 503
naming the part that is down, e.g. ``{"status": "down", "database": "ok", "broker": "down:
OperationalError", "cache": "down: ConnectionError"}``.

It answers within about a second either way: the broker and the cache are asked at the same time,
each with Redis's short timeouts (``REDIS_TIMEOUT``) and no retry, and a part that has not answered
by ``DEADLINE`` is reported down.
"""

from concurrent.futures import ThreadPoolExecutor, wait

from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from config.celery import app

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
    cache = caches["default"]
    client = getattr(cache, "_cache", None)
    if not hasattr(client, "get_client"):
        return "ok (local memory)"
    client.get_client(write=True).ping()  # the Redis itself, not the fail-soft wrapper
    return "ok"


def _outcome(future) -> str:
    if not future.done():
        return "down: no answer in time"
    error = future.exception()
    return f"down: {error.__class__.__name__}" if error else future.result()


@never_cache
def healthz(request):
    pending = {"broker": _checks.submit(_broker), "cache": _checks.submit(_cache)}
    checks = {"database": _database()}
    wait(pending.values(), timeout=DEADLINE)
    checks.update({name: _outcome(future) for name, future in pending.items()})
    healthy = all(value.startswith("ok") for value in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "down", **checks}, status=200 if healthy else 503
    )
