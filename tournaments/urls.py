"""Pages of the tournaments app: brackets and nights (public and organiser)."""

from django.urls import include, path

urlpatterns = [
    path("", include("tournaments.views.bracket_urls")),
    path("", include("tournaments.views.night_urls")),
    path("", include("tournaments.views.fairness_urls")),
    path("", include("tournaments.views.archiving_urls")),
    path("", include("tournaments.views.money_urls")),
    path("", include("tournaments.views.wall_urls")),
    path("", include("tournaments.views.mail_urls")),
    path("", include("tournaments.views.clock_urls")),
]
