"""Pages of individual nights: the organiser's desk under ``/manage/nights/``, the players' page
and the printables under ``/nights/`` (see ``tournaments.views.nights``)."""

from django.urls import path

from tournaments.views import nights as views
from tournaments.views import players, tables

urlpatterns = [
    path("manage/nights/<int:pk>/", views.night_manage, name="night-manage"),
    path("manage/nights/<int:pk>/tables/", views.night_tables, name="night-tables"),
    path("manage/nights/<int:pk>/check-in/", views.night_check_in, name="night-check-in"),
    path("manage/nights/<int:pk>/check-out/", views.night_check_out, name="night-check-out"),
    path(
        "manage/nights/<int:pk>/check-in/roster/",
        views.night_check_in_roster,
        name="night-check-in-roster",
    ),
    path("manage/nights/<int:pk>/check-in/undo/", views.night_undo, name="night-check-in-undo"),
    path("manage/nights/<int:pk>/plan/", views.night_plan, name="night-plan"),
    path("manage/nights/<int:pk>/publish/", views.night_publish, name="night-publish"),
    path(
        "manage/nights/<int:pk>/rounds/<int:number>/start/",
        views.round_start,
        name="night-round-start",
    ),
    path(
        "manage/nights/<int:pk>/rounds/<int:number>/finish/",
        views.round_finish,
        name="night-round-finish",
    ),
    path(
        "manage/nights/<int:pk>/rounds/<int:number>/clock/",
        views.night_round_clock,
        name="night-round-clock",
    ),
    path("manage/nights/<int:pk>/tents/", views.print_tents, name="night-tents"),
    path(
        "manage/nights/<int:pk>/rounds/<int:number>/tents/",
        views.print_tents,
        name="night-tents-of-round",
    ),
    path("manage/nights/<int:pk>/repair/", views.night_repair, name="night-repair"),
    path("manage/nights/<int:pk>/finish/", views.night_finish, name="night-finish"),
    path("nights/<int:pk>/", views.night_public, name="night-public"),
    path("tables/<str:token>/", tables.table_card, name="table-card"),
    path("me/<str:token>/", players.player_page, name="player-link"),
    path("me/<str:token>/rsvp/", players.player_rsvp, name="player-rsvp"),
    path("nights/<int:pk>/door/<str:token>/", players.night_door, name="night-door"),
    path(
        "manage/nights/<int:pk>/check-in/live/",
        views.night_check_in_live,
        name="night-check-in-live",
    ),
    path(
        "manage/nights/<int:pk>/check-in/refuse/",
        views.night_self_check_in_refuse,
        name="night-self-check-in-refuse",
    ),
    path("nights/<int:pk>/print/chart/", views.print_chart, name="night-print-chart"),
    path("nights/<int:pk>/print/cards/", views.print_cards, name="night-print-cards"),
]
