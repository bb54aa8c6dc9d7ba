"""The table captain's pages at ``/t/<token>/``: parse the taps, call one service, render.

Every view goes through :func:`captain_door`, the one way in: it finds the game by its captain
token (``scoring.games.access.game_for_captain``), answers a wrong or revoked token with a friendly
404 page, or with a 429 page and ``Retry-After`` once wrong tokens from this address (or beginning
like this one) are over their limit (``scoring.games.access.captain_guess_refused``; a valid token
is never refused), and marks every answer ``noindex`` and uncacheable, since the token in the
address is the key to the game.

The forms work as plain posts (redirect-after-post back to the score card with a message). With
``captain.js`` they are posted by ``fetch`` with the ``HX-Request`` header and the answer is the
score-card partial, which the script swaps in; so the server speaks htmx's protocol.

No CSRF token: these views use no cookie or session to decide who may write. Whoever holds the
token may score the game, and a cross-site page cannot know the token, so a forged request has
nothing to ride on. Leaving it out also spares captains on phones that drop cookies a 403.
"""

from __future__ import annotations

import io
from contextlib import nullcontext
from functools import cache, wraps
from pathlib import Path

import segno
from django.contrib import messages
from django.contrib.staticfiles import finders
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.errors import ConflictError, DomainError, NotFoundError
from scoring.games import services
from scoring.games.access import captain_guess_refused, game_for_captain
from scoring.games.captain.card import card_context, hand_label
from scoring.games.captain.forms import (
    CorrectionForm,
    DisputeForm,
    HandForm,
    UndoForm,
    form_values,
    hand_values,
)
from scoring.games.models import Game, Hand
from scoring.games.selectors import game_counting_hands, one_moment
from scoring.games.services.game_state import STATE_FIELDS

ROBOTS = "noindex, nofollow"


def _private(response: HttpResponse) -> HttpResponse:
    response["X-Robots-Tag"] = ROBOTS
    add_never_cache_headers(response)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _link_problem(request, *, message: str = "", wait: int | None = None) -> HttpResponse:
    """The friendly page of a link that opens no game: 404, or 429 (with ``Retry-After``) once
    ``wait`` says wrong links must wait."""
    context = {"too_many": wait is not None, "message": message, "wait": wait}
    status = 404 if wait is None else 429
    response = render(request, "captain/invalid_link.html", context, status=status)
    if wait is not None:
        response["Retry-After"] = str(wait)
    return response


def captain_door(view):
    """Resolve ``token`` to its game (or a friendly 404 / 429 page) and mark the answer private.
    Whether a wrong token must wait is decided after it was looked up: a valid one never waits."""

    @wraps(view)
    def wrapper(request, token: str, *args, **kwargs):
        # A page is read at one moment (the game's row and its hands agree); a write takes its
        # own transaction and shows the card it leaves from a fresh read (``_fresh``).
        reading = one_moment() if request.method in ("GET", "HEAD") else nullcontext()
        with reading:
            try:
                game = game_for_captain(token=token)
            except NotFoundError as error:
                wait = captain_guess_refused(request, token=token)
                return _private(_link_problem(request, message=error.message, wait=wait))
            return _private(view(request, game, *args, **kwargs))

    return wrapper


def _card_url(game: Game) -> str:
    return reverse("captain:card", args=[game.captain_token])


def _reload(game: Game) -> Game:
    """The game as a write left it: its state read again (the columns a write sets,
    ``STATE_FIELDS``); its season, teams and players are as this request read them."""
    game.refresh_from_db(fields=STATE_FIELDS)
    return game


def _fresh(request, game: Game, **context) -> HttpResponse:
    """The card as a write left it: the game and its hands read again, at one moment."""
    with one_moment():
        return _show(request, _reload(game), **context)


def _show(request, game: Game, *, status: int = 200, **context) -> HttpResponse:
    """The score card: the partial for a script's request, else the full page."""
    template = "captain/_card.html" if request.htmx else "captain/page.html"
    return render(request, template, card_context(game, **context), status=status)


def _done(request, game: Game, message: str) -> HttpResponse:
    """A write went through: the fresh card (script), or redirect-after-post with a message."""
    if request.htmx:
        return _fresh(request, game, flash=[("ok", message)])
    messages.success(request, message)
    return HttpResponseRedirect(_card_url(game), status=303)


def _refused(request, game: Game, error: DomainError | str, *, status: int, **context):
    """A write was refused: the card again with the reason (nothing was written)."""
    message = error.message if isinstance(error, DomainError) else error
    return _fresh(request, game, status=status, flash=[("error", message)], **context)


def _status_of(error: DomainError) -> int:
    return 409 if isinstance(error, ConflictError) else 400


@require_GET
@captain_door
def card(request, game: Game):
    flash = [
        ("error" if message.level >= messages.ERROR else "ok", str(message))
        for message in messages.get_messages(request)
    ]
    return _show(request, game, flash=flash)


@csrf_exempt
@require_POST
@captain_door
def hand_record(request, game: Game):
    form = HandForm(request.POST, game=game)
    if not form.is_valid():
        return _refused(
            request,
            game,
            form.first_error(),
            status=400,
            values=form_values(form),
            client_key=request.POST.get("key") or None,
        )
    try:
        result = services.hand_record(
            game=game,
            data=form.hand_input,
            client_key=form.cleaned_data["key"],
            expected_number=form.cleaned_data["number"],
            source=Hand.Source.CAPTAIN,
        )
    except ConflictError as error:
        return _refused(request, game, error, status=409)
    except DomainError as error:
        return _refused(
            request,
            game,
            error,
            status=400,
            values=form_values(form),
            client_key=form.cleaned_data["key"],
        )
    label = hand_label(result.hand)
    if not result.created:
        label = f"{label} (it was already recorded)"
    return _done(request, game, label)


@csrf_exempt
@require_POST
@captain_door
def hand_undo(request, game: Game):
    form = UndoForm(request.POST)
    if not form.is_valid():
        return _refused(request, game, "Say which hand to undo; reload the page.", status=400)
    try:
        result = services.hand_undo(
            game=game, number=form.cleaned_data["number"], source=Hand.Source.CAPTAIN
        )
    except DomainError as error:
        return _refused(request, game, error, status=_status_of(error))
    return _done(request, game, result.summary)


@csrf_exempt
@require_http_methods(["GET", "POST"])
@captain_door
def hand_correct(request, game: Game, number: int):
    hand = next((h for h in game_counting_hands(game=game) if h.number == number), None)
    if hand is None:
        return _refused(request, game, f"There is no hand {number} to correct.", status=404)
    context = {"game": game, "token": game.captain_token, "hand": hand, "label": ""}
    context["label"] = hand_label(hand)
    if request.method == "GET":
        return render(request, "captain/correct.html", {**context, **_correct_choices(game, hand)})
    form = CorrectionForm(request.POST, game=game)
    error = None if form.is_valid() else form.first_error()
    if error is None:
        try:
            result = services.hand_correct(
                game=game,
                number=number,
                data=form.hand_input,
                reason=form.cleaned_data["reason"],
                source=Hand.Source.CAPTAIN,
            )
        except DomainError as refused:
            error = refused.message
        else:
            return _done(request, game, result.summary)
    choices = _correct_choices(game, hand, values=form_values(form))
    return render(
        request, "captain/correct.html", {**context, **choices, "error": error}, status=400
    )


def _correct_choices(game: Game, hand: Hand, values: dict | None = None) -> dict:
    card = card_context(game)
    return {
        "seats": card["seats"],
        "sides": card["sides"],
        "tricks": card["tricks"],
        "allows_lone_defender": card["allows_lone_defender"],
        "lone_defender_only_against_loner": card["lone_defender_only_against_loner"],
        "allows_thrown_in": card["allows_thrown_in"] or hand.thrown_in,
        "allows_no_tricks": card["allows_no_tricks"],
        "is_timed": card["is_timed"] or hand.time_called,
        "dealer_seat": hand.dealer_seat,
        "values": values if values is not None else hand_values(hand),
    }


@csrf_exempt
@require_POST
@captain_door
def game_confirm(request, game: Game):
    try:
        game = services.game_confirm(game=game)
    except DomainError as error:
        return _refused(request, game, error, status=_status_of(error))
    return _done(request, game, "Final score confirmed. Thank you!")


@csrf_exempt
@require_POST
@captain_door
def game_dispute(request, game: Game):
    form = DisputeForm(request.POST)
    if not form.is_valid():
        return _refused(request, game, form.errors["reason"][0], status=400)
    try:
        game = services.game_dispute(game=game, reason=form.cleaned_data["reason"])
    except DomainError as error:
        return _refused(request, game, error, status=_status_of(error))
    return _done(request, game, "Dispute sent: an organiser will settle the score.")


@require_GET
@captain_door
def qr_code(request, game: Game):
    """The game's link as a QR code (SVG), made here: no request to another host."""
    link = request.build_absolute_uri(_card_url(game))
    buffer = io.BytesIO()
    segno.make(link, error="m").save(
        buffer, kind="svg", scale=8, border=4, title="Score-card link for this table"
    )
    return HttpResponse(buffer.getvalue(), content_type="image/svg+xml")


SERVICE_WORKER = "js/captain-sw.js"


@cache
def _service_worker_source() -> bytes:
    path = finders.find(SERVICE_WORKER)
    if path is None:  # pragma: no cover - the file is part of the source tree
        raise ImproperlyConfigured(f"static file {SERVICE_WORKER} not found")
    return Path(path).read_bytes()


@require_GET
def service_worker(request):
    """The captain's service worker (``static/js/captain-sw.js``), served from ``/t/`` so that
    its scope covers every score card: a worker's scope is the folder it is served from."""
    response = HttpResponse(_service_worker_source(), content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/t/"
    response["Cache-Control"] = "no-cache"  # a new version is picked up at the next visit
    return response


@require_GET
@captain_door
def manifest(request, game: Game):
    """This score card as an installable web app: it opens on this game's card."""
    card_url = _card_url(game)
    icon = static("img/captain-icon.svg")
    data = {
        "name": f"Score card: {game.side_name('A')} v {game.side_name('B')}",
        "short_name": "Score card",
        "start_url": card_url,
        "scope": card_url,
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1b1b1b",
        "icons": [
            {"src": icon, "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
            {"src": static("img/captain-icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("img/captain-icon-512.png"), "sizes": "512x512", "type": "image/png"},
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json")
