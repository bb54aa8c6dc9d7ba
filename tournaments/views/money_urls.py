"""Pages of a season's money (see ``tournaments.views.money``)."""

from django.urls import path

from tournaments.views import money as views

urlpatterns = [
    path("manage/seasons/<int:pk>/money/", views.season_money, name="season-money"),
    path("manage/seasons/<int:pk>/money/ledger/", views.season_ledger, name="season-ledger"),
    path(
        "manage/seasons/<int:pk>/money/ledger.csv",
        views.season_ledger_csv,
        name="season-ledger-csv",
    ),
    path("manage/nights/<int:pk>/pot/", views.night_pot, name="night-pot"),
]
