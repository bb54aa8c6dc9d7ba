"""Observability (issue 32, item 9) through what a scraper and an operator touch: ``GET /metrics``
(Prometheus's text format, protected), the ``X-Request-ID`` answered, and the log lines a hand's
request and its standings recompute write, in the site's configured log handler."""

import io
import json
import logging
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from scoring.games.models import ResultChange

ROOT = Path(__file__).resolve().parents[2]


def scrape(client, **headers) -> dict[tuple[str, tuple], float]:
    response = client.get("/metrics", **headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def hand_post(client, game, key, **headers):
    return client.post(
        f"/api/v1/games/{game.pk}/hands/",
        {"makers": "A", "tricks_won": 3},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
        **headers,
    )


HANDS = ("euchre_hands_stored_total", ())
POSTS = (
    "euchre_http_request_duration_seconds_count",
    (("method", "POST"), ("route", "game-hands"), ("status", "201")),
)
REPLAYS = (POSTS[0], (("method", "POST"), ("route", "game-hands"), ("status", "200")))
RECOMPUTES = ("euchre_standings_recompute_seconds_count", ())


def request_id_of(line: str) -> str:
    """The request id of a console line, JSON (production: a DATABASE_URL) or text."""
    if line.startswith("{"):
        return json.loads(line)["request_id"]
    return line.split()[4].strip("[]")  # date time level logger [id] message


@pytest.fixture
def console():
    """What the site's own console handler (settings.LOGGING) writes during the test, with the
    jobs' loggers at INFO, as on a worker (the embedded shape keeps them to warnings)."""
    (handler,) = [h for h in logging.getLogger().handlers if h.name == "console"]
    jobs = logging.getLogger("scoring.standings.tasks")
    written, level = io.StringIO(), jobs.level
    previous = handler.setStream(written)
    jobs.setLevel(logging.INFO)
    yield written
    jobs.setLevel(level)
    handler.setStream(previous)


@pytest.mark.django_db
def test_a_stored_hand_is_counted_once_and_its_request_timed_by_route_name(
    client, organiser_api, make_game, django_capture_on_commit_callbacks
):
    game = make_game("standard")
    before = scrape(client)
    with django_capture_on_commit_callbacks(execute=True):
        assert hand_post(organiser_api, game, "k1").status_code == 201
    with django_capture_on_commit_callbacks(execute=True):
        assert hand_post(organiser_api, game, "k1").status_code == 200  # a retry: not stored again
    refused = organiser_api.post(f"/api/v1/games/{game.pk}/hands/", {"makers": "Z"}, format="json")
    assert refused.status_code == 400
    after = scrape(client)
    assert after[HANDS] - before.get(HANDS, 0) == 1
    assert after[POSTS] - before.get(POSTS, 0) == 1
    assert after[REPLAYS] - before.get(REPLAYS, 0) == 1
    assert after[RECOMPUTES] - before.get(RECOMPUTES, 0) == 1
    # Routes by name, never by path: no series names a game's id.
    assert not [key for key in after if f"/games/{game.pk}/" in str(key)]
    assert any(dict(labels).get("route") == "metrics" for _name, labels in after)


@pytest.mark.django_db
def test_a_hand_rolled_back_is_not_counted(client, make_game):
    from django.db import transaction

    from scoring.games import services

    game = make_game("standard")
    before = scrape(client).get(HANDS, 0)
    with pytest.raises(RuntimeError), transaction.atomic():
        services.hand_record(game=game, data=services.HandInput(makers="A", tricks_won=5))
        raise RuntimeError("the caller's transaction fails after the hand")
    assert scrape(client).get(HANDS, 0) == before


@pytest.mark.django_db
def test_the_oldest_pending_change_is_reported_at_scrape_time(client, make_game):
    game = make_game("standard")
    nothing = scrape(client)
    assert nothing[("euchre_oldest_pending_change_seconds", ())] == 0
    ResultChange.objects.create(season_id=game.season_id, game_id=game.pk)
    ResultChange.objects.update(created_at=timezone.now() - timedelta(seconds=90))
    waited = scrape(client)[("euchre_oldest_pending_change_seconds", ())]
    assert 89 <= waited < 120


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("address", "headers", "allowed"),
    [
        ("127.0.0.1", {}, True),
        ("10.1.2.3", {}, True),
        ("192.168.5.9", {}, True),
        ("203.0.113.7", {}, False),
        # Through a proxy: the proxy's private address says nothing of its client.
        ("127.0.0.1", {"HTTP_X_FORWARDED_FOR": "203.0.113.7"}, False),
        ("203.0.113.7", {"HTTP_AUTHORIZATION": "Bearer s3cret-scrape"}, True),
        ("203.0.113.7", {"HTTP_AUTHORIZATION": "Bearer wrong"}, False),
        (
            "127.0.0.1",
            {"HTTP_X_FORWARDED_FOR": "1.2.3.4", "HTTP_AUTHORIZATION": "Bearer wrong"},
            False,
        ),
    ],
)
def test_metrics_answer_a_private_network_or_the_bearer_token_only(
    client, settings, address, headers, allowed
):
    settings.METRICS_TOKEN = "s3cret-scrape"
    response = client.get("/metrics", REMOTE_ADDR=address, **headers)
    assert response.status_code == (200 if allowed else 403)
    assert (b"euchre_http_request_duration_seconds" in response.content) is allowed


@pytest.mark.django_db
def test_no_token_configured_lets_no_bearer_in(client, settings):
    settings.METRICS_TOKEN = ""
    response = client.get("/metrics", REMOTE_ADDR="203.0.113.7", HTTP_AUTHORIZATION="Bearer ")
    assert response.status_code == 403


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("incoming", "kept"),
    [
        ("captain-phone-42", True),
        ("a" * 64, True),
        ("a" * 65, False),
        ("x y", False),
        ("<b>", False),
    ],
)
def test_the_request_id_is_kept_when_well_formed_else_made(client, incoming, kept):
    response = client.get("/healthz", HTTP_X_REQUEST_ID=incoming)
    answered = response["X-Request-ID"]
    if kept:
        assert answered == incoming
    else:
        assert answered != incoming and len(answered) == 32 and int(answered, 16) >= 0


@pytest.mark.django_db
def test_every_answer_has_a_request_id_of_its_own(client):
    first, second = client.get("/"), client.get("/no-such-page/")
    assert second.status_code == 404
    assert first["X-Request-ID"] != second["X-Request-ID"]


@pytest.mark.django_db(transaction=True)
def test_the_request_id_follows_a_hand_into_its_recompute_job(organiser_api, make_game, console):
    """Transactional, so the hand's on-commit hooks run where they do in production: at commit,
    inside the request (the eager job runs there too, sent with the request id in its headers)."""
    from celery import signals

    from config.celery import job_request_id

    received = []

    def job_started(task=None, **kwargs):
        received.append((task.name, job_request_id(task.request)))

    game = make_game("standard")
    signals.task_prerun.connect(job_started, weak=False)
    try:
        response = hand_post(organiser_api, game, "k1", HTTP_X_REQUEST_ID="hand-post-7f3a")
    finally:
        signals.task_prerun.disconnect(job_started)
    assert response.status_code == 201
    # The job's message carries the id (a worker elsewhere has no request to read it from).
    assert ("scoring.recompute_season_standings", "hand-post-7f3a") in received
    assert response["X-Request-ID"] == "hand-post-7f3a"
    lines = console.getvalue().splitlines()
    recomputed = [
        line for line in lines if "scoring.standings.tasks" in line and "recomputed" in line
    ]
    assert len(recomputed) == 1, lines
    assert request_id_of(recomputed[0]) == "hand-post-7f3a"
    assert f"standings of season {game.season_id} recomputed" in recomputed[0]
    # Once the request is answered, nothing is bound any more.
    logging.getLogger("scoring").warning("after the request")
    assert request_id_of(console.getvalue().splitlines()[-1]) == "-"


def test_the_job_header_is_what_the_worker_binds():
    """The header ``core.enqueue`` sends is the one ``config.celery`` reads, from a worker's
    request (headers as attributes) and an eager one (``request.headers``)."""
    from types import SimpleNamespace

    from config.celery import job_request_id

    assert job_request_id(SimpleNamespace(request_id="abc", headers=None)) == "abc"
    assert job_request_id(SimpleNamespace(headers={"request_id": "def"})) == "def"
    assert job_request_id(SimpleNamespace(headers=None)) is None


def test_production_logs_are_json_lines_with_the_request_id():
    script = (
        "import logging, django; django.setup(); "
        "from core.request_id import request_id_bind; "
        "logging.getLogger('scoring.standings.tasks').info('no request'); "
        "request_id_bind('req-1'); "
        "logging.getLogger('scoring.standings.tasks').info('standings of season %s recomputed', 3, "
        "extra={'season_id': 3})"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_FORMAT": "json",
        "CELERY_LOG_LEVEL": "INFO",  # the jobs' lines, as a worker logs them
    }
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stderr.splitlines()]
    for record in records:
        assert set(record) >= {"time", "level", "logger", "message", "request_id"}
    assert [(r["message"], r["request_id"]) for r in records] == [
        ("no request", "-"),
        ("standings of season 3 recomputed", "req-1"),
    ]
    assert (records[1]["level"], records[1]["logger"], records[1]["season_id"]) == (
        "INFO",
        "scoring.standings.tasks",
        3,
    )
