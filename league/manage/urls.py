"""The organiser's workspace under ``/manage/`` (see ``league.manage.views``).

``/manage/nights/<id>/`` (running a night) belongs to the tournaments app's night pages; it is
linked from the season's night list, not routed here. The pages about results (a season's games,
settling disputes, scoring rules, exports) are in ``scoring.standings.manage``; ``config/urls.py``
joins both under the ``manage`` namespace, so ``league`` never imports ``scoring``.
"""

from django.urls import path

from league.manage import views

app_name = "manage"
urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("", views.home, name="home"),
    path("tokens/", views.api_tokens, name="tokens"),
    path("tokens/<int:pk>/revoke/", views.api_token_revoke, name="token-revoke"),
    path("roster-template.csv", views.roster_template, name="roster-template"),
    path("leagues/new/", views.league_new, name="league-new"),
    path("leagues/<int:pk>/", views.league_detail, name="league"),
    path("leagues/<int:pk>/invite/", views.league_invite, name="league-invite"),
    path("invite/<str:token>/", views.invitation, name="invitation"),
    path("leagues/<int:pk>/seasons/new/", views.season_new, name="season-new"),
    path("leagues/<int:pk>/players/", views.roster, name="roster"),
    path("leagues/<int:pk>/players/import/", views.roster_import, name="roster-import"),
    path("leagues/<int:pk>/players/paste/", views.roster_paste, name="roster-paste"),
    path("players/<int:pk>/", views.player_edit, name="player-edit"),
    path("players/<int:pk>/deactivate/", views.player_deactivate, name="player-deactivate"),
    path("players/<int:pk>/emails/", views.player_email_consent, name="player-email-consent"),
    path("players/<int:pk>/emails/stop/", views.player_email_stop, name="player-email-stop"),
    path("players/<int:pk>/link/", views.player_link, name="player-link"),
    path("seasons/<int:pk>/teams/", views.teams, name="teams"),
    path("seasons/<int:pk>/teams/paste/", views.teams_paste, name="teams-paste"),
    path("seasons/<int:pk>/nights/", views.nights, name="nights"),
    path("seasons/<int:pk>/nights/series/", views.nights_recurring, name="nights-recurring"),
    path("seasons/<int:pk>/usual-rounds/", views.season_usual_rounds, name="usual-rounds"),
    path(
        "seasons/<int:pk>/partner-balance/",
        views.season_partner_balance,
        name="partner-balance",
    ),
    path("seasons/<int:pk>/audit/", views.audit_trail, name="audit"),
    path("seasons/<int:pk>/nights.ics", views.nights_ical, name="nights-ical"),
]
