"""API routes for brackets, included under ``/api/v1/``."""

from rest_framework.routers import SimpleRouter

from tournaments.api.brackets import BracketViewSet

router = SimpleRouter()
router.register("brackets", BracketViewSet, basename="bracket")

urlpatterns = router.urls
