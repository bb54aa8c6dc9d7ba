"""API routes for brackets, a team season's schedule, and archiving seasons, nights and brackets
(``tournaments.api.archiving``), included under ``/api/v1/``.

The ``brackets`` viewset is registered on the one API router in ``config/urls.py`` (from
``VIEWSETS``), so the API root lists it beside every other resource.
"""

from django.urls import path

from tournaments.api import archiving
from tournaments.api.brackets import BracketViewSet, SeasonScheduleView

VIEWSETS = [("brackets", BracketViewSet, "bracket")]

urlpatterns = [
    path("seasons/<int:pk>/schedule/", SeasonScheduleView.as_view(), name="season-schedule"),
    *archiving.urlpatterns,
]
