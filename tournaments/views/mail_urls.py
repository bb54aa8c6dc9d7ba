"""The addresses of the emails' public pages (see ``tournaments.views.mail``)."""

from django.urls import path

from tournaments.views import mail

urlpatterns = [
    path("l/<slug:slug>/players/<int:player_id>/emails/", mail.email_signup, name="email-signup"),
    path("emails/confirm/<str:token>/", mail.email_confirm, name="email-confirm"),
    path("emails/unsubscribe/<str:token>/", mail.email_unsubscribe, name="email-unsubscribe"),
]
