"""API routes for brackets, included under ``/api/v1/``."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from tournaments.api.brackets import BracketViewSet, SeasonScheduleView

router = SimpleRouter()
router.register("brackets", BracketViewSet, basename="bracket")

urlpatterns = [
    path("seasons/<int:pk>/schedule/", SeasonScheduleView.as_view(), name="season-schedule"),
    *router.urls,
]
