"""``/readyz`` on the embedded default: tasks run in process (no worker or beat to watch), and a
result change that has waited too long for the standings makes it 503, saying so."""

import datetime
import os

import pytest
from django.utils import timezone

from scoring.games.models import ResultChange

pytestmark = pytest.mark.django_db


@pytest.mark.skipif(
    bool(os.environ.get("REDIS_URL")),
    reason="the embedded default's readiness (with Redis, tests/integration watches the workers)",
)
def test_the_embedded_default_is_ready(client):
    answer = client.get("/readyz")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["problems"] == []
    assert body["workers"].startswith("in process")
    assert body["oldest_pending_change_seconds"] is None


def test_a_change_waiting_too_long_is_named(client, make_game, settings):
    game = make_game("standard")
    change = ResultChange.objects.create(season_id=game.season_id, game=game)
    ResultChange.objects.filter(pk=change.pk).update(
        created_at=timezone.now() - datetime.timedelta(seconds=600)
    )
    settings.READY_PENDING_SECONDS = 120
    answer = client.get("/readyz")
    assert answer.status_code == 503
    body = answer.json()
    assert 595 <= body["oldest_pending_change_seconds"] <= 700
    assert any("has waited" in problem for problem in body["problems"])
    settings.READY_PENDING_SECONDS = 3600
    assert not any("has waited" in problem for problem in client.get("/readyz").json()["problems"])
