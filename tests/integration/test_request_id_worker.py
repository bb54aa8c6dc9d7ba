"""With a real worker on Redis: the request id of a hand's POST reaches the worker in the job's
message and is on the JSON log line the worker writes for the standings recompute it ran."""

import json

import pytest

from tests.integration.conftest import ROOT, _process_suffix, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def worker_records() -> list[dict]:
    log = ROOT / "test-artifacts" / f"celery-worker{_process_suffix()}.log"
    records = []
    for line in log.read_text().splitlines():
        if line.startswith("{"):
            records.append(json.loads(line))
    return records


def test_the_worker_logs_the_recompute_under_the_hand_s_request_id(
    celery_worker_process, organiser_api, make_game
):
    game = make_game("standard")
    response = organiser_api.post(
        f"/api/v1/games/{game.pk}/hands/",
        {"makers": "A", "tricks_won": 5},
        format="json",
        HTTP_IDEMPOTENCY_KEY="worker-rid-1",
        HTTP_X_REQUEST_ID="hand-on-worker-91c2",
    )
    assert response.status_code == 201, response.json()
    assert response["X-Request-ID"] == "hand-on-worker-91c2"

    def recompute_lines():
        return [
            record
            for record in worker_records()
            if record.get("logger") == "scoring.standings.tasks"
            and f"standings of season {game.season_id} recomputed" in record.get("message", "")
        ]

    (record,) = wait_for(recompute_lines)
    assert record["request_id"] == "hand-on-worker-91c2"
    assert record["level"] == "INFO"
