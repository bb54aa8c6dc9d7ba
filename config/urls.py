from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from config.health import healthz, readyz
from config.observability import metrics
from core.api.routers import IdRouter
from league.api.views import (
    LeagueViewSet,
    PlayerViewSet,
    RulebookViewSet,
    SeasonViewSet,
    TeamViewSet,
)
from league.manage import urls as league_workspace
from league.manage.views import login_attempts_limited, public_nights_ical
from scoring.games.api.views import GameViewSet, RulebookPreviewView, SeasonRulesView
from scoring.standings.api.public import SeasonPlayerStatsView
from scoring.standings.api.race import SeasonRaceView
from scoring.standings.api.views import SeasonStandingRulesView, SeasonStandingsView
from scoring.standings.manage import urls as scoring_workspace
from tournaments.api import bracket_urls as bracket_api
from tournaments.api import night_urls as night_api
from tournaments.api.fairness import SeasonFairnessView
from tournaments.api.money import NightPotView, SeasonMoneyView
from tournaments.api.players import NightRsvpsView, PlayerRsvpView

router = IdRouter()
# Games first: a request is matched against the routes in order, and the hand POST is the
# busiest of them all (a router's prefixes do not overlap, so the order changes nothing else).
router.register("games", GameViewSet)
router.register("leagues", LeagueViewSet)
router.register("rulebooks", RulebookViewSet)
router.register("seasons", SeasonViewSet)
router.register("players", PlayerViewSet)
router.register("teams", TeamViewSet)
for prefix, viewset, basename in bracket_api.VIEWSETS + night_api.VIEWSETS:
    router.register(prefix, viewset, basename=basename)

urlpatterns = [
    path("api/v1/rulebooks/preview/", RulebookPreviewView.as_view(), name="rulebook-preview"),
    path(
        "api/v1/seasons/<int:pk>/standings/",
        SeasonStandingsView.as_view(),
        name="season-standings",
    ),
    path("api/v1/seasons/<int:pk>/rules/", SeasonRulesView.as_view(), name="season-rules"),
    path("api/v1/seasons/<int:pk>/race/", SeasonRaceView.as_view(), name="season-race"),
    path(
        "api/v1/seasons/<int:pk>/fairness/",
        SeasonFairnessView.as_view(),
        name="season-fairness",
    ),
    path("api/v1/seasons/<int:pk>/money/", SeasonMoneyView.as_view(), name="season-money-api"),
    path("api/v1/nights/<int:pk>/pot/", NightPotView.as_view(), name="night-pot-api"),
    path("api/v1/nights/<int:pk>/rsvps/", NightRsvpsView.as_view(), name="night-rsvps-api"),
    path("api/v1/me/<str:token>/rsvp/", PlayerRsvpView.as_view(), name="player-rsvp-api"),
    path(
        "api/v1/seasons/<int:pk>/standing-rules/",
        SeasonStandingRulesView.as_view(),
        name="season-standing-rules",
    ),
    path(
        "api/v1/seasons/<int:pk>/players/<int:player_id>/stats/",
        SeasonPlayerStatsView.as_view(),
        name="season-player-stats",
    ),
    path("api/v1/", include(router.urls)),
    path("api/v1/", include("tournaments.api.bracket_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path(
        "api/redoc/",
        # ReDoc styles itself with injected <style> tags and renders in a blob: worker: its page
        # alone allows those; scripts stay 'self' only.
        csp_update({"style-src": ["'unsafe-inline'"], "worker-src": ["'self'", "blob:"]})(
            SpectacularRedocView.as_view(url_name="schema")
        ),
        name="api-redoc",
    ),
    # The admin's sign-in, slowed down as the workspace's is (before the admin's own route).
    path("admin/login/", login_attempts_limited(admin.site.login)),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("metrics", metrics, name="metrics"),
    path("t/", include("scoring.games.captain.urls")),
    path(
        "manage/",
        include((league_workspace.urlpatterns + scoring_workspace.urlpatterns, "manage")),
    ),
    # Public, so a calendar app subscribes without signing in (the workspace's copy is not).
    path("seasons/<int:pk>/nights.ics", public_nights_ical, name="season-nights-ical"),
    path("", include("tournaments.urls")),
    path("", include("scoring.standings.public.urls")),
]

handler400 = "core.api.errors.bad_request"
handler404 = "core.api.errors.page_not_found"
handler500 = "core.api.errors.server_error"
