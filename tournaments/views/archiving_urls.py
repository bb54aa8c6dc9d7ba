"""The workspace's archiving pages (``tournaments.views.archiving``)."""

from django.urls import path

from tournaments.views import archiving as views

urlpatterns = [
    path("manage/leagues/<int:pk>/archived/", views.archived, name="archived"),
    *(
        path(f"manage/{kind}s/<int:pk>/{verb}/", view, {"kind": kind}, name=f"{kind}-{verb}")
        for kind in ("season", "night", "bracket")
        for verb, view in (("archive", views.archive), ("restore", views.restore))
    ),
]
