"""A season's fairness report as pages (words: :mod:`tournaments.domain.fairness`).

- ``/manage/seasons/<id>/fairness/``: the organiser's copy (login, organiser of the league),
  with the form that shows or hides it on the public side (a POST, no JavaScript needed).
- ``/l/<league>/s/<season>/fairness/``: the public copy, only while the organiser shows it
  (404 otherwise, as for a season that does not exist).

Views parse the request, call one selector or service (``tournaments.selectors.fairness``,
``tournaments.services.fairness``) and render.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from core.errors import AccessDeniedError, DomainError, NotFoundError
from tournaments.selectors import fairness as selectors
from tournaments.services.fairness import season_fairness_publish

PAIRS_SHOWN = 20
"""The most pairs each of the page's pair tables lists (the API gives every pair)."""


def _page_context(season) -> dict:
    data = selectors.fairness_data(selectors.season_fairness_get(season=season))
    by_name = sorted(data["players"], key=lambda line: (line["name"].lower(), line["id"]))
    partnered = [pair for pair in data["pairs"] if pair["partnered"] >= 2][:PAIRS_SHOWN]
    opposed = sorted(
        (pair for pair in data["pairs"] if pair["opposed"] >= 2),
        key=lambda pair: (-pair["opposed"], pair["first"], pair["second"]),
    )[:PAIRS_SHOWN]
    carlo = data["monte_carlo"]
    return {
        "season": season,
        "league": season.league,
        "report": data,
        "players": by_name,
        "repeated_partners": partnered,
        "repeated_opponents": opposed,
        "chances": carlo["chances"][:5],
        "carlo": carlo,
        "runs_text": f"{carlo['runs']:,}",
        "strongest_percent": (
            None
            if carlo["strongest_first_chance"] is None
            else round(100 * carlo["strongest_first_chance"])
        ),
    }


@login_required
@require_http_methods(["GET", "POST"])
def fairness_manage(request, pk: int):
    try:
        season = selectors.season_fairness_for_organiser(user=request.user, pk=pk)
    except NotFoundError as error:
        raise Http404(error.message) from error
    except AccessDeniedError as error:
        raise PermissionDenied(error.message) from error
    if request.method == "POST":
        is_public = request.POST.get("fairness_public") == "on"
        try:
            changed = season_fairness_publish(season=season, is_public=is_public, user=request.user)
        except DomainError as error:
            messages.error(request, error.message)
        else:
            if changed:
                messages.success(
                    request,
                    "The report is now on the public page."
                    if is_public
                    else "The report is now for organisers only.",
                )
        return HttpResponseRedirect(reverse("season-fairness-manage", args=[season.pk]), status=303)
    return render(request, "fairness/manage.html", _page_context(season))


@require_GET
def fairness_public(request, slug: str, season_id: int):
    try:
        season = selectors.season_fairness_public(slug=slug, season_id=season_id)
    except NotFoundError as error:
        raise Http404(error.message) from error
    return render(request, "fairness/public.html", _page_context(season))
