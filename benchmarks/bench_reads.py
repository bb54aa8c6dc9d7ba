"""Reads of a large season on PostgreSQL: the standings' first page, one player's stats and the
public player page, side by side with a floor measured in the same run.

Run: ``python benchmarks/bench_reads.py``. Needs PostgreSQL on 127.0.0.1 (``BENCH_DATABASE_URL``
overrides); creates and drops its own database ``euchre_bench_reads`` (``BENCH_DATABASE_NAME``
overrides; ``BENCH_KEEP=1`` keeps it and reuses it next time). The season is the one of
``bench_standings_pg.py`` (1,000 players, games of 8-12 hands over 10 nights) with 1,000,000
hands by default; ``BENCH_HANDS`` and ``BENCH_PLAYERS`` make a smaller one.

Each read goes through Django's test client (URL routing, the view, JSON rendering), median of
``RUNS``. The floor:

- a bare SQL primary-key read of one row (one player's stored stats line, ``StandingLine``);
- a bare view: the API root ``/api/v1/`` (routing, DRF, rendering; no query).

"Before" is what the reads cost before the stored lines: the whole snapshot loaded and rendered
(the old standings endpoint) and every player's stats loaded to pick one player's line (the old
stats endpoint and player page). The snapshot no longer holds the stats (every player's and
team's are on their lines only), so "the whole snapshot" is read as the snapshot and every line.
"""

import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("BENCH_DATABASE_NAME", "euchre_bench_reads")
os.environ.setdefault("BENCH_HANDS", "1000000")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_standings_pg as base

RUNS = int(os.environ.get("BENCH_RUNS", "5"))
LINE_PARTS = ("player_stats", "team_stats", "ratings")
STATS_KINDS = {"player_stats": "player", "team_stats": "team"}


def snapshot_parts(season_id: int, parts) -> dict:
    """The snapshot's ``parts``, the player and team stats read as every line of their kind."""
    from scoring.standings.models import StandingSnapshot
    from scoring.standings.selectors import season_all_lines

    snapshot = StandingSnapshot.objects.get(season_id=season_id)
    return {
        part: season_all_lines(season_id=season_id, kind=STATS_KINDS[part])
        if part in STATS_KINDS
        else getattr(snapshot, part)
        for part in parts
    }


KEYS = {"player_stats": ("player", "player_id"), "team_stats": ("team", "team_id")}
KEYS |= {"ratings": ("rating", "player_id")}


def every_line(values: dict):
    """The snapshot ``values`` (``LINE_PARTS``) as a recompute from scratch's lines."""
    from scoring.standings.services.values import Computed

    lines = {}
    for part, (kind, key) in KEYS.items():
        lines.update({(kind, row[key]): row for row in values[part]})
    return Computed(values={}, lines=lines, complete=True)


def timed(call) -> tuple[float, object]:
    times, result = [], None
    for _ in range(RUNS):
        started = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def line(label: str, seconds: float, size: int | None = None) -> None:
    sized = f"  {size / 1000:10.1f} KB" if size is not None else " " * 15
    print(f"{label:<58} {seconds * 1000:9.1f} ms{sized}")


def main() -> None:
    kept = base.DATABASE.recreate(keep=base.KEEP)
    try:
        base.setup_django(base.ENV, without=("REDIS_URL",))
        from django.db import connection, transaction
        from django.test import Client
        from django.urls import reverse

        from league.models import Season
        from scoring.standings.models import StandingLine
        from scoring.standings.services.recompute import (
            season_standings_recompute,
            standing_lines_write,
        )

        season_id = base.kept_season() if kept else base.build_season()
        if not kept or not StandingLine.objects.filter(season_id=season_id).exists():
            started = time.perf_counter()
            season_standings_recompute(season_id=season_id, force=True)
            print(f"recompute (snapshot and lines): {time.perf_counter() - started:.1f} s")
        season = Season.objects.select_related("league").get(pk=season_id)
        values = snapshot_parts(season_id, LINE_PARTS)
        StandingLine.objects.filter(season_id=season_id).update(digest="")

        def write_lines(label: str) -> None:
            started = time.perf_counter()
            with transaction.atomic():
                standing_lines_write(season_id=season_id, computed=every_line(values))
            print(f"writing the per-entrant lines, {label}: {time.perf_counter() - started:.1f} s")

        write_lines("every line new (a first recompute)")
        write_lines("no line changed")
        for stat in values["player_stats"][:4]:  # as after one game: its four players' stats
            stat["games"] += 1
        write_lines("four players' stats changed")
        for stat in values["player_stats"][:4]:
            stat["games"] -= 1
        write_lines("back as stored")
        players = StandingLine.objects.filter(season_id=season_id, kind="player").order_by("pk")
        player_id = players.values_list("entrant_id", flat=True)[players.count() // 2]
        line_pk = StandingLine.objects.get(
            season_id=season_id, kind="player", entrant_id=player_id
        ).pk
        from django.conf import settings
        from django.test.utils import override_settings

        # The pages name static files; no collectstatic ran, so serve them unhashed.
        storages = {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
        override_settings(STORAGES=storages).enable()
        client = Client()

        def get(address: str) -> bytes:
            response = client.get(address, secure=True)
            assert response.status_code == 200, (address, response.status_code)
            return response.content

        standings = f"/api/v1/seasons/{season_id}/standings/"
        stats = f"/api/v1/seasons/{season_id}/players/{player_id}/stats/"
        page = reverse("public-player", args=[season.league.slug, player_id])

        def whole_snapshot() -> bytes:
            parts = ("standings", "player_stats", "team_stats", "ratings", "nights")
            return json.dumps(snapshot_parts(season_id, parts)).encode()

        def one_line_from_snapshot() -> dict:
            stats = snapshot_parts(season_id, ("player_stats",))["player_stats"]
            return next(p for p in stats if p["player_id"] == player_id)

        def bare_row() -> tuple:
            with connection.cursor() as cursor:
                cursor.execute("SELECT data FROM scoring_standingline WHERE id = %s", [line_pk])
                return cursor.fetchone()

        get(standings)  # warm up: imports, connection, URL resolver
        print(f"\nseason {season_id}: {RUNS} runs each, median")
        print("floor")
        line("  bare SQL primary-key read of one row", timed(bare_row)[0])
        seconds, body = timed(lambda: get("/api/v1/"))
        line("  bare view (API root, no query)", seconds, len(body))
        print("before (the whole snapshot)")
        seconds, body = timed(whole_snapshot)
        line("  whole snapshot loaded and serialised (old standings)", seconds, len(body))
        line(
            "  whole snapshot loaded for one player's line (old stats)",
            timed(one_line_from_snapshot)[0],
        )
        print("after")
        seconds, body = timed(lambda: get(standings))
        line("  GET standings/ (first page, 100 rows)", seconds, len(body))
        seconds, body = timed(lambda: get(standings + "?detail=true"))
        line("  GET standings/?detail=true (first page)", seconds, len(body))
        seconds, body = timed(lambda: get(standings + "?limit=20&detail=true"))
        line("  GET standings/?limit=20&detail=true", seconds, len(body))
        seconds, body = timed(lambda: get(stats))
        line("  GET players/<id>/stats/ (one player)", seconds, len(body))
        seconds, body = timed(lambda: get(page))
        line("  GET public player page", seconds, len(body))
    finally:
        from django.db import connections

        connections.close_all()
        if not base.KEEP:
            base.DATABASE.drop()


if __name__ == "__main__":
    main()
