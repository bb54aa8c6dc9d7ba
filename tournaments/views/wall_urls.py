"""The wall's address (see ``tournaments.views.wall``); the projector's old one leads here."""

from django.urls import path

from tournaments.views import wall

urlpatterns = [
    path("l/<slug:slug>/s/<int:season_id>/wall/", wall.wall_page, name="public-wall"),
]
