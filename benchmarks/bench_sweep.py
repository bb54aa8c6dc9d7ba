"""The beat's sweep (``scoring.standings.tasks.sweep_stale_seasons``) over a long history, side by
side with its floor in the same run.

Run: ``python benchmarks/bench_sweep.py``. Needs PostgreSQL and Redis on 127.0.0.1
(``BENCH_DATABASE_URL``, ``BENCH_REDIS_URL`` override); creates and drops its own database
``euchre_bench_sweep`` (``BENCH_DATABASE_NAME`` names another; ``BENCH_KEEP=1`` keeps it and
reuses a kept one). ``BENCH_SEASONS`` and ``BENCH_HANDS`` size the history, ``BENCH_RUNS`` the
rounds. Prints its figures; not a test.

The history, all bulk-created: leagues of 10 seasons (1,000 leagues at the default 10,000
seasons), 12 players a league, each season with its own rulebook (as ``season_create`` gives
one), finished games of 10 hands (10 games a season at the defaults), every season's snapshot
and race current. A fifth of the seasons
changed their rules once, long ago: the old version is superseded and every hand was re-derived
under the new one. In one league of a hundred, five seasons share a rulebook a sixth season moved
on from: their hands stay under a superseded version, where the sweep's rulebook check looks.

What changed since the last sweep: one season's rules changed and its re-derivation job was lost
(its hands still under the old version), three seasons have a result change pending, two
snapshots are newer than their race, and one season has a game to play that its race was not
computed with (the race's games digest differs, ``scoring.standings.services.race_games``).

Each round times, one after the other:

(sweep) ``sweep_stale_seasons()`` as the beat runs it: its three checks and the jobs it sends to
    Redis (no worker consumes them; the queues are purged after each round);
(checks) each of the three checks alone;
(floor) what any sweep asking three questions and sending those six jobs pays at least: three
    statements that read nothing (``SELECT 1``) on the same connection and six messages sent
    through the same Celery app.

Before the rounds, one statement and one message open the connections to PostgreSQL and Redis,
as a running worker has them (untimed). It checks the sweep finds exactly what changed, and
prints the plan of each check.
"""

import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADMIN_URL = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
DATABASE_NAME = os.environ.get("BENCH_DATABASE_NAME", "euchre_bench_sweep")
sys.path.insert(0, str(ROOT))
from benchmarks.databases import BenchDatabase, setup_django  # noqa: E402

DATABASE = BenchDatabase(ADMIN_URL, DATABASE_NAME)
DATABASE_URL = DATABASE.url
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
SEASONS = int(os.environ.get("BENCH_SEASONS", "10000"))
HANDS = int(os.environ.get("BENCH_HANDS", "1000000"))
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
KEEP = os.environ.get("BENCH_KEEP") == "1"
SEASONS_A_LEAGUE = 10
PLAYERS_A_LEAGUE = 12
HANDS_A_GAME = 10
ENV = {
    "DATABASE_URL": DATABASE_URL,
    "REDIS_URL": REDIS_URL,
    "CELERY_TASK_ALWAYS_EAGER": "0",
    "SECRET_KEY": "benchmark-only-" + uuid.uuid4().hex,
    "DEBUG": "0",
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "LOG_LEVEL": "ERROR",
}


def build_history() -> dict[str, list[int]]:
    """The seasons, games and hands (see the module docstring); returns what changed."""
    from django.db import connection, transaction
    from django.utils import timezone

    from league.domain.rules import preset_rulebook
    from league.models import League, Player, Rulebook, Season
    from scoring.games.models import Game, ResultChange, new_captain_token
    from scoring.standings.models import StandingSnapshot

    started = time.perf_counter()
    options = preset_rulebook("standard").to_options()
    now = timezone.now()
    leagues_count = max(1, SEASONS // SEASONS_A_LEAGUE)
    games_a_season = max(1, HANDS // HANDS_A_GAME // SEASONS)
    with transaction.atomic():
        leagues = League.objects.bulk_create(
            [League(name=f"League {n}", slug=f"league-{n}") for n in range(leagues_count)]
        )
        players = Player.objects.bulk_create(
            [
                Player(league=league, name=f"Player {n}")
                for league in leagues
                for n in range(PLAYERS_A_LEAGUE)
            ]
        )
        seated = [
            [player.pk for player in players[n : n + PLAYERS_A_LEAGUE]]
            for n in range(0, len(players), PLAYERS_A_LEAGUE)
        ]
        slots = [(league, number) for league in leagues for number in range(SEASONS_A_LEAGUE)][
            :SEASONS
        ]
        # A fifth of the seasons changed their rules long ago: version 1, superseded by 2.
        changed_long_ago = {index for index in range(len(slots)) if index % 5 == 4}
        firsts = Rulebook.objects.bulk_create(
            [
                Rulebook(league=league, name="Standard", preset="standard", options=options)
                for league, _number in slots
            ]
        )
        seconds = Rulebook.objects.bulk_create(
            [
                Rulebook(
                    league=slots[index][0],
                    name="Standard",
                    preset="standard",
                    options=options,
                    version=2,
                    previous=firsts[index],
                )
                for index in sorted(changed_long_ago)
            ]
        )
        current = [rulebook.pk for rulebook in firsts]
        for index, rulebook in zip(sorted(changed_long_ago), seconds, strict=True):
            current[index] = rulebook.pk
        # One league in a hundred: seasons 0-4 share season 0's rulebook; season 5 moved on
        # from it (a version 2 of it), so it is superseded while five seasons still use it.
        shared_leagues = range(0, leagues_count, 100)
        moved_on = []
        for league_index in shared_leagues:
            base = league_index * SEASONS_A_LEAGUE
            for offset in range(1, 5):
                current[base + offset] = firsts[base].pk
            moved_on.append(
                Rulebook(
                    league=leagues[league_index],
                    name="Standard",
                    preset="standard",
                    options=options,
                    version=2,
                    previous=firsts[base],
                )
            )
        for league_index, rulebook in zip(
            shared_leagues, Rulebook.objects.bulk_create(moved_on), strict=True
        ):
            current[league_index * SEASONS_A_LEAGUE + 5] = rulebook.pk
        seasons = Season.objects.bulk_create(
            [
                Season(
                    league=league,
                    name=f"Season {number}",
                    format=Season.Format.INDIVIDUAL,
                    rulebook_id=current[index],
                    results_version=1,
                )
                for index, (league, number) in enumerate(slots)
            ]
        )
    for start in range(0, len(seasons), 500):
        games = []
        for index, season in enumerate(seasons[start : start + 500], start=start):
            league_players = seated[index // SEASONS_A_LEAGUE]
            for number in range(games_a_season):
                seats = [
                    league_players[(number + offset * 3) % PLAYERS_A_LEAGUE] for offset in range(4)
                ]
                games.append(
                    Game(
                        season=season,
                        seat_0_id=seats[0],
                        seat_1_id=seats[1],
                        seat_2_id=seats[2],
                        seat_3_id=seats[3],
                        status=Game.Status.FINISHED,
                        score_a=10,
                        score_b=6,
                        hands_played=HANDS_A_GAME,
                        last_hand_number=HANDS_A_GAME,
                        winner="A",
                        finished_at=now,
                        captain_token=new_captain_token(),
                    )
                )
        Game.objects.bulk_create(games, batch_size=5000)
    with connection.cursor() as cursor:
        # Every game's hands, each derived under its season's current rulebook: one statement.
        cursor.execute(
            """
            INSERT INTO scoring_hand (
                game_id, number, makers, caller_id, caller_alone, defender_alone, tricks_won,
                renege, thrown_in, misdeal, dealer_seat, outcome, points_a, points_b, status,
                source, created_at, change_reason, rulebook_id, time_called
            )
            SELECT g.id, n, CASE WHEN n %% 2 = 0 THEN 'A' ELSE 'B' END,
                   CASE WHEN n %% 2 = 0 THEN g.seat_0_id ELSE g.seat_1_id END,
                   false, false, 3 + n %% 3, '', false, false, (n - 1) %% 4,
                   CASE WHEN n %% 3 = 2 THEN 'march' ELSE 'make' END,
                   CASE WHEN n %% 2 = 0 THEN 1 ELSE 0 END, CASE WHEN n %% 2 = 0 THEN 0 ELSE 1 END,
                   'active', 'api', %s, '', s.rulebook_id, false
            FROM scoring_game g
            JOIN league_season s ON s.id = g.season_id
            CROSS JOIN generate_series(1, %s) AS n
            """,
            [now, HANDS_A_GAME],
        )
        hands = cursor.rowcount
    from scoring.standings.services.race_games import games_digests

    digests = games_digests(season.pk for season in seasons)  # no game left: races are current
    StandingSnapshot.objects.bulk_create(
        [
            StandingSnapshot(
                season=season,
                results_version=1,
                race_version=1,
                race_games=digests[season.pk],
                computed_at=now,
                standings={"rows": []},
                basis={"rulebook": season.rulebook_id, "rules": {}, "format": season.format},
            )
            for season in seasons
        ],
        batch_size=2000,
    )
    # What changed since the last sweep.
    lost = seasons[7]  # a rules change whose re-derivation job was lost
    new_version = Rulebook.objects.create(
        league_id=lost.league_id,
        name="Standard",
        preset="standard",
        options={**options, "march_points": 3},
        version=3,
        previous_id=lost.rulebook_id,
    )
    Season.objects.filter(pk=lost.pk).update(rulebook=new_version, results_version=2)
    pending = [seasons[n] for n in (11, 2222 % len(seasons), 5555 % len(seasons))]
    for season in pending:
        game = Game.objects.filter(season=season).order_by("pk").first()
        ResultChange.objects.create(season=season, game=game)
    behind = [seasons[n] for n in (13, 7777 % len(seasons))]
    StandingSnapshot.objects.filter(season__in=behind).update(race_version=0)
    # a game scheduled behind the services' back (e.g. in the admin): its season's race is due
    rescheduled = seasons[17 % len(seasons)]
    played = Game.objects.filter(season=rescheduled).order_by("pk").first()
    Game.objects.create(
        season=rescheduled,
        **{f"seat_{n}_id": getattr(played, f"seat_{n}_id") for n in range(4)},
        captain_token=new_captain_token(),
    )
    behind.append(rescheduled)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    print(
        f"built: {len(seasons)} seasons in {len(leagues)} leagues, "
        f"{Game.objects.count()} games, {hands} hands, {Rulebook.objects.count()} rulebooks "
        f"in {time.perf_counter() - started:.1f} s"
    )
    return {
        "rederive": [lost.pk],
        "recompute": sorted(season.pk for season in pending),
        "race": sorted(season.pk for season in behind),
    }


def expected_changes() -> dict[str, list[int]]:
    """What changed in a kept database (the sweep's own findings, as built)."""
    from scoring.standings import tasks
    from scoring.standings.services import recompute as standings

    rederive = tasks.seasons_with_stale_points()
    recompute = [pk for pk in standings.stale_season_ids() if pk not in rederive]
    race = [
        pk for pk in standings.stale_race_season_ids() if pk not in rederive and pk not in recompute
    ]
    return {"rederive": rederive, "recompute": sorted(recompute), "race": sorted(race)}


def purge() -> None:
    from config.celery import app

    app.control.purge()


def timed(action) -> tuple[float, object]:
    started = time.perf_counter()
    result = action()
    return time.perf_counter() - started, result


def floor(jobs: int) -> float:
    """Three statements that read nothing, and ``jobs`` messages through the same app."""
    from django.db import connection

    from scoring.standings.tasks import recompute_season_standings

    started = time.perf_counter()
    with connection.cursor() as cursor:
        for _ in range(3):
            cursor.execute("SELECT 1")
            cursor.fetchall()
    for _ in range(jobs):
        recompute_season_standings.delay(0)
    return time.perf_counter() - started


def show_plans() -> None:
    """The plan of each statement the three checks run (as they ran: captured, then explained)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring.standings import tasks
    from scoring.standings.services import recompute as standings

    checks = (
        tasks.seasons_with_stale_points,
        standings.stale_season_ids,
        standings.stale_race_season_ids,
    )
    for check in checks:
        with CaptureQueriesContext(connection) as captured:
            check()
        with connection.cursor() as cursor:
            for query in captured.captured_queries:
                cursor.execute("EXPLAIN (ANALYZE, COSTS OFF, SUMMARY OFF) " + query["sql"])
                print(f"-- {check.__name__}:")
                print("\n".join(row[0] for row in cursor.fetchall()))


def main() -> None:
    kept = DATABASE.recreate(keep=KEEP)
    try:
        setup_django(ENV)
        purge()
        changed = expected_changes() if kept else build_history()
        from scoring.standings import tasks
        from scoring.standings.services import recompute as standings

        jobs = sum(len(found) for found in changed.values())
        floor(1)  # untimed: the connections to PostgreSQL and Redis, open in a running worker
        purge()
        rows = []
        for round_number in range(RUNS):
            sweep, found = timed(tasks.sweep_stale_seasons)
            assert found == changed, (found, changed)
            purge()
            points, _ = timed(tasks.seasons_with_stale_points)
            results, _ = timed(standings.stale_season_ids)
            races, _ = timed(standings.stale_race_season_ids)
            least = floor(jobs)
            purge()
            rows.append((sweep, least))
            print(
                f"round {round_number + 1}: sweep {sweep * 1000:6.1f} ms "
                f"(rulebook check {points * 1000:5.1f}, results {results * 1000:5.1f}, "
                f"races {races * 1000:5.1f}) | floor {least * 1000:5.1f} ms "
                f"({sweep / least:4.1f}x)",
                flush=True,
            )
        sweeps = [sweep * 1000 for sweep, _floor in rows]
        floors = [least * 1000 for _sweep, least in rows]
        print(
            f"sweep: min {min(sweeps):.1f} ms  median {statistics.median(sweeps):.1f} ms  "
            f"max {max(sweeps):.1f} ms; floor median {statistics.median(floors):.1f} ms; "
            f"found {changed}"
        )
        show_plans()
    finally:
        from django.db import connections

        connections.close_all()
        if not KEEP:
            DATABASE.drop()


if __name__ == "__main__":
    main()
