"""The table card's link, ``/tables/<token>/``: one per table for the whole night, no account.

It opens whatever the table plays now: a redirect to the captain's score card of the table's
current game (``/t/<game token>/``, whose own link keeps working), or, between rounds, a page
that says the table waits for the next round (and who sits there next), polled by htmx so it
moves on to the next game by itself; without JavaScript, "Check again" reloads it. A wrong
token gets the captain's "link doesn't work" page, and counts as a guess as a wrong captain link
does (``scoring.games.access.captain_guess_refused``).
"""

from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from core.errors import NotFoundError
from scoring.games.access import captain_guess_refused
from tournaments.services import nights as night_services
from tournaments.services import tables as services


@never_cache
@require_GET
def table_card(request, token: str):
    try:
        card = services.table_card_get(token=token)
    except NotFoundError:
        # A wrong table link is a guess at a scoring secret, as a wrong captain link is: it
        # counts against the same limits, and past them waits (429) instead of 404.
        wait = captain_guess_refused(request, token=token)
        context = {"too_many": wait is not None, "wait": wait}
        response = render(
            request, "captain/invalid_link.html", context, status=404 if wait is None else 429
        )
        if wait is not None:
            response["Retry-After"] = str(wait)
        response["X-Robots-Tag"] = "noindex"
        return response
    now = services.table_now(card=card)
    if now.game is not None:
        card_url = reverse("captain:card", args=[now.game.captain_token])
        if request.headers.get("HX-Request") == "true":
            response = HttpResponse(status=200)
            response["HX-Redirect"] = card_url
            return response
        return HttpResponseRedirect(card_url)
    response = render(
        request,
        "nights/table_waiting.html",
        {
            "now": now,
            "night": card.night,
            "game_length": night_services.night_game_length(night=card.night),
        },
    )
    response["X-Robots-Tag"] = "noindex"
    return response
