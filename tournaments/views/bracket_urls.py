"""Bracket pages: public at ``/brackets/<id>/``, the organiser's under ``/manage/brackets/``; a
team season's schedule at ``/seasons/<id>/schedule/`` and ``/manage/seasons/<id>/schedule/``."""

from django.urls import path

from tournaments.views import brackets as views

app_name = "brackets"
urlpatterns = [
    path("brackets/<int:pk>/", views.bracket_page, name="page"),
    path("manage/brackets/", views.manage_brackets, name="manage-list"),
    path("manage/brackets/new/", views.manage_bracket_new, name="manage-new"),
    path("manage/brackets/<int:pk>/", views.manage_bracket, name="manage-detail"),
    path("manage/brackets/<int:pk>/publish/", views.manage_bracket_publish, name="manage-publish"),
    path("manage/brackets/<int:pk>/correct/", views.manage_bracket_correct, name="manage-correct"),
    path(
        "manage/brackets/<int:pk>/withdraw/", views.manage_bracket_withdraw, name="manage-withdraw"
    ),
    path("seasons/<int:pk>/schedule/", views.season_schedule_page, name="schedule"),
    path(
        "manage/seasons/<int:pk>/schedule/",
        views.manage_season_schedule,
        name="manage-schedule",
    ),
]
