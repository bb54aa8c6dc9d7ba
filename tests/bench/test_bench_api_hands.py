"""The hand-entry benchmark's helpers (``benchmarks/bench_api_hands.py``, ``http_load.py``):
what it sends through each entrance is what the product takes as a hand, and what it runs is
what production runs. Figures are the benchmark's; these only check that it measures the right
thing."""

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from benchmarks import bench_api_hands as bench
from benchmarks.http_load import hand_body
from scoring.games.models import Game, Hand
from tests.factories import GameFactory

ROOT = Path(__file__).resolve().parents[2]


def test_the_floor_connects_as_the_product_does():
    """The floor's database settings are the product's for the same DATABASE_URL (persistent,
    health-checked connections, and nothing else)."""
    script = (
        "import importlib, json\n"
        "print(json.dumps([importlib.import_module(name).DATABASES for name in "
        "('config.settings', 'benchmarks.floor_settings')], default=str))"
    )
    env = {
        **os.environ,
        "DATABASE_URL": "postgres://someone:secret@db.example:5432/euchre",
        "SECRET_KEY": "test-only",
        "DEBUG": "0",
    }
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    product, floor = json.loads(done.stdout)
    assert floor == product
    assert product["default"]["CONN_MAX_AGE"] > 0 and product["default"]["CONN_HEALTH_CHECKS"]


def test_gunicorn_runs_with_the_images_flags_but_the_address_and_the_restarts(tmp_path):
    flags = bench.dockerfile_gunicorn_flags()
    assert "--bind" not in flags and "--max-requests" not in flags
    assert "--timeout" in flags and "--access-logfile" in flags
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(
        'CMD ["celery", "-A", "config", "worker"]\n'
        'CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", '
        '"--max-requests", "1000", "--max-requests-jitter", "100", "--timeout", "30"]\n'
    )
    assert bench.dockerfile_gunicorn_flags(dockerfile) == ["--timeout", "30"]
    command = bench.gunicorn_command("sync:4", 9999)
    assert command[command.index("--bind") + 1] == "127.0.0.1:9999"
    assert command[-4:] == ["--worker-class", "sync", "--workers", "4"]


def test_the_hand_form_is_read_as_the_pages_script_sends_it():
    page = """<form method="post" action="/t/abc/undo/"><input name="number" value="3"></form>
    <form method="post" action="/t/abc/hands/" class="hand">
    <input type="hidden" name="key" value="k1"><input type="hidden" name="number" value="4">
    <input type="hidden" name="csrfmiddlewaretoken" value="t{0}">
    <input type="radio" name="caller" value="7" required>
    <input type="radio" name="caller" value="8">
    <input type="checkbox" name="caller_alone">
    <input type="radio" name="tricks_won" value="3"><input type="radio" name="tricks_won" value="5">
    <input type="radio" name="renege" value="" checked><input type="radio" name="renege" value="A">
    <button type="submit">Record</button><button name="special" value="misdeal">Misdeal</button>
    </form>"""
    action, fields = bench.hand_form(page)
    assert action == "/t/abc/hands/"
    assert fields == [
        ("key", "{key}"),
        ("number", "{number}"),
        ("csrfmiddlewaretoken", "t{{0}}"),
        ("caller", "{caller}"),
        ("tricks_won", "3"),
        ("renege", ""),
    ]
    plan = {"style": "form", "form": fields, "callers": {"A": 7, "B": 8}}
    assert hand_body(plan, 2, "k9") == (
        b"key=k9&number=2&csrfmiddlewaretoken=t%7B0%7D&caller=8&tricks_won=3&renege="
    )
    with pytest.raises(ValueError, match="no caller"):
        bench.hand_form(page.replace('name="caller"', 'name="who"'))


def _seated(game: Game) -> dict[str, int]:
    return {"A": game.seat_player_ids[0], "B": game.seat_player_ids[1]}


@pytest.mark.django_db
def test_a_game_to_ten_takes_19_of_the_benchmarks_hands_through_the_captain_form(client):
    """The form as read from the real page, posted as ``http_load.py`` posts it: every hand is
    a success (the card with its "recorded" flash), and the game ends 10-9 at the 19th; a hand
    refused is not taken for a success."""
    game = GameFactory(season__rulebook__slug="standard")
    action, fields = bench.hand_form(client.get(f"/t/{game.captain_token}/").content.decode())
    entrance = bench.Entrance(
        "form",
        "form",
        0,
        style="form",
        expect=200,
        form=fields,
        path="/t/{token}/hands/",
        marker='class="flash ok"',
    )
    plan = entrance.plan([(game.pk, game.captain_token)], _seated(game), 1, 1)
    assert plan["clients"][0][0]["path"] == action

    def post(number):
        body = hand_body(plan, number, uuid.uuid4().hex)
        return client.post(
            action, body, content_type="application/x-www-form-urlencoded", HTTP_HX_REQUEST="true"
        )

    for number in range(1, bench.HANDS_PER_GAME + 1):
        response = post(number)
        assert response.status_code == 200
        assert entrance.marker in response.content.decode(), number
    game.refresh_from_db()
    assert (game.status, game.score_a, game.score_b) == (Game.Status.FINISHED, 10, 9)
    assert Hand.objects.filter(game=game).count() == bench.HANDS_PER_GAME
    refused = post(bench.HANDS_PER_GAME + 1)
    assert refused.status_code != 200 or entrance.marker not in refused.content.decode()


@pytest.mark.django_db
def test_a_game_to_ten_takes_19_of_the_benchmarks_hands_through_the_captain_header(api):
    game = GameFactory(season__rulebook__slug="standard")
    entrance = bench.Entrance("captain", "captain", 0, game_headers={"X-Captain-Token": "{token}"})
    plan = entrance.plan([(game.pk, game.captain_token)], _seated(game), 1, 1)
    (entry,) = plan["clients"][0]
    assert entry["headers"] == {"X-Captain-Token": game.captain_token}
    for number in range(1, bench.HANDS_PER_GAME + 1):
        response = api.post(
            entry["path"],
            hand_body(plan, number, "unused"),
            content_type="application/json",
            HTTP_X_CAPTAIN_TOKEN=game.captain_token,
            HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
        )
        assert response.status_code == entrance.expect, response.content
    game.refresh_from_db()
    assert (game.status, game.score_a, game.score_b) == (Game.Status.FINISHED, 10, 9)


def test_the_cpu_of_a_process_that_exited_is_not_taken_back():
    before = {"postgres": {1: 5.0, 2: 1.0}, "web": {3: 2.0}}
    after = {"postgres": {2: 1.5, 4: 0.25}, "web": {3: 2.5}}
    assert bench.cpu_used(before, after) == {"postgres": 0.75, "web": 0.5}
