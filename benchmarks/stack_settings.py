"""The product's own settings (``config.settings``: its apps, its whole middleware stack, its
database and cache), with the routes of ``benchmarks/stack_urls.py`` beside the product's.

Not the product: the benchmarks serve it so that two more floors pay what the framework's own
request stack costs, which the one-INSERT floor (``benchmarks/floor_settings.py``) does not.
"""

from config.settings import *  # noqa: F403 (the product's settings, every one of them)

ROOT_URLCONF = "benchmarks.stack_urls"
