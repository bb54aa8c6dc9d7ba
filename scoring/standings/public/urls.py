"""The public pages (no login): leagues, standings, nights, players, teams, projector."""

from django.urls import path

from scoring.standings.public import views

urlpatterns = [
    path("", views.league_list, name="public-leagues"),
    path("l/<slug:slug>/", views.league_home, name="public-league"),
    path("l/<slug:slug>/s/<int:season_id>/", views.season_standings, name="public-season"),
    path("l/<slug:slug>/s/<int:season_id>/projector/", views.projector, name="public-projector"),
    path(
        "l/<slug:slug>/s/<int:season_id>/nights/<int:night_id>/",
        views.night_results,
        name="public-night",
    ),
    path(
        "l/<slug:slug>/s/<int:season_id>/teams/<int:team_id>/",
        views.team_page,
        name="public-team",
    ),
    path("l/<slug:slug>/players/<int:player_id>/", views.player_page, name="public-player"),
]
