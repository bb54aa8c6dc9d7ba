"""The table captain's page: time from submit to the updated score, and the page's own weight.

Run from the repository root: ``python benchmarks/bench_captain.py``. It uses a throwaway SQLite
file (the embedded shape, WAL and immediate transactions as configured) and Django's test client,
so it needs no server. Prints its figures; not a test.

- *submit → updated score*: one captain's hand posted as ``captain.js`` posts it (``HX-Request``,
  the score-card partial back), timed until the answer holds the new score; and the same hand as a
  plain form post without JavaScript (the post, its redirect and the page it leads to). Games are
  real games to 10 under the standard rulebook; a new game starts when one ends. In this embedded
  shape Celery runs eagerly, so the standings recompute enqueued on commit runs inside the request
  and is part of the figure (with Redis and a worker it is not).
- *page weight*: the captain's page with eight hands on it: its HTML, plus every stylesheet and
  script it links, uncompressed; the budget is 60 KB. htmx's weight is printed for comparison.
"""

import os
import re
import statistics
import sys
import tempfile
import time
import uuid
from itertools import cycle
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HANDS = int(os.environ.get("BENCH_HANDS", "200"))
BUDGET_BYTES = 60 * 1024
# Seat of the caller, alone, tricks: a mix of makes, marches, euchres and loners.
DEALS = [(0, False, 3), (1, False, 5), (2, False, 1), (3, True, 4), (0, False, 4), (1, False, 2)]


def setup() -> None:
    workdir = Path(tempfile.mkdtemp(prefix="bench-captain-"))
    (workdir / "static").mkdir()
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "SQLITE_PATH": str(workdir / "bench.sqlite3"),
            "DATABASE_URL": "",
            "REDIS_URL": "",
            "SECURE_SSL_REDIRECT": "0",
            "STATIC_MANIFEST": "0",
            "WHITENOISE_USE_FINDERS": "1",
            "STATIC_ROOT": str(workdir / "static"),
            "LOG_LEVEL": "ERROR",
        }
    )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def new_game(season, players):
    from scoring.games import services

    return services.game_create(season=season, seats=tuple(players))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> None:
    setup()
    from django.contrib.auth import get_user_model
    from django.contrib.staticfiles import finders
    from django.test import Client

    from league import services as league_services

    user = get_user_model().objects.create_user("bench", password=uuid.uuid4().hex)
    league = league_services.league_create(name="Bench league", owner=user)
    season = league_services.season_create(league=league, name="Bench", preset="standard")
    players = [league_services.player_create(league=league, name=f"Player {n}") for n in range(4)]
    client = Client()

    def play(count: int, *, script: bool) -> tuple[list[float], int]:
        timings, games = [], 0
        game, number = new_game(season, players), 1
        deals = cycle(DEALS)
        for _ in range(count):
            seat, alone, tricks = next(deals)
            data = {
                "key": str(uuid.uuid4()),
                "number": number,
                "caller": players[seat].pk,
                "tricks_won": tricks,
                **({"caller_alone": "on"} if alone else {}),
            }
            url = f"/t/{game.captain_token}/hands/"
            started = time.perf_counter()
            if script:
                response = client.post(url, data, HTTP_HX_REQUEST="true")
            else:
                response = client.post(url, data, follow=True)
            elapsed = time.perf_counter() - started
            body = response.content.decode()
            assert response.status_code == 200, (response.status_code, body[:500])
            assert f"Hand {number}:" in body, body[:500]
            timings.append(elapsed * 1000)
            game.refresh_from_db()
            if game.status == "finished":
                games += 1
                game, number = new_game(season, players), 1
            else:
                number += 1
        return timings, games

    play(10, script=True)  # warm up: templates, URL resolver, SQLite pages
    figures = {}
    for label, script in (("captain.js (HX-Request partial)", True), ("no JavaScript", False)):
        timings, games = play(HANDS, script=script)
        figures[label] = (timings, games)

    game = new_game(season, players)
    for number, (seat, alone, tricks) in enumerate(DEALS + DEALS[:2], start=1):
        client.post(
            f"/t/{game.captain_token}/hands/",
            {
                "key": str(uuid.uuid4()),
                "number": number,
                "caller": players[seat].pk,
                "tricks_won": tricks,
                **({"caller_alone": "on"} if alone else {}),
            },
        )
    html = client.get(f"/t/{game.captain_token}/").content
    weights = {"HTML": len(html)}
    for asset in re.findall(rb'(?:href|src)="/static/([^"]+)"', html):
        with open(finders.find(asset.decode()), "rb") as file:
            weights[asset.decode()] = len(file.read())
    total = sum(weights.values())
    htmx = Path(finders.find("vendor/htmx.min.js")).stat().st_size

    print(f"Captain page, {HANDS} hands each way, SQLite (WAL), Django test client")
    for label, (timings, games) in figures.items():
        print(
            f"  submit → updated score, {label}: median {statistics.median(timings):.1f} ms, "
            f"p95 {percentile(timings, 0.95):.1f} ms, max {max(timings):.1f} ms "
            f"({games} games finished)"
        )
    print("Page weight (uncompressed, a game with 8 hands):")
    for name, size in weights.items():
        print(f"  {name:<16} {size:>7,} bytes")
    verdict = "under" if total < BUDGET_BYTES else "OVER"
    print(f"  {'total':<16} {total:>7,} bytes ({verdict} the {BUDGET_BYTES:,}-byte budget)")
    print(
        f"  (htmx.min.js would add {htmx:,} bytes: {total + htmx:,} in all, "
        f"{'under' if total + htmx < BUDGET_BYTES else 'over'} budget; the page does not load it)"
    )
    if total >= BUDGET_BYTES:
        sys.exit(1)


if __name__ == "__main__":
    main()
