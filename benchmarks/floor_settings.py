"""The floor of the hand-entry benchmark: a bare Django with one view that does one INSERT.

Not the product: no apps, no middleware, no authentication, no serializer. It runs under the same
gunicorn command and on the same PostgreSQL database as the product in
``benchmarks/bench_api_hands.py``, so the ratio between the two is what the product's own work
costs. ``DATABASE_URL`` and ``SECRET_KEY`` come from the environment, as for the product.
"""

import os

import dj_database_url

SECRET_KEY = os.environ["SECRET_KEY"]
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS: list[str] = []
MIDDLEWARE: list[str] = []
ROOT_URLCONF = "benchmarks.floor_urls"
USE_TZ = True
# The product's connection settings (config.settings): persistent connections, health-checked.
DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=60)}
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
LOGGING_CONFIG = None
