"""API routes of individual nights, under ``/api/v1/nights/``."""

from league.api.routers import IdSimpleRouter
from tournaments.api.nights import NightViewSet

router = IdSimpleRouter()
router.register("nights", NightViewSet, basename="night")

urlpatterns = router.urls
