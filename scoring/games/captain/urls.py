"""The table captain's pages, under ``/t/`` (see ``scoring.games.captain.views``)."""

from django.urls import path

from scoring.games.captain import views

app_name = "captain"
urlpatterns = [
    path("sw.js", views.service_worker, name="service-worker"),
    path("<str:token>/", views.card, name="card"),
    path("<str:token>/manifest.webmanifest", views.manifest, name="manifest"),
    path("<str:token>/hands/", views.hand_record, name="hand-record"),
    path("<str:token>/hands/undo/", views.hand_undo, name="hand-undo"),
    path("<str:token>/hands/<int:number>/correct/", views.hand_correct, name="hand-correct"),
    path("<str:token>/confirm/", views.game_confirm, name="confirm"),
    path("<str:token>/dispute/", views.game_dispute, name="dispute"),
    path("<str:token>/qr.svg", views.qr_code, name="qr"),
]
