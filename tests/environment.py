"""A pytest plugin loaded with ``-p`` (see pyproject), so it runs before Django's settings are read.

The suite talks plain HTTP to its own test servers and serves static files from the source tree,
so the production defaults for HTTPS redirects and hashed static files are relaxed here only.

The suite runs in parallel processes (pytest-xdist, ``-n``). pytest-django gives each process a
test database of its own; this gives each one a Redis database of its own too (``redis://…/15``
becomes 15 for the first process, 14 for the second…), so that its broker queues, cache and the
real Celery worker it starts are its own.
"""

import os
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit


def redis_url_for_process(url: str, worker: str) -> str:
    """``url`` with its database number moved down by the xdist worker's index (gw0, gw1…)."""
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    database = base - int(worker.removeprefix("gw"))
    if database < 0:
        raise ValueError(f"{url}: no Redis database left for pytest-xdist's {worker}")
    return urlunsplit(parts._replace(path=f"/{database}"))


XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if XDIST_WORKER and os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = redis_url_for_process(os.environ["REDIS_URL"], XDIST_WORKER)

os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("STATIC_MANIFEST", "0")
os.environ.setdefault("WHITENOISE_USE_FINDERS", "1")
os.environ.setdefault("STATIC_ROOT", tempfile.mkdtemp(prefix="euchre-static-"))
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
ARTIFACTS.mkdir(exist_ok=True)
