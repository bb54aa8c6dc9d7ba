"""Workers that survive and are watched (issue 32, item 1).

- A worker started with the product's own command (docker-compose.yml's ``worker``) rides out a
  Redis outage: it stays up while Redis is down and consumes again once it is back.
- Each worker and the beat beat (``config.celery``); ``/readyz`` lists them, the queues' depths
  and the oldest change waiting for the standings, and answers 503 naming what is missing when no
  worker or no beat beats.

A private Redis on a free port for the outage (the suite's own Redis stays up), the suite's
database. Marked ``services``: the suite's second pass (PostgreSQL, Redis).
"""

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
import yaml
from celery import Celery

from tests.conftest import require
from tests.integration.conftest import _database_url_for_tests, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PrivateRedis:
    """A redis-server of the test's own, which it may stop and start again on the same port."""

    def __init__(self, folder: Path):
        self.port, self.folder, self.process = free_port(), folder, None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                *("redis-server", "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--dir", str(self.folder)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(self.url)
        wait_for(lambda: _answers(client), timeout=10)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


def _answers(client) -> bool:
    try:
        return client.ping()
    except redis.exceptions.ConnectionError:
        return False


@pytest.fixture
def private_redis(tmp_path):
    require(shutil.which("redis-server") is not None, "needs redis-server on PATH")
    server = PrivateRedis(tmp_path)
    server.start()
    yield server
    server.stop()


def compose_command(service: str) -> list[str]:
    """The service's command in docker-compose.yml, its variables at their defaults and one
    process of work (``--concurrency=1``)."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    command = [str(part) for part in compose["services"][service]["command"]]
    command = command[command.index("celery") :]  # (the race worker is started under nice)
    return ["--concurrency=1" if part.startswith("--concurrency=") else part for part in command]


def start(command: list[str], *, broker: str, log_name: str, **env) -> subprocess.Popen:
    environment = {
        **os.environ,
        "DATABASE_URL": _database_url_for_tests(),
        "REDIS_URL": broker,
        "PYTHONUNBUFFERED": "1",
        **env,
    }
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / f"{log_name}-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log", "w")  # noqa: SIM115
    return subprocess.Popen(
        [sys.executable, "-m", *command],
        cwd=ROOT,
        env=environment,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


def answers_ping(broker: str, name: str) -> bool:
    probe = Celery("probe", broker=broker, set_as_current=False)
    try:
        return bool(probe.control.ping(destination=[name], timeout=1))
    except Exception:
        return False
    finally:
        probe.close()


def beating(broker: str, kind: str) -> list[bytes]:
    try:
        return list(redis.Redis.from_url(broker).scan_iter(match=f"heartbeat:{kind}:*"))
    except redis.exceptions.ConnectionError:
        return []


def test_a_worker_started_as_compose_starts_it_rides_out_a_redis_outage(private_redis):
    name = f"outage-{os.getpid()}@{socket.gethostname()}"
    command = [*compose_command("worker"), "-n", name]
    assert "--without-gossip" in command and "--without-mingle" in command
    worker = start(
        command, broker=private_redis.url, log_name="outage-compose-worker", HEARTBEAT_SECONDS="1"
    )
    try:
        wait_for(lambda: answers_ping(private_redis.url, name), timeout=60)
        wait_for(lambda: beating(private_redis.url, "worker"), timeout=10)
        for down_for in (2, 8):
            private_redis.stop()
            time.sleep(down_for)  # the outage itself: how long Redis stays away
            assert worker.poll() is None, "the worker exited while Redis was down"
            private_redis.start()
            wait_for(lambda: answers_ping(private_redis.url, name), timeout=60)
            wait_for(lambda: beating(private_redis.url, "worker"), timeout=10)
        assert worker.poll() is None
    finally:
        stop(worker)


def test_readyz_lists_workers_and_beat_and_names_what_is_missing(
    client, celery_worker_process, settings
):
    broker = os.environ["REDIS_URL"]
    wait_for(lambda: beating(broker, "worker"), timeout=30)
    answer = client.get("/readyz")
    body = answer.json()
    assert body["workers"], body  # the suite's worker beats
    assert set(body["queues"]) == {"celery", "race"}
    assert body["oldest_pending_change_seconds"] is None
    assert answer.status_code == 503 and "no beat alive" in body["problems"], body

    beat = start(
        [*compose_command("beat")[:-1], "--schedule", str(ARTIFACTS / f"beat-{os.getpid()}")],
        broker=broker,
        log_name="readyz-beat",
        HEARTBEAT_SECONDS="1",
    )
    try:
        wait_for(lambda: beating(broker, "beat"), timeout=30)
        ready = client.get("/readyz")
        assert ready.status_code == 200, ready.json()
        assert ready.json()["problems"] == [] and ready.json()["beat"]
        assert alive("beat") == 0  # the compose health check of the beat
    finally:
        stop(beat)
    settings.HEARTBEAT_SECONDS = 1  # the beat's key lives three of its one-second beats
    wait_for(lambda: not beating(broker, "beat"), timeout=10)
    gone = client.get("/readyz")
    assert gone.status_code == 503 and "no beat alive" in gone.json()["problems"]
    assert alive("beat") == 1


def alive(kind: str) -> int:
    """The exit status of the compose health check ``python -m config.alive <kind>``."""
    return subprocess.run(
        [sys.executable, "-m", "config.alive", kind], cwd=ROOT, capture_output=True, timeout=30
    ).returncode
