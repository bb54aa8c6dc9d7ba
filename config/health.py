"""``/healthz``: is the database reachable, and is the broker? 200 when both answer, else 503."""

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from config.celery import app


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
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as error:
        return f"down: {error.__class__.__name__}"
    return "ok"


@never_cache
def healthz(request):
    checks = {"database": _database(), "broker": _broker()}
    healthy = all(value.startswith("ok") for value in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "down", **checks}, status=200 if healthy else 503
    )
