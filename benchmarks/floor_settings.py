"""The floor of the hand-entry benchmark: a bare Django with one view that does one INSERT.

Not the product: no apps, no middleware, no authentication, no serializer. It runs under the same
gunicorn command and on the same PostgreSQL database as the product in
``benchmarks/bench_api_hands.py``, so the ratio between the two is what the product's own work
costs. ``DATABASE_URL``, ``DATABASE_POOLING`` and ``SECRET_KEY`` come from the environment, as
for the product.
"""

import os

from config.database import pooling_from_environment, postgres_database

SECRET_KEY = os.environ["SECRET_KEY"]
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS: list[str] = []
MIDDLEWARE: list[str] = []
ROOT_URLCONF = "benchmarks.floor_urls"
USE_TZ = True
# The product's connection settings (config.database): persistent, health-checked connections,
# prepared statements unless DATABASE_POOLING says a transaction pooler is in front.
DATABASES = {
    "default": postgres_database(os.environ["DATABASE_URL"], pooling=pooling_from_environment())
}
LOGGING_CONFIG = None
