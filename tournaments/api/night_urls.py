"""API routes of nights, under ``/api/v1/nights/``.

The viewset is registered on the one API router in ``config/urls.py`` (from ``VIEWSETS``), so the
API root lists it beside every other resource.
"""

from tournaments.api.nights import NightViewSet

VIEWSETS = [("nights", NightViewSet, "night")]
