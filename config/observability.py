"""Metrics and request ids of the whole site.

- :class:`ObserveRequests` (first middleware): binds the request id (``core.request_id``: an
  incoming well-formed ``X-Request-ID``, else a new one), echoes it in the answer's
  ``X-Request-ID``, and records the request's duration in
  ``euchre_http_request_duration_seconds{route, method, status}``, where *route* is the resolved
  URL's name (``game-hands-list``, ``public-standings``), never the raw path, so ids make no new
  series; a path that resolves to nothing is ``unmatched``.
- :func:`metrics`: ``GET /metrics`` in Prometheus's text format, for a scraper on a private network
  (``METRICS_ALLOWED_NETWORKS``, asked directly, not through a proxy) or one sending
  ``Authorization: Bearer <METRICS_TOKEN>``; 403 to anyone else. Besides the counters and
  histograms of every process (prometheus_client's multiprocess mode when
  ``PROMETHEUS_MULTIPROC_DIR`` is set, as under gunicorn), it reports at scrape time what
  ``/readyz`` computes of the background work (``config.health.pending_work``):
  ``euchre_queue_depth{queue}`` (with a broker) and ``euchre_oldest_pending_change_seconds``.
"""

from __future__ import annotations

import ipaddress
import secrets
import time

from django.conf import settings
from django.http import HttpResponse, HttpResponseForbidden
from django.views.decorators.cache import never_cache
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily

from config.metrics_registry import processes_registry
from core.request_id import HEADER, request_id_bind, request_id_for, request_id_unbind

REQUEST_SECONDS = Histogram(
    "euchre_http_request_duration_seconds",
    "Duration of a request, from the first middleware in to the answer out, by URL name.",
    ["route", "method", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""Methods named in the metric as they are; any other is ``other`` (no series per junk verb)."""


class ObserveRequests:
    """Request id in and out, and the request's duration by route (see the module)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request_id = request_id_for(request.headers.get(HEADER))
        token = request_id_bind(request_id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
        finally:
            request_id_unbind(token)
        match = request.resolver_match
        REQUEST_SECONDS.labels(
            route=(match.view_name or match.route) if match else "unmatched",
            method=request.method if request.method in METHODS else "other",
            status=str(response.status_code),
        ).observe(time.perf_counter() - started)
        response[HEADER] = request_id
        return response


class PendingWork:
    """Gauges computed at each scrape from what ``/readyz`` computes (``config.health``)."""

    def collect(self):
        from config.health import pending_work

        work = pending_work()
        if work["queues"] is not None:
            depth = GaugeMetricFamily(
                "euchre_queue_depth", "Messages waiting in each Celery queue.", labels=["queue"]
            )
            for queue, waiting in sorted(work["queues"].items()):
                depth.add_metric([queue], waiting)
            yield depth
        oldest = work["oldest_pending_change_seconds"]
        if not isinstance(oldest, str):  # a database that is down reports no figure
            yield GaugeMetricFamily(
                "euchre_oldest_pending_change_seconds",
                "Seconds the oldest result change has waited for the standings (0: none waits).",
                value=oldest or 0.0,
            )


def metrics_registry() -> CollectorRegistry:
    """This host's processes' metrics (``config.metrics_registry``) and the scrape-time gauges of
    :class:`PendingWork`."""
    registry = processes_registry()
    registry.register(PendingWork())
    return registry


def scraper_allowed(request) -> bool:
    """A bearer token equal to ``METRICS_TOKEN``, or a direct request (no ``X-Forwarded-For``:
    a proxy's clients are not its network's) from ``METRICS_ALLOWED_NETWORKS``."""
    token = settings.METRICS_TOKEN
    scheme, _, offered = request.headers.get("Authorization", "").partition(" ")
    if token and scheme.lower() == "bearer" and secrets.compare_digest(offered, token):
        return True
    if "X-Forwarded-For" in request.headers:
        return False
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:
        return False
    return any(address in ipaddress.ip_network(net) for net in settings.METRICS_ALLOWED_NETWORKS)


@never_cache
def metrics(request):
    if not scraper_allowed(request):
        return HttpResponseForbidden(
            "metrics are for a scraper on a private network or with the bearer token\n",
            content_type="text/plain; charset=utf-8",
        )
    return HttpResponse(generate_latest(metrics_registry()), content_type=CONTENT_TYPE_LATEST)
