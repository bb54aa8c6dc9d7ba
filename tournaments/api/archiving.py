"""API of archiving: ``POST /api/v1/{seasons,nights,brackets}/{id}/archive/`` and ``…/restore/``.

Nothing is deleted through the API: archiving takes a season, a night or a bracket out of every
list, public page and standings (its rows are kept), and restoring brings it back exactly
(:mod:`tournaments.services.archiving`). Both are for the organisers of the row's league (403 for
anyone else, 404 for no such row), audited, and a 409 when already done. An organiser lists what
is archived with ``?archived=true`` on the lists.
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from league.api.serializers import ArchiveSerializer, SeasonSerializer
from league.api.views import parse
from league.models import Season
from tournaments.api.brackets import BracketSerializer, bracket_data
from tournaments.api.nights import NightSerializer
from tournaments.services.archiving import (
    archivable_archive,
    archivable_for_organiser,
    archivable_restore,
)


def _season(row) -> dict:
    return SeasonSerializer(Season.objects.select_related("rulebook").get(pk=row.pk)).data


def _night(row) -> dict:
    return NightSerializer(row).data


def _bracket(row) -> dict:
    return BracketSerializer(bracket_data(row)).data


RENDERED = {
    "season": (SeasonSerializer, _season),
    "night": (NightSerializer, _night),
    "bracket": (BracketSerializer, _bracket),
}


def _view(kind: str, verb: str) -> type[APIView]:
    serializer, render = RENDERED[kind]
    service = archivable_archive if verb == "archive" else archivable_restore
    done = "archived already" if verb == "archive" else "not archived"
    summary = (
        f"Archive a {kind}: out of every list, page and standings; nothing is deleted"
        if verb == "archive"
        else f"Restore an archived {kind} exactly as it was"
    )

    class View(APIView):
        @extend_schema(
            request=ArchiveSerializer,
            responses={200: serializer, 409: OpenApiResponse(description=f"the {kind} is {done}")},
            operation_id=f"{kind}s_{verb}",
            tags=[f"{kind}s"],
            summary=summary,
        )
        def post(self, request, pk: int):
            row = archivable_for_organiser(user=request.user, kind=kind, pk=pk)
            reason = parse(ArchiveSerializer, request)["reason"]
            service(row=row, user=request.user, reason=reason)
            return Response(render(row))

    View.__name__ = View.__qualname__ = f"{kind.title()}{verb.title()}View"
    return View


urlpatterns = [
    path(f"{kind}s/<int:pk>/{verb}/", _view(kind, verb).as_view(), name=f"api-{kind}-{verb}")
    for kind in RENDERED
    for verb in ("archive", "restore")
]
