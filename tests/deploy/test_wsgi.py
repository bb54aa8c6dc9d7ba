"""The WSGI application a web process serves: its URLconf (every view module) is loaded before the
first request, and what was built at start is left out of the cycle collector's scans."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = (
    "import gc, sys; import config.wsgi; "
    "print('scoring.api.fast_hands' in sys.modules, gc.get_freeze_count() > 10000)"
)


def test_a_web_process_starts_with_its_views_loaded_and_its_start_frozen():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "0"}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]
