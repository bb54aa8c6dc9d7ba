"""A full standings recompute of a large season on PostgreSQL, against one hand-written SQL
aggregate over the same hands.

Run: ``python benchmarks/bench_standings_pg.py``. Needs PostgreSQL on 127.0.0.1
(``BENCH_DATABASE_URL`` overrides); creates and drops its own database ``euchre_bench_standings``.
Prints its figures; not a test. ``BENCH_KEEP=1`` keeps the database afterwards and reuses a kept
one instead of building it again (for profiling: ``BENCH_PROFILE=1`` prints a cProfile of one
recompute); ``BENCH_PLAYERS`` and ``BENCH_HANDS`` make a smaller season.

The season: individual format, 1,000 players, partners rotating at random, games of 8–12 hands
under standard rules (make 1, march 2, loner march 4, euchre 2), 500,000 hands over 10 nights,
all bulk-created. Then it times

(a) ``season_standings_recompute(force=True)``: load the games and hands, rank with the tie-break
    chain and say why, every player's stats (partners and opponents included), openskill ratings,
    the night-by-night lines, and store the snapshot;
(b) one SQL statement: per player, games, wins, points for and against, hands and marches (in
    play), by GROUP BY over the hands joined to the games' seats;

and prints the ratio (a)/(b): what the richer, explained standings cost over the bare counts.
Then (c): an incremental recompute after one new finished game (its change logged), three
times, and a check that a recompute from scratch then stores the very same snapshot.
"""

import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADMIN_URL = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
DATABASE_NAME = os.environ.get("BENCH_DATABASE_NAME", "euchre_bench_standings")
DATABASE_URL = ADMIN_URL.rsplit("/", 1)[0] + "/" + DATABASE_NAME
PLAYERS = int(os.environ.get("BENCH_PLAYERS", "1000"))
HANDS = int(os.environ.get("BENCH_HANDS", "500000"))
NIGHTS = 10
RUNS = 3
KEEP = os.environ.get("BENCH_KEEP") == "1"
PROFILE = os.environ.get("BENCH_PROFILE") == "1"
ENV = {
    "DATABASE_URL": DATABASE_URL,
    "SECRET_KEY": "benchmark-only-" + uuid.uuid4().hex,
    "DEBUG": "0",
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "LOG_LEVEL": "ERROR",
}

SQL = """
WITH seats AS (
    SELECT g.id AS game_id, s.player_id, s.side, g.winner, g.score_a, g.score_b
    FROM scoring_game g
    CROSS JOIN LATERAL (VALUES (g.seat_0_id, 'A'), (g.seat_1_id, 'B'),
                               (g.seat_2_id, 'A'), (g.seat_3_id, 'B')) AS s(player_id, side)
    WHERE g.season_id = %(season)s AND g.status = 'finished'
),
per_game AS (
    SELECT player_id,
           count(*) AS games,
           count(*) FILTER (WHERE winner = side) AS wins,
           sum(CASE WHEN side = 'A' THEN score_a ELSE score_b END) AS points_for,
           sum(CASE WHEN side = 'A' THEN score_b ELSE score_a END) AS points_against
    FROM seats
    GROUP BY player_id
),
per_hand AS (
    -- a march counts for a player in play: not the partner of a lone caller
    SELECT s.player_id,
           count(*) AS hands,
           count(*) FILTER (
               WHERE h.makers = s.side AND h.tricks_won = 5
                 AND (NOT h.caller_alone OR h.caller_id = s.player_id)
           ) AS marches
    FROM scoring_hand h
    JOIN seats s ON s.game_id = h.game_id
    WHERE h.status = 'active' AND NOT h.misdeal
    GROUP BY s.player_id
)
SELECT g.player_id, g.games, g.wins, g.points_for, g.points_against,
       coalesce(h.hands, 0), coalesce(h.marches, 0)
FROM per_game g
LEFT JOIN per_hand h ON h.player_id = g.player_id
ORDER BY g.wins DESC, g.points_for DESC
"""


def recreate_database() -> bool:
    """Make an empty database; with ``BENCH_KEEP``, say whether a kept one is there instead."""
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as connection:
        if (
            KEEP
            and connection.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE_NAME,)
            ).fetchone()
        ):
            return True
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE_NAME} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {DATABASE_NAME}")
    return False


def drop_database() -> None:
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE_NAME} WITH (FORCE)")


def setup_django() -> None:
    env = {**os.environ, **ENV}
    env.pop("REDIS_URL", None)  # no broker: the recompute is called directly
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    os.environ.update(ENV)
    os.environ.pop("REDIS_URL", None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def one_hand(chance: random.Random, seats: tuple[int, ...]) -> dict:
    """A plausible hand under standard rules: its facts and points (a side, a caller, tricks)."""
    caller_seat = chance.randrange(4)
    makers = "A" if caller_seat % 2 == 0 else "B"
    alone = chance.random() < 0.1
    tricks = chance.choices([0, 1, 2, 3, 4, 5], weights=[1, 2, 5, 12, 8, 5])[0]
    if tricks <= 2:
        outcome, to_makers, to_defenders = "euchre", 0, 2
    elif tricks == 5:
        outcome, to_makers, to_defenders = ("lone_march", 4, 0) if alone else ("march", 2, 0)
    else:
        outcome, to_makers, to_defenders = ("lone_make", 1, 0) if alone else ("make", 1, 0)
    if outcome == "euchre" and alone:
        outcome = "lone_caller_euchred"
    points_a, points_b = (to_makers, to_defenders) if makers == "A" else (to_defenders, to_makers)
    return {
        "makers": makers,
        "caller_id": seats[caller_seat],
        "caller_alone": alone,
        "tricks_won": tricks,
        "outcome": outcome,
        "points_a": points_a,
        "points_b": points_b,
    }


def finished_game(season, night, seats, rows, score_a: int, score_b: int, finished_at):
    """A finished game (not saved) of ``rows``, its hands, scored ``score_a``–``score_b``."""
    from scoring.models import Game, new_captain_token

    return Game(
        season=season,
        night=night,
        seat_0_id=seats[0],
        seat_1_id=seats[1],
        seat_2_id=seats[2],
        seat_3_id=seats[3],
        status=Game.Status.FINISHED,
        score_a=score_a,
        score_b=score_b,
        hands_played=len(rows),
        winner="A" if score_a > score_b else "B",
        finished_at=finished_at,
        captain_token=new_captain_token(),
    )


def build_season() -> int:
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from league import services as league_services
    from league.models import Night, Player, Season
    from scoring.models import Game, Hand

    chance = random.Random(2026)
    started = time.perf_counter()
    user = get_user_model().objects.create_user("bench", password=uuid.uuid4().hex)
    league = league_services.league_create(name="Bench league", owner=user)
    season = league_services.season_create(
        league=league, name="Big", preset="standard", format=Season.Format.INDIVIDUAL, user=user
    )
    players = Player.objects.bulk_create(
        [Player(league=league, name=f"Player {n:04}") for n in range(PLAYERS)]
    )
    player_ids = [player.pk for player in players]
    nights = Night.objects.bulk_create(
        [
            Night(season=season, date=timezone.now().date(), status=Night.Status.FINISHED)
            for _ in range(NIGHTS)
        ]
    )
    now = timezone.now()
    hands_made = 0
    game_count = 0
    while hands_made < HANDS:
        games, hand_rows = [], []
        for _ in range(2000):
            seats = tuple(chance.sample(player_ids, 4))
            rows = [one_hand(chance, seats) for _ in range(chance.randint(8, 12))]
            score_a = sum(row["points_a"] for row in rows)
            score_b = sum(row["points_b"] for row in rows)
            if score_a == score_b:  # one more hand decides it
                extra = one_hand(chance, seats)
                while extra["points_a"] == extra["points_b"]:
                    extra = one_hand(chance, seats)
                rows.append(extra)
                score_a += extra["points_a"]
                score_b += extra["points_b"]
            games.append(
                finished_game(
                    season, nights[game_count % NIGHTS], seats, rows, score_a, score_b, now
                )
            )
            hand_rows.append(rows)
            game_count += 1
            hands_made += len(rows)
            if hands_made >= HANDS:
                break
        with transaction.atomic():
            Game.objects.bulk_create(games)
            Hand.objects.bulk_create(
                [
                    Hand(
                        game=game,
                        number=number,
                        dealer_seat=(number - 1) % 4,
                        rulebook_id=season.rulebook_id,
                        **row,
                    )
                    for game, rows in zip(games, hand_rows, strict=True)
                    for number, row in enumerate(rows, start=1)
                ],
                batch_size=10000,
            )
    Season.objects.filter(pk=season.pk).update(results_version=1)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(
        f"built: {PLAYERS} players, {game_count} games, {hands_made} hands, {NIGHTS} nights "
        f"in {time.perf_counter() - started:.1f} s"
    )
    return season.pk


def kept_season() -> int:
    from league.models import Season

    return Season.objects.get(name="Big").pk


def profile_recompute(season_id: int) -> None:
    import cProfile
    import pstats

    from scoring.standings import season_standings_recompute

    profiler = cProfile.Profile()
    profiler.enable()
    season_standings_recompute(season_id=season_id, force=True)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)


def time_recompute(season_id: int) -> list[float]:
    from scoring.models import StandingLine, StandingSnapshot
    from scoring.standings import season_standings_recompute

    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        snapshot = season_standings_recompute(season_id=season_id, force=True)
        times.append(time.perf_counter() - started)
        assert snapshot is not None
    stored = StandingSnapshot.objects.get(season_id=season_id)
    stat_lines = StandingLine.objects.filter(season_id=season_id, kind="player").count()
    print(
        f"snapshot: {len(stored.standings['rows'])} ranked rows, {stat_lines} stat "
        f"lines, {len(stored.ratings)} ratings; compute part {stored.duration_ms} ms"
    )
    return times


def add_finished_game(season_id: int, chance: random.Random) -> int:
    """One more finished game of 8-12 hands, played after every other: what a table finishing a
    game adds. Returns its id; the change is logged (a ``ResultChange``) as a hand's would be."""
    from django.db import transaction
    from django.utils import timezone

    from league.models import Night, Player, Season
    from scoring.models import Hand, ResultChange

    season = Season.objects.get(pk=season_id)
    players = list(Player.objects.filter(league_id=season.league_id).values_list("pk", flat=True))
    night = Night.objects.filter(season=season).order_by("pk").last()
    seats = tuple(chance.sample(players, 4))
    rows = [one_hand(chance, seats) for _ in range(chance.randint(8, 12))]
    score_a = sum(row["points_a"] for row in rows)
    score_b = sum(row["points_b"] for row in rows)
    if score_a == score_b:
        rows[-1] = {**rows[-1], "points_a": rows[-1]["points_a"] + 1}
        score_a += 1
    with transaction.atomic():
        game = finished_game(season, night, seats, rows, score_a, score_b, timezone.now())
        game.save(force_insert=True)
        Hand.objects.bulk_create(
            [
                Hand(
                    game=game,
                    number=number,
                    dealer_seat=(number - 1) % 4,
                    rulebook_id=season.rulebook_id,
                    **row,
                )
                for number, row in enumerate(rows, start=1)
            ]
        )
        ResultChange.objects.create(season_id=season_id, game=game)
    return game.pk


def time_incremental(season_id: int) -> list[float]:
    """An incremental recompute after one new finished game, ``RUNS`` times; then one from
    scratch, which must store the very same snapshot."""
    from scoring.models import StandingSnapshot
    from scoring.selectors import season_all_lines
    from scoring.standings import season_standings_recompute

    chance = random.Random(7)
    times = []
    for _ in range(RUNS):
        add_finished_game(season_id, chance)
        started = time.perf_counter()
        snapshot = season_standings_recompute(season_id=season_id)
        times.append(time.perf_counter() - started)
        assert snapshot is not None
    parts = ("standings", "ratings", "nights")

    def stored() -> tuple:
        snapshot = StandingSnapshot.objects.filter(season_id=season_id).values_list(*parts).get()
        return snapshot, season_all_lines(season_id=season_id, kind="player")

    folded = stored()
    season_standings_recompute(season_id=season_id, force=True)
    recounted = stored()
    assert folded == recounted, "the incremental snapshot differs from a recompute from scratch"
    print("incremental check: after the new games, a recompute from scratch stores the same")
    return times


def time_sql(season_id: int) -> tuple[list[float], list[tuple]]:
    from django.db import connection

    times, rows = [], []
    for _ in range(RUNS):
        started = time.perf_counter()
        with connection.cursor() as cursor:
            cursor.execute(SQL, {"season": season_id})
            rows = cursor.fetchall()
        times.append(time.perf_counter() - started)
    return times, rows


def cross_check(season_id: int, rows: list[tuple]) -> None:
    """The SQL's counts equal the snapshot's (so both read the same hands)."""
    from scoring.selectors import season_all_lines

    lines = season_all_lines(season_id=season_id, kind="player")
    stats = {line["player_id"]: line for line in lines}
    for player_id, games, wins, points_for, points_against, hands, marches in rows:
        line = stats[player_id]
        assert (line["games"], line["wins"], line["hands"], line["marches"]) == (
            games,
            wins,
            hands,
            marches,
        ), (player_id, line, (games, wins, hands, marches))
        assert (line["points_for"], line["points_against"]) == (points_for, points_against)
    print(f"cross-check: the SQL aggregate and the snapshot agree for all {len(rows)} players")


def main() -> None:
    kept = recreate_database()
    try:
        setup_django()
        import scoring.standings

        # The playoff race is queued for a worker after each snapshot; with no broker here it
        # would run inline and be timed as part of the recompute. Leave it out.
        scoring.standings.race_compute_soon = lambda season_id: False
        season_id = kept_season() if kept else build_season()
        if PROFILE:
            profile_recompute(season_id)
        recompute = time_recompute(season_id)
        incremental = time_incremental(season_id)
        sql, rows = time_sql(season_id)
        cross_check(season_id, rows)
        median_recompute, median_sql = statistics.median(recompute), statistics.median(sql)
        median_incremental = statistics.median(incremental)
        print(
            f"(a) full recompute (force=True)  median {median_recompute:7.2f} s  "
            f"runs {', '.join(f'{t:.2f}' for t in recompute)}"
        )
        print(
            f"(b) one SQL aggregate             median {median_sql:7.2f} s  "
            f"runs {', '.join(f'{t:.2f}' for t in sql)}"
        )
        print(
            f"(c) incremental, one new game     median {median_incremental:7.2f} s  "
            f"runs {', '.join(f'{t:.2f}' for t in incremental)}"
        )
        print(f"ratio (a)/(b): {median_recompute / median_sql:.1f}x")
        print(f"ratio (c)/(b): {median_incremental / median_sql:.2f}x")
    finally:
        from django.db import connections

        connections.close_all()
        if not KEEP:
            drop_database()


if __name__ == "__main__":
    main()
