"""Redis refusing connections (a closed port), in the embedded pass: the cache falls back to the
process's own memory, so the captain page, its rate limit and the standings page keep working,
and ``/healthz`` names the broker and the cache as down, quickly."""

import socket
import time
from types import SimpleNamespace

import django_ratelimit.core
import pytest

from config.celery import app
from scoring.games.models import Hand
from tests.pages.test_public_pages import known  # noqa: F401  (the known season fixture)

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # nothing listens once the socket is closed


@pytest.fixture
def redis_refusing(settings):
    url = f"redis://127.0.0.1:{closed_port()}/0"
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.FailSoftRedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5, "FALLBACK": "local"},
        },
        "local": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": url},
    }
    return url


def test_pages_and_rate_limits_work_from_the_fallback(
    client,
    known,  # noqa: F811
    redis_refusing,
    settings,
    monkeypatch,
    caplog,
):
    settings.CAPTAIN_TOKEN_GUESSES_PER_MINUTE = "2/m"
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: 1.8e9 + 3))
    playing = known["games"][2]
    card = f"/t/{playing.captain_token}/"
    assert client.get(card).status_code == 200
    page = client.get(card).content.decode()
    key = page.split('name="key" value="')[1].split('"')[0]
    posted = client.post(
        f"{card}hands/",
        {"key": key, "number": 2, "caller": playing.seat_0_id, "tricks_won": 3},
    )
    assert posted.status_code == 303
    assert Hand.objects.filter(game=playing).count() == 2
    assert client.get(known["base"]).status_code == 200
    assert client.get("/t/guess-1/").status_code == 404
    assert client.get("/t/guess-2/").status_code == 404
    assert client.get("/t/guess-3/").status_code == 429  # limited by the per-process fallback
    warnings = [r.message for r in caplog.records if r.name == "config.cache"]
    assert len(warnings) == 1 and "Redis unreachable" in warnings[0]


def test_healthz_names_the_parts_that_are_down_within_a_second(client, redis_refusing, settings):
    # Read the broker before the settings change: the Celery app reads Django's settings lazily,
    # so afterwards it would remember the refusing broker as the one to go back to.
    previous = app.conf.broker_url
    settings.CELERY_BROKER_URL = redis_refusing
    app.conf.broker_url = redis_refusing
    try:
        started = time.perf_counter()
        response = client.get("/healthz")
        took = time.perf_counter() - started
    finally:
        app.conf.broker_url = previous
    assert response.status_code == 503
    body = response.json()
    assert (body["status"], body["database"]) == ("down", "ok")
    assert body["broker"].startswith("down: ") and body["cache"].startswith("down: ")
    assert took < 1.0, took
