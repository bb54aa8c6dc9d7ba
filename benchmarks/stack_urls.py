"""Two floors that pay the product's request stack (``benchmarks/stack_settings.py``: every
middleware, the sessions, the database and cache settings), beside the product's own routes:

- ``POST /stack/<game>/hands/``: a bare view. It reads the JSON body and answers 201 as the
  floor does, and touches neither the database nor Redis: what the middleware, the URL
  resolver and a JSON answer cost before any work.
- ``POST /skeleton/<game>/hands/``: the product's writes of a hand, in the plainest ORM code
  there is, and nothing else: in one transaction, the game read and locked by its id and its
  captain's ``X-Captain-Token`` (with its season, for the rulebook), the hand inserted, the
  game's running score updated, the result change logged, and the season's recompute queued
  after the commit as the product queues it (``jobs.standings_recompute_soon``: one Redis
  ``add``, and a message when it added the key). No DRF, no validation, no scoring (each hand
  scores 1 point to its makers), no replay by key, no answer beyond the floor's. Any
  implementation of hand entry on Django's ORM does at least this.
"""

import json

from django.db import transaction
from django.db.models import F
from django.http import JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from config.urls import urlpatterns as product_urlpatterns
from scoring.games import jobs
from scoring.games.models import Game, Hand, ResultChange


def _created(body: dict, row_id: int) -> JsonResponse:
    response = JsonResponse({"id": row_id, "number": body.get("number")}, status=201)
    response["Content-Length"] = len(response.content)
    return response


@csrf_exempt
def stack_hand(request, game_id: int):
    body = json.loads(request.body)
    return _created(body, game_id)


@csrf_exempt
def skeleton_hand(request, game_id: int):
    body = json.loads(request.body)
    token = request.headers.get("X-Captain-Token", "")
    with transaction.atomic():
        game = (
            Game.objects.select_related("season")
            .select_for_update(of=("self",))
            .get(pk=game_id, captain_token=token)
        )
        makers = body["makers"]
        points_a, points_b = (1, 0) if makers == "A" else (0, 1)
        number = game.last_hand_number + 1
        dealer = game.first_dealer_seat if number == 1 else game.next_dealer_seat
        hand = Hand.objects.create(
            game=game,
            number=number,
            makers=makers,
            tricks_won=body.get("tricks_won"),
            dealer_seat=dealer,
            rulebook_id=game.season.rulebook_id,
            outcome=Hand.Outcome.MAKE,
            points_a=points_a,
            points_b=points_b,
            client_key=request.headers.get("Idempotency-Key"),
        )
        Game.objects.filter(pk=game.pk).update(
            score_a=F("score_a") + points_a,
            score_b=F("score_b") + points_b,
            hands_played=F("hands_played") + 1,
            last_hand_number=number,
            next_dealer_seat=(dealer + 1) % 4,
        )
        ResultChange.objects.create(season_id=game.season_id, game=game)
        season_id = game.season_id
        transaction.on_commit(lambda: jobs.standings_recompute_soon(season_id))
    return _created(body, hand.pk)


urlpatterns = [
    path("stack/<int:game_id>/hands/", stack_hand),
    path("skeleton/<int:game_id>/hands/", skeleton_hand),
    *product_urlpatterns,
]
