"""The floor's one route (see ``benchmarks/floor_settings.py``): ``POST /floor/<game>/hands/``
reads the same JSON body as the hand endpoint and inserts it as one row, in one statement
(autocommit), answering 201 with the row's id. The table is made by the benchmark."""

import json

from django.db import connection
from django.http import JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

TABLE = "bench_floor_hand"
CREATE_TABLE = (
    f"CREATE TABLE IF NOT EXISTS {TABLE} (id bigserial PRIMARY KEY, game_id integer NOT NULL, "
    "number integer, makers varchar(1) NOT NULL, tricks_won smallint, client_key varchar(100) "
    "UNIQUE, created_at timestamptz NOT NULL DEFAULT now())"
)


@csrf_exempt
def floor_hand(request, game_id: int):
    if request.method != "POST":
        return JsonResponse({"ok": True})  # the benchmark's check that the server is up
    body = json.loads(request.body)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {TABLE} (game_id, number, makers, tricks_won, client_key) "
            "VALUES (%s, %s, %s, %s, %s) RETURNING id",
            [
                game_id,
                body.get("number"),
                body["makers"],
                body.get("tricks_won"),
                request.headers.get("Idempotency-Key"),
            ],
        )
        (row_id,) = cursor.fetchone()
    response = JsonResponse({"id": row_id, "number": body.get("number")}, status=201)
    response["Content-Length"] = len(response.content)  # as the product's CommonMiddleware does
    return response


urlpatterns = [path("floor/<int:game_id>/hands/", floor_hand)]
