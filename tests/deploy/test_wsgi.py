"""The WSGI application a web process serves: its URLconf (every view module) is loaded before the
first request."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = "import sys; import config.wsgi; print('scoring.games.api.views' in sys.modules)"


def test_a_web_process_starts_with_its_views_loaded():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "0"}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True"]
