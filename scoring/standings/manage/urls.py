"""Workspace routes of the scoring app, joined to the ``manage`` namespace in ``config/urls.py``."""

from django.urls import path

from scoring.standings.manage import views

urlpatterns = [
    path("seasons/<int:pk>/", views.season_dashboard, name="season"),
    path("seasons/<int:pk>/rules/", views.season_rules, name="season-rules"),
    path("seasons/<int:pk>/playoffs/", views.season_playoffs, name="season-playoffs"),
    path("seasons/<int:pk>/standings.csv", views.export_standings, name="export-standings"),
    path("seasons/<int:pk>/games.csv", views.export_games, name="export-games"),
    path("seasons/<int:pk>/hands.csv", views.export_hands, name="export-hands"),
    path("games/<int:pk>/settle/", views.game_settle, name="game-settle"),
]
