"""The suite runs in parallel processes (pytest-xdist); each gets a Redis database of its own, so
one process's Celery worker never consumes another's messages (tests/environment.py)."""

import pytest

from tests.environment import redis_url_for_process


def test_each_process_moves_down_one_redis_database():
    url = "redis://127.0.0.1:6379/15"
    assert redis_url_for_process(url, "gw0") == "redis://127.0.0.1:6379/15"
    assert redis_url_for_process(url, "gw1") == "redis://127.0.0.1:6379/14"
    assert redis_url_for_process(url, "gw7") == "redis://127.0.0.1:6379/8"


def test_credentials_and_options_are_kept():
    url = "redis://:secret@cache:6380/9?socket_timeout=2"
    assert redis_url_for_process(url, "gw2") == "redis://:secret@cache:6380/7?socket_timeout=2"


def test_a_url_without_a_database_starts_at_zero_and_runs_out_clearly():
    assert redis_url_for_process("redis://127.0.0.1:6379", "gw0") == "redis://127.0.0.1:6379/0"
    with pytest.raises(ValueError, match="no Redis database left"):
        redis_url_for_process("redis://127.0.0.1:6379/1", "gw2")
