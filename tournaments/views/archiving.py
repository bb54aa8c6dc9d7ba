"""The workspace's archiving pages: archive a season, a night or a bracket (a POST from the
league page, the season's nights or the brackets list), undo it from the flash message that
follows, and the league's "Archived" list with a restore button for each.

Every form posts and works without JavaScript; the flash's Undo button is a form too. The rules
and the audit are :mod:`tournaments.services.archiving`'s; access is its door's (403 for
another league's organiser, 404 for no such row).
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from core.errors import DomainError
from league import access
from league.manage.views import workspace
from league.models import Night, Season
from tournaments.services.archiving import (
    archivable_archive,
    archivable_for_organiser,
    archivable_restore,
    archived_list,
)


def _label(row) -> str:
    if isinstance(row, Season):
        return f"Season {row.name}"
    if isinstance(row, Night):
        return f"Night of {row.date:%a %-d %b %Y}"
    return f"Bracket {row.name}"


def _back(row) -> str:
    """Where the row's archive button is: the league page, the season's nights, the brackets."""
    if isinstance(row, Season):
        return reverse("manage:league", args=[row.league_id])
    if isinstance(row, Night):
        return reverse("manage:nights", args=[row.season_id])
    return reverse("brackets:manage-list")


def _next(request, default: str) -> str:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


@workspace
@require_POST
def archive(request, pk: int, kind: str):
    row = archivable_for_organiser(user=request.user, kind=kind, pk=pk)
    try:
        archivable_archive(row=row, user=request.user)
    except DomainError as error:
        messages.error(request, error.message)
    else:
        undo = reverse(f"{kind}-restore", args=[row.pk])
        messages.success(
            request, f"{_label(row)} archived: nothing was deleted.", extra_tags=f"undo:{undo}"
        )
    return redirect(_back(row))


@workspace
@require_POST
def restore(request, pk: int, kind: str):
    row = archivable_for_organiser(user=request.user, kind=kind, pk=pk)
    try:
        archivable_restore(row=row, user=request.user)
    except DomainError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"{_label(row)} restored, as it was.")
    return redirect(_next(request, _back(row)))


@workspace
def archived(request, pk: int):
    league = access.league_for_organiser(user=request.user, pk=pk)
    context = {"league": league, "archived": archived_list(league=league)}
    return render(request, "manage/archived.html", context)
