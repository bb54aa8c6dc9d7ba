"""Round clocks' addresses (see ``tournaments.views.clocks``)."""

from django.urls import path

from tournaments.views import clocks

urlpatterns = [
    path("clock/", clocks.round_clock, name="round-clock"),
    path(
        "l/<slug:slug>/s/<int:season_id>/wall/clock/", clocks.wall_clock, name="public-wall-clock"
    ),
    path(
        "manage/brackets/<int:pk>/rounds/<int:number>/clock/",
        clocks.bracket_round_clock,
        name="bracket-round-clock",
    ),
]
