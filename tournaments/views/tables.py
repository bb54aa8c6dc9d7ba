"""The table card's link, ``/tables/<token>/``: one per table for the whole night, no account.

It opens whatever the table plays now: a redirect to the captain's score card of the table's
current game (``/t/<game token>/``, whose own link keeps working), or, between rounds, a page
that says the table waits for the next round (and who sits there next), polled by htmx so it
moves on to the next game by itself; without JavaScript, "Check again" reloads it.
"""

from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from league.errors import NotFoundError
from tournaments.services import nights as night_services
from tournaments.services import tables as services


@never_cache
@require_GET
def table_card(request, token: str):
    try:
        card = services.table_card_get(token=token)
    except NotFoundError as error:
        raise Http404(error.message) from error
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
