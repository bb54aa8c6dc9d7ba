"""A pytest plugin loaded with ``-p`` (see pyproject), so it runs before Django's settings are read.

The suite talks plain HTTP to its own test servers and serves static files from the source tree,
so the production defaults for HTTPS redirects and hashed static files are relaxed here only.
"""

import os
import tempfile

os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("STATIC_MANIFEST", "0")
os.environ.setdefault("WHITENOISE_USE_FINDERS", "1")
os.environ.setdefault("STATIC_ROOT", tempfile.mkdtemp(prefix="euchre-static-"))

os.makedirs(os.path.join(os.path.dirname(os.path.dirname(__file__)), "test-artifacts"), exist_ok=True)
