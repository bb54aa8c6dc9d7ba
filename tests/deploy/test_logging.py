"""``LOG_LEVEL`` sets what reaches the console, Django's own loggers included (a 409 answered to a
retrying captain is a warning of ``django.request``)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = (
    "import logging, django; django.setup(); "
    "logging.getLogger('django.request').warning('Conflict: /api/v1/games/1/hands/'); "
    "logging.getLogger('django.request').error('Internal Server Error: /boom/'); "
    "logging.getLogger('scoring').info('a hand recorded'); "
    "logging.getLogger('django.security.DisallowedHost').warning('Invalid HTTP_HOST header'); "
    "print([type(h).__name__ for h in logging.getLogger('django').handlers], "
    "logging.getLogger('django.server').propagate, "
    "[type(h).__name__ for h in logging.getLogger('django.server').handlers])"
)


def console(level: str | None) -> str:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "0"}
    env.pop("LOG_LEVEL", None)
    if level is not None:
        env["LOG_LEVEL"] = level
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    # Django's own handlers are kept: mail to ADMINS, runserver's log in its format.
    assert done.stdout.strip() == "['StreamHandler', 'AdminEmailHandler'] False ['StreamHandler']"
    return done.stderr


@pytest.mark.parametrize(
    ("level", "shown", "hidden"),
    [
        (None, ["Conflict", "Internal Server Error", "a hand recorded", "Invalid HTTP_HOST"], []),
        (
            "WARNING",
            ["Conflict", "Internal Server Error", "Invalid HTTP_HOST"],
            ["a hand recorded"],
        ),
        ("ERROR", ["Internal Server Error"], ["Conflict", "a hand recorded", "Invalid HTTP_HOST"]),
    ],
)
def test_log_level_applies_to_django_s_loggers_too(level, shown, hidden):
    output = console(level)
    for line in shown:
        assert line in output
    for line in hidden:
        assert line not in output
