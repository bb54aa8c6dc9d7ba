"""API routes for brackets, included under ``/api/v1/``."""

from django.urls import path

from league.api.routers import IdSimpleRouter
from tournaments.api.brackets import BracketViewSet, SeasonScheduleView

router = IdSimpleRouter()
router.register("brackets", BracketViewSet, basename="bracket")

urlpatterns = [
    path("seasons/<int:pk>/schedule/", SeasonScheduleView.as_view(), name="season-schedule"),
    *router.urls,
]
