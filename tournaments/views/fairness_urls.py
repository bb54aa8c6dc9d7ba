"""Pages of a season's fairness report (see ``tournaments.views.fairness``)."""

from django.urls import path

from tournaments.views import fairness as views

urlpatterns = [
    path("manage/seasons/<int:pk>/fairness/", views.fairness_manage, name="season-fairness-manage"),
    path(
        "l/<slug:slug>/s/<int:season_id>/fairness/",
        views.fairness_public,
        name="season-fairness-public",
    ),
]
