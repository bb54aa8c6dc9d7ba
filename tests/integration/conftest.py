"""A real Celery worker, consuming real messages from Redis, against the test database.

Used by tests marked ``services``: they run in the second pass of the suite, with DATABASE_URL
(PostgreSQL) and REDIS_URL set. Without those they skip, except under CI=true, where they fail.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

from tests.conftest import require

ROOT = Path(__file__).resolve().parents[2]


def _database_url_for_tests() -> str:
    from django.db import connection

    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgresql://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def celery_worker_process(_celery_worker_session):
    """The suite's real Celery worker, consuming only during the test that asks for it.

    The worker process lives for the whole session (it takes seconds to start), against the
    test database of this test process, and every later test of the process runs beside it:
    one marked ``services`` sends its jobs to the same broker, and a job still queued or running
    when a test ends writes to the next test's rows (or deadlocks with pytest-django's flush,
    which then leaves the rows of the test before). So the worker consumes its queues from this
    fixture's setup to its teardown only: it starts on an empty broker, and when the test ends it
    stops taking messages and finishes what it holds before the database is flushed; what the
    test left queued is purged."""
    from config.celery import app

    name = worker_name("test-worker")
    app.control.purge()  # jobs sent while no test had the worker (a ``services`` test's)
    _consume(app, name, start=True)
    yield _celery_worker_session
    _consume(app, name, start=False)
    _wait_until_idle(app, name)
    app.control.purge()


def _queue_names(app) -> list[str]:
    return [queue.name for queue in app.conf.task_queues]


def _consume(app, name: str, *, start: bool) -> None:
    """Have the worker ``name`` start (or stop) consuming every queue, and wait for its answer."""
    for queue in _queue_names(app):
        command = app.control.add_consumer if start else app.control.cancel_consumer
        answer = command(queue, destination=[name], reply=True, timeout=10)
        if not answer:
            pytest.fail(f"the Celery worker {name} did not answer {command.__name__}({queue!r})")


def _wait_until_idle(app, name: str, timeout: float = 30.0) -> None:
    """Wait until the worker ``name`` runs, holds and has scheduled no job (it consumes nothing
    by now, so none arrives): the test's last jobs (a countdown's included) have finished."""
    inspect = app.control.inspect(destination=[name], timeout=2)
    deadline = time.monotonic() + timeout
    while True:
        held = [inspect.active(), inspect.reserved(), inspect.scheduled()]
        if all(answer is not None for answer in held) and not any(
            jobs for answer in held for jobs in answer.values()
        ):
            return
        if time.monotonic() > deadline:
            pytest.fail(f"the Celery worker {name} still had jobs after {timeout}s: {held}")
        time.sleep(0.1)


@pytest.fixture(scope="session")
def _celery_worker_session(django_db_setup, django_db_blocker, smtp_server):
    """The worker process, started once per test process (see ``celery_worker_process``)."""
    require(
        bool(os.environ.get("DATABASE_URL")) and bool(os.environ.get("REDIS_URL")),
        "needs DATABASE_URL (PostgreSQL) and REDIS_URL (Redis) for a real Celery worker",
    )
    require(not settings.CELERY_TASK_ALWAYS_EAGER, "Celery must not run eagerly here")
    import redis

    redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()
    with django_db_blocker.unblock():
        database_url = _database_url_for_tests()
    # The worker sends its mail to the tests' SMTP server (tests/mail_server.py).
    email = {"EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(smtp_server.port), "EMAIL_URL": ""}
    worker, log = start_worker(
        database_url=database_url, broker_url=os.environ["REDIS_URL"], environ=email
    )
    yield worker
    stop_worker(worker, log)


def start_worker(
    *,
    database_url: str,
    broker_url: str,
    name: str = "test-worker",
    log_name: str = "celery-worker",
    environ: dict[str, str] | None = None,
):
    """A real worker process on ``broker_url`` against ``database_url``; answers the in-process
    Celery app's ping (so that app must use the same broker) before it is returned. Its name and
    log carry the test process's id under pytest-xdist (``worker_name``); ``environ`` adds to its
    environment (its settings come from it)."""
    log_name += _process_suffix()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": broker_url,
        "PYTHONUNBUFFERED": "1",
        **(environ or {}),
    }
    log = open(ROOT / "test-artifacts" / f"{log_name}.log", "w")  # noqa: SIM115
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "-n",
            worker_name(name),
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    from config.celery import app

    deadline = time.monotonic() + 60
    while not app.control.ping(destination=[worker_name(name)], timeout=1):
        if worker.poll() is not None or time.monotonic() > deadline:
            worker.kill()
            log.close()
            pytest.fail(f"the Celery worker did not start: see test-artifacts/{log_name}.log")
    return worker, log


def _process_suffix() -> str:
    process = os.environ.get("PYTEST_XDIST_WORKER", "")
    return f"-{process}" if process else ""


def worker_name(name: str) -> str:
    """The Celery worker's node name: one worker per test process, each on its own Redis database
    (tests/environment.py), so the names never meet; the suffix keeps them apart anyway."""
    import socket

    return f"{name}{_process_suffix()}@{socket.gethostname()}"


def stop_worker(worker, log) -> None:
    worker.terminate()
    try:
        worker.wait(timeout=15)
    except subprocess.TimeoutExpired:
        worker.kill()
    log.close()


def wait_for(condition, timeout: float = 30.0, interval: float = 0.1):
    """Poll until ``condition()`` is truthy (return it) or fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    pytest.fail(f"gave up waiting after {timeout}s")
