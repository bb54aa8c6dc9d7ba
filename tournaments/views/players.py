"""Players' own pages on their own phones, no account.

- ``/me/<token>/``: a player's own link (their QR code is on their score card): tonight's table,
  seat, partner and opponents now and next, the live score of their game (the live part polls
  itself with htmx every few seconds), their night so far; after the night, its report (every
  hand); between nights, the next night with "I'm coming" / "I can't". Opening it leaves a signed
  cookie on the phone, so the night's door page knows whose phone it is.
- ``/nights/<id>/door/<token>/``: the night's door link (its QR code at the door and on the table
  tents): a player taps their name (or, recognised by their own link's cookie, "Check me in") and
  is checked in by the desk's own check-in, audited as ``self``. The phone keeps a random cookie,
  so an organiser who turns a door check-in down turns that phone away for the night too.

A wrong token is a guess at a secret, counted with the wrong captain links
(``scoring.games.access.captain_guess_refused``): 404, or 429 past the limits. The POSTs are limited
per address and phone (``league.access.public_post_wait``).
"""

from __future__ import annotations

import hashlib
import secrets

from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.errors import DomainError, NotFoundError
from league import services as league_services
from league.access import player_for_link, public_post_wait
from league.forms import form_id
from league.models import Night, Player
from league.selectors import player_next_night
from scoring.games.access import captain_guess_refused
from tournaments.services import nights as night_services
from tournaments.services.player_night import player_last_night, player_night, player_tonight

PLAYER_COOKIE = "player-{league}"
"""The signed cookie a player's own link leaves on their phone (its value: the link's token)."""
DEVICE_COOKIE = "door-phone"
"""The signed random cookie that tells one phone from another at the door."""
COOKIE_SALT = "tournaments.views.players"
COOKIE_AGE = 60 * 60 * 24 * 365
POLL = "every 5s"
"""How often the live part of a player's page asks again during a night (as the table card)."""


def _not_known(request, token: str, what: str):
    wait = captain_guess_refused(request, token=token)
    response = render(
        request,
        "players/not_known.html",
        {"too_many": wait is not None, "wait": wait, "what": what},
        status=404 if wait is None else 429,
    )
    if wait is not None:
        response["Retry-After"] = str(wait)
    response["X-Robots-Tag"] = "noindex"
    return response


def _too_many(request, wait: int, template: str, context: dict):
    response = render(request, template, {**context, "wait": wait, "too_many": True}, status=429)
    response["Retry-After"] = str(wait)
    return response


def _set_cookie(request, response, name: str, value: str) -> None:
    response.set_signed_cookie(
        name,
        value,
        salt=COOKIE_SALT,
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )


# --- a player's own page ----------------------------------------------------------------------


def _player_context(player: Player) -> dict:
    tonight = player_tonight(player=player, today=timezone.localdate())
    mine = player_night(night=tonight, player=player) if tonight is not None else None
    last = None
    if tonight is None or tonight.status == Night.Status.CHECK_IN:
        finished = player_last_night(player=player)
        if finished is not None:
            last = player_night(night=finished, player=player, with_hands=True)
    upcoming = player_next_night(player=player)
    if upcoming is not None and tonight is not None and upcoming.pk == tonight.pk:
        upcoming = None if mine.is_here else upcoming
    answer = ""
    if upcoming is not None:
        answer = upcoming.rsvps.filter(player=player).values_list("answer", flat=True).first()
    return {
        "player": player,
        "league": player.league,
        "tonight": mine,
        "last": last,
        "upcoming": upcoming,
        "answer": answer or "",
        "poll": POLL if tonight is not None else "",
    }


@never_cache
@require_GET
def player_page(request, token: str):
    try:
        player = player_for_link(token=token)
    except NotFoundError:
        return _not_known(request, token, "player")
    context = _player_context(player)
    if request.headers.get("HX-Request") == "true":
        response = render(request, "players/_live.html", context)
        if context["tonight"] is None:  # the night is over: the whole page shows its report
            response["HX-Refresh"] = "true"
    else:
        response = render(request, "players/page.html", context)
        _set_cookie(request, response, PLAYER_COOKIE.format(league=player.league_id), token)
    patch_vary_headers(response, ["HX-Request"])
    response["X-Robots-Tag"] = "noindex"
    return response


@never_cache
@require_POST
def player_rsvp(request, token: str):
    """ "I'm coming" / "I can't" for a night (the form names it): answered again, it changes."""
    try:
        player = player_for_link(token=token)
    except NotFoundError:
        return _not_known(request, token, "player")
    wait = public_post_wait(request, key=f"rsvp {token}")
    if wait is not None:
        return _too_many(request, wait, "players/not_known.html", {"what": "player"})
    night = Night.objects.not_archived().filter(pk=form_id(request.POST.get("night"))).first()
    message, is_error = "", False
    try:
        if night is None:
            raise DomainError("that night is not known")
        rsvp = league_services.rsvp_set(
            player=player, night=night, answer=request.POST.get("answer", "")
        )
    except DomainError as error:
        message, is_error = error.message, True
    else:
        message = (
            f"Thanks: you're down as coming on {night.date:%A %-d %B}."
            if rsvp.answer == rsvp.Answer.COMING
            else f"Thanks: you're down as not coming on {night.date:%A %-d %B}."
        )
    if request.headers.get("HX-Request") == "true":
        context = {**_player_context(player), "message": message, "is_error": is_error}
        return render(request, "players/_rsvp.html", context)
    url = reverse("player-link", args=[token])
    response = HttpResponseRedirect(url + "#next-night", status=303)
    return response


# --- the night's door -------------------------------------------------------------------------


def _device(request) -> tuple[str, str]:
    """The phone's door cookie (made now when it has none) and its digest (what is stored)."""
    value = request.get_signed_cookie(DEVICE_COOKIE, default="", salt=COOKIE_SALT)
    if not value:
        value = secrets.token_urlsafe(16)
    return value, hashlib.sha256(value.encode()).hexdigest()[:32]


def _recognised(request, night: Night) -> Player | None:
    """The player whose own link this phone opened (its signed cookie), if on the roster."""
    cookie = PLAYER_COOKIE.format(league=night.season.league_id)
    token = request.get_signed_cookie(cookie, default="", salt=COOKIE_SALT)
    if not token:
        return None
    try:
        return player_for_link(token=token)
    except NotFoundError:
        return None


def _door_context(request, night: Night, query: str) -> dict:
    rows = night_services.night_check_in_rows(night=night)
    folded = query.casefold()
    shown = [row for row in rows if folded in row.player.name.casefold()] if query else rows
    return {
        "night": night,
        "closed": night_services.night_door_closed(night=night),
        "me": _recognised(request, night),
        "rows": shown,
        "query": query,
        "count": len(rows),
    }


@never_cache
@require_http_methods(["GET", "POST"])
def night_door(request, pk: int, token: str):
    try:
        night = night_services.night_for_door(pk=pk, token=token)
    except NotFoundError:
        return _not_known(request, token, "door")
    device, digest = _device(request)
    query = " ".join(request.GET.get("name", "").split())[:120]
    done, message, status = None, "", 200
    if request.method == "POST":
        wait = public_post_wait(request, key=f"door {digest}")
        if wait is not None:
            return _too_many(request, wait, "players/door.html", _door_context(request, night, ""))
        player_id = form_id(request.POST.get("player"))
        player = Player.objects.filter(pk=player_id, league_id=night.season.league_id).first()
        try:
            if player is None:
                raise DomainError("that name is not on this night's roster")
            checked_now = night_services.night_self_check_in(
                night=night, player=player, device=digest
            )
        except DomainError as error:
            message, status = (
                error.message,
                409 if error.code in ("refused", "door_closed") else 400,
            )
        else:
            done = player
            message = (
                f"You're checked in, {player.name}. Welcome!"
                if checked_now
                else f"{player.name}, you're already checked in."
            )
    context = {**_door_context(request, night, query), "done": done, "message": message}
    response = render(request, "players/door.html", context, status=status)
    _set_cookie(request, response, DEVICE_COOKIE, device)
    response["X-Robots-Tag"] = "noindex"
    return response
