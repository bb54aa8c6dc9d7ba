"""A pytest plugin loaded with ``-p`` (see pyproject), so it runs before Django's settings are read.

The suite talks plain HTTP to its own test servers and serves static files from the source tree,
so the production defaults for HTTPS redirects and hashed static files are relaxed here only.
"""

import os
import tempfile
from pathlib import Path

os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("STATIC_MANIFEST", "0")
os.environ.setdefault("WHITENOISE_USE_FINDERS", "1")
os.environ.setdefault("STATIC_ROOT", tempfile.mkdtemp(prefix="euchre-static-"))
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
ARTIFACTS.mkdir(exist_ok=True)
