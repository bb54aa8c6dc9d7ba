"""The registry of the metrics counted by this host's processes: every process's, summed from the
files in ``PROMETHEUS_MULTIPROC_DIR`` when it is set (gunicorn's workers, a prefork Celery worker's
pool: prometheus_client's multiprocess mode), else this process's own. ``config.observability``
adds the scrape-time gauges to it for ``/metrics``; a worker serves it as it is (``config.celery``).
"""

import os

from prometheus_client import REGISTRY, CollectorRegistry, multiprocess


def processes_registry() -> CollectorRegistry:
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(REGISTRY)
    return registry
