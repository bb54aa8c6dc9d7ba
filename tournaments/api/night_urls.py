"""API routes of individual nights, under ``/api/v1/nights/``."""

from rest_framework.routers import SimpleRouter

from tournaments.api.nights import NightViewSet

router = SimpleRouter()
router.register("nights", NightViewSet, basename="night")

urlpatterns = router.urls
