import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# Load the URLconf (and with it every view, serializer and form module) now, not at the first
# request: a web process's first captain does not wait for the imports.
get_resolver().url_patterns  # noqa: B018
