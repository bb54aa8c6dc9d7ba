"""Round clocks on the pages (words: :mod:`tournaments.domain.clock`).

- ``/clock/?night=<id>&round=<n>`` (or ``bracket=<id>&round=<n>``, or ``night=<id>`` alone: the
  night's current clock): the clock partial, read now, public as the night and bracket pages are.
  ``static/js/round-clock.js`` asks it again every few seconds, so every display follows a start,
  an extension or a stop, and re-syncs to the server's time.
- ``/l/<league>/s/<season>/wall/clock/``: the wall's clock (its night's, else its bracket's).
- ``clock_action``: the organiser's start / +minutes / call time, posted from the night desk
  (``tournaments.views.nights.night_round_clock``) and a bracket's page; one service each.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from core.errors import DomainError, NotFoundError
from league.access import is_league_organiser
from league.forms import whole_number
from league.models import Season
from scoring.standings import selectors as standings_selectors
from scoring.standings.public.views import public
from tournaments.selectors.brackets import bracket_for_viewer
from tournaments.selectors.clocks import ClockView, current_clock
from tournaments.selectors.nav import season_published_brackets
from tournaments.services import clocks as services
from tournaments.services.nights import night_get
from tournaments.services.wall import wall_night

PARTIAL = "includes/round_clock.html"


def clock_context(view: ClockView) -> dict:
    """The partial's context: the clock read now, and the address that reads it again."""
    url = f"{reverse('round-clock')}?{urlencode(view.source)}" if view.source else ""
    return {"view": view, "source_url": url, "pending": False}


def wall_clock_context(*, season: Season) -> dict:
    """The wall's slot: no reading (the wall's page is cached), only where to read it."""
    url = reverse("public-wall-clock", args=[season.league.slug, season.pk])
    return {"view": None, "source_url": url, "pending": True}


def _answer(request, context: dict) -> HttpResponse:
    response = render(request, PARTIAL, context)
    response["X-Robots-Tag"] = "noindex"
    return response


def _id(request, name: str) -> int | None:
    value = request.GET.get(name, "")
    if not value:
        return None
    number = whole_number(value)
    if number is None or number < 1:
        raise Http404(f"{name} must be a number")
    return number


@never_cache
@require_GET
def round_clock(request):
    night_id, bracket_id, number = (
        _id(request, "night"),
        _id(request, "bracket"),
        _id(request, "round"),
    )
    try:
        if night_id is not None and bracket_id is None:
            night = night_get(pk=night_id)
            view = current_clock(night=night, round_number=number)
        elif bracket_id is not None and night_id is None:
            bracket = bracket_for_viewer(user=request.user, pk=bracket_id)
            view = current_clock(bracket=bracket, round_number=number)
        else:
            raise Http404("say which night or bracket")
    except NotFoundError as error:
        raise Http404(error.message) from error
    return _answer(request, clock_context(view))


@never_cache
@public
def wall_clock(request, slug: str, season_id: int):
    league = standings_selectors.league_public_get(slug=slug)
    season = standings_selectors.season_public_get(league=league, season_id=season_id)
    night = wall_night(season=season)
    if night is not None:
        view = current_clock(night=night)
    else:
        brackets = season_published_brackets(season=season)
        view = current_clock(bracket=brackets[-1]) if brackets else current_clock()
    context = clock_context(view)
    context["source_url"] = request.path  # the wall keeps following its own choice
    return _answer(request, context)


def _minutes(data, name: str, *, missing: str = "") -> int | None:
    """A whole number of minutes from the form; empty: ``None``, or ``missing`` said."""
    value = (data.get(name) or "").strip()
    if not value:
        if missing:
            raise DomainError(missing, field=name)
        return None
    number = whole_number(value)
    if number is None:
        raise DomainError(f"{value!r} is not a whole number of minutes", field=name)
    return number


INCOMPLETE = "The form was incomplete; reload the page."


def clock_action(data, *, user, round_number: int, night=None, bracket=None) -> str:
    """Parse the organiser's clock form (``action``: start, extend or stop), call its service,
    and say what happened (a ``DomainError`` says why not)."""
    owner = {"night": night, "bracket": bracket, "round_number": round_number, "user": user}
    words = f"round {round_number}"
    action = data.get("action", "")
    if action == "start":
        change = services.round_clock_start(minutes=_minutes(data, "minutes"), **owner)
        if not change.changed:
            return f"The clock of {words} was already running."
        return f"The clock of {words} is running: {change.clock.minutes} minutes."
    if action == "extend":
        change = services.round_clock_extend(
            minutes=_minutes(data, "minutes", missing="Say how many minutes to add."),
            from_minutes=_minutes(data, "from_minutes", missing=INCOMPLETE),
            **owner,
        )
        already = "" if change.changed else "already "
        return f"{words.capitalize()} {already}lasts {change.clock.minutes} minutes."
    if action == "stop":
        change = services.round_clock_stop(**owner)
        return f"Time called on {words}." if change.changed else f"Time is already up in {words}."
    raise DomainError("choose start, extend or stop", field="action")


@login_required
@require_POST
def bracket_round_clock(request, pk: int, number: int):
    """The clock of a bracket's round, from the bracket's page (organisers of its league)."""
    try:
        bracket = bracket_for_viewer(user=request.user, pk=pk)
    except NotFoundError as error:
        raise Http404(error.message) from error
    if not is_league_organiser(user=request.user, league_id=bracket.season.league_id):
        raise PermissionDenied("only an organiser of this league may run its clocks")
    try:
        done = clock_action(request.POST, user=request.user, round_number=number, bracket=bracket)
    except DomainError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done)
    return HttpResponseRedirect(reverse("brackets:manage-detail", args=[bracket.pk]), status=303)
