"""A full standings recompute of a large season on PostgreSQL, side by side with the tightest
hand-written SQL aggregate of the same rows, in the same run.

Run: ``python benchmarks/bench_standings_pg.py``. Needs PostgreSQL on 127.0.0.1
(``BENCH_DATABASE_URL`` overrides); creates and drops its own database ``euchre_bench_standings``
(``BENCH_DATABASE_NAME`` names another). Prints its figures; not a test. ``BENCH_KEEP=1`` keeps
the database afterwards and reuses a kept one instead of building it again (for profiling:
``BENCH_PROFILE=1`` prints a cProfile of one recompute); ``BENCH_PLAYERS`` and ``BENCH_HANDS``
size the season, ``BENCH_RUNS`` the rounds.

The season: individual format, 1,000 players, partners rotating at random, games of 8–12 hands
under standard rules (make 1, march 2, loner march 4, euchre 2), 1,000,000 hands over 10 nights
(the size the target is set at), all bulk-created. Each round times, one after the other:

(floor) one SQL statement: per player, games, wins, points for and against, hands and marches
    (in play), each game's hands summed once and then expanded to its four seats (the tightest
    of the forms tried; the best of two executions);
(rewrite) the full recompute that rewrites everything it stores: nothing stored before (the
    snapshot, its lines and the shares deleted first, as for a season's first recompute), so
    every game's share, every stats line (a large season's tens of megabytes), the standings
    rows and the snapshot are written. The target (issue 30): at most 3x the floor;
(rules) a standing-rules change (``season_set_standing_rules`` between two minimums of games,
    then the queued ``season_standings_recompute``): the same fold from empty, counting every
    game's hands again, but the shares and stats lines it would write are those already stored
    (the rules change neither), so it rewrites the snapshot and the standings rows only. A
    rerun that changes little: it measures the counting and a comparison, not the writes.
(domain alone) the part of a fold from empty that no SQL does, timed alone on the stored shares'
    sums and meetings (read first, untimed): the running totals, the Buchholz scores, the
    standings, the ratings replayed over every game and every stats line rendered
    (:func:`time_domain`). The floor computes none of it; the full recompute cannot take less
    than this plus its counting of the hands, which alone costs more than the floor.

Both are the one recompute (``season_standings_recompute``): a full recompute is the
incremental fold started from empty. Before the rounds, one recompute from scratch stores the
snapshot, lines and shares as the code under test stores them (untimed): the state a season is
in before its rules change. Outside the timing, the shares and lines tables are vacuumed and
analysed before each timed recompute and after the rewrite (as autovacuum would after a
rewrite). Each recompute's ratio to its round's floor is printed, then the min/median/max over
the rounds, in wall time and in CPU time (on a machine others use, wall time is noisy: the CPU
is this process's plus its PostgreSQL backend's, read from ``/proc`` when the server runs on this
machine; the floor's CPU from one more execution without parallel workers, all of whose work is
then its backend's). Then: an incremental recompute after one new finished game (its change logged),
three times, and a check that a recompute from scratch then stores the very same snapshot; and
a cross-check that the floor's counts are the snapshot's.
"""

import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADMIN_URL = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
DATABASE_NAME = os.environ.get("BENCH_DATABASE_NAME", "euchre_bench_standings")
sys.path.insert(0, str(ROOT))
from benchmarks.databases import BenchDatabase, setup_django  # noqa: E402

DATABASE = BenchDatabase(ADMIN_URL, DATABASE_NAME)
DATABASE_URL = DATABASE.url
PLAYERS = int(os.environ.get("BENCH_PLAYERS", "1000"))
HANDS = int(os.environ.get("BENCH_HANDS", "1000000"))
NIGHTS = 10
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
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
WITH per_game AS (
    -- each game's hands summed once: a march counts for a player in play (not the partner of a
    -- lone caller), so the lone callers' marches are kept apart, by the caller's seat
    SELECT h.game_id,
           count(*) AS hands,
           count(*) FILTER (WHERE h.makers = 'A' AND h.tricks_won = 5 AND NOT h.caller_alone)
               AS marches_a,
           count(*) FILTER (WHERE h.makers = 'B' AND h.tricks_won = 5 AND NOT h.caller_alone)
               AS marches_b,
           count(*) FILTER (WHERE h.caller_alone AND h.tricks_won = 5 AND h.caller_id = g.seat_0_id)
               AS lone_0,
           count(*) FILTER (WHERE h.caller_alone AND h.tricks_won = 5 AND h.caller_id = g.seat_1_id)
               AS lone_1,
           count(*) FILTER (WHERE h.caller_alone AND h.tricks_won = 5 AND h.caller_id = g.seat_2_id)
               AS lone_2,
           count(*) FILTER (WHERE h.caller_alone AND h.tricks_won = 5 AND h.caller_id = g.seat_3_id)
               AS lone_3
    FROM scoring_hand h
    JOIN scoring_game g ON g.id = h.game_id
    WHERE g.season_id = %(season)s AND g.status = 'finished'
      AND h.status = 'active' AND NOT h.misdeal
    GROUP BY h.game_id
)
SELECT s.player_id,
       count(*) AS games,
       count(*) FILTER (WHERE g.winner = s.side) AS wins,
       sum(s.points_for) AS points_for,
       sum(s.points_against) AS points_against,
       coalesce(sum(s.hands), 0) AS hands,
       coalesce(sum(s.marches), 0) AS marches
FROM scoring_game g
LEFT JOIN per_game p ON p.game_id = g.id
CROSS JOIN LATERAL (VALUES
    (g.seat_0_id, 'A', g.score_a, g.score_b, p.hands, p.marches_a + p.lone_0),
    (g.seat_1_id, 'B', g.score_b, g.score_a, p.hands, p.marches_b + p.lone_1),
    (g.seat_2_id, 'A', g.score_a, g.score_b, p.hands, p.marches_a + p.lone_2),
    (g.seat_3_id, 'B', g.score_b, g.score_a, p.hands, p.marches_b + p.lone_3)
) AS s(player_id, side, points_for, points_against, hands, marches)
WHERE g.season_id = %(season)s AND g.status = 'finished'
GROUP BY s.player_id
ORDER BY wins DESC, points_for DESC
"""
"""The floor. Summing each game's hands once before expanding to its seats reads the same rows
as the first form of this benchmark (every hand joined to its four seats, then grouped), which
took 2.3x as long at 1M hands; the counts are the same (``cross_check``)."""


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
    from scoring.games.models import Game, new_captain_token

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
    from scoring.games.models import Game, Hand

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

    from scoring.standings.services.recompute import season_standings_recompute

    profiler = cProfile.Profile()
    profiler.enable()
    season_standings_recompute(season_id=season_id, force=True)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)


def vacuum() -> None:
    """What autovacuum does after a rewrite of the shares and the lines, outside the timing."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE scoring_standinggame, scoring_standingline")


class Clock:
    """Wall and CPU seconds of a block: the CPU of this process and of the connection's
    PostgreSQL backend (``None`` when the server's ``/proc`` is not this machine's)."""

    def __enter__(self) -> "Clock":
        self.cpu_started = cpu_seconds()
        self.started = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        self.wall = time.perf_counter() - self.started
        ended = cpu_seconds()
        started = self.cpu_started
        self.cpu = None if ended is None or started is None else ended - started


def cpu_seconds() -> float | None:
    """CPU seconds used so far by this process and by its connection's PostgreSQL backend."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    backend = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
    return time.process_time() + backend


def time_rules_change(season_id: int, round_number: int) -> Clock:
    """A standing-rules change (the minimum of games, between two values that rank everyone),
    then the recompute it queues: timed."""
    from league.models import Season
    from scoring.games import jobs
    from scoring.standings.services.recompute import (
        season_set_standing_rules,
        season_standings_recompute,
    )

    season = Season.objects.get(pk=season_id)
    send, jobs.send_standings_recompute = jobs.send_standings_recompute, lambda *a, **k: True
    try:
        season_set_standing_rules(season=season, rules={"min_games": round_number % 2 + 1})
    finally:
        jobs.send_standings_recompute = send
    vacuum()
    with Clock() as clock:
        snapshot = season_standings_recompute(season_id=season_id)
    assert snapshot is not None
    return clock


def time_rewrite(season_id: int) -> Clock:
    """A recompute with no snapshot, lines or shares stored, which writes them all: timed."""
    from scoring.standings.models import StandingGame, StandingLine, StandingSnapshot
    from scoring.standings.services.recompute import season_standings_recompute

    StandingSnapshot.objects.filter(season_id=season_id).delete()
    StandingLine.objects.filter(season_id=season_id).delete()
    StandingGame.objects.filter(season_id=season_id).delete()
    vacuum()
    with Clock() as clock:
        snapshot = season_standings_recompute(season_id=season_id)
    assert snapshot is not None
    vacuum()  # the tables' statistics are of the empty tables until autovacuum's analyze
    return clock


def time_domain(season_id: int) -> Clock:
    """The work of a fold from empty that no SQL does, alone: with the stored shares' sums and
    meetings read first (untimed), the pure domain code the rewrite runs on them, timed: the
    running totals folded (seat sums, then each meeting's pair counts and nights), the Buchholz
    scores, the standings ranked, the ratings replayed over every game in played order, and
    every player's stats line rendered with its digest. The floor computes none of these."""
    from league.models import Player, Season
    from scoring.standings.domain.ratings import ratings_after
    from scoring.standings.domain.season_totals import SeasonTotals, buchholz_changes
    from scoring.standings.services.recompute import season_rules
    from scoring.standings.services.shares import shares_counted

    season = Season.objects.get(pk=season_id)
    rules = season_rules(season)
    counted = shares_counted(season, None)
    names = dict(Player.objects.filter(league_id=season.league_id).values_list("pk", "name"))
    with Clock() as clock:
        totals = SeasonTotals(is_teams=False)
        totals.add_counted(counted)
        buchholz = buchholz_changes(totals, {}, {})
        totals.standings(rules, entrants=list(totals.records), names=names, buchholz=buchholz)
        ratings_after(((m[1], m[3]), (m[2], m[4]), m[7] or None, False) for m in counted.meetings)
        for player in totals.players:
            totals.player_digest(player)
            totals.player_line(player)
    return clock


def describe_snapshot(season_id: int) -> None:
    from scoring.standings.models import StandingLine, StandingSnapshot

    stored = StandingSnapshot.objects.get(season_id=season_id)
    stat_lines = StandingLine.objects.filter(season_id=season_id, kind="player").count()
    print(
        f"snapshot: {len(stored.standings['rows'])} ranked rows, {stat_lines} stat "
        f"lines, {len(stored.ratings)} ratings; compute part {stored.duration_ms} ms"
    )


def add_finished_game(season_id: int, chance: random.Random) -> int:
    """One more finished game of 8-12 hands, played after every other: what a table finishing a
    game adds. Returns its id; the change is logged (a ``ResultChange``) as a hand's would be."""
    from django.db import transaction
    from django.utils import timezone

    from league.models import Night, Player, Season
    from scoring.games.models import Hand, ResultChange

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
    from scoring.standings.models import StandingSnapshot
    from scoring.standings.selectors import season_all_lines
    from scoring.standings.services.recompute import season_standings_recompute

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


def time_floor(season_id: int) -> tuple[float, float | None, list[tuple]]:
    """The floor query, twice: the faster time; then its CPU, from one more execution without
    parallel workers (all its work then in its backend); and its rows."""
    from django.db import connection, transaction

    times, rows = [], []
    for _ in range(2):
        started = time.perf_counter()
        with connection.cursor() as cursor:
            cursor.execute(SQL, {"season": season_id})
            rows = cursor.fetchall()
        times.append(time.perf_counter() - started)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL max_parallel_workers_per_gather = 0")
        with Clock() as clock:
            cursor.execute(SQL, {"season": season_id})
            cursor.fetchall()
    return min(times), clock.cpu, rows


def cross_check(season_id: int, rows: list[tuple]) -> None:
    """The SQL's counts equal the snapshot's (so both read the same hands)."""
    from scoring.standings.selectors import season_all_lines

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


def spread(ratios: list[float]) -> str:
    return (
        f"min {min(ratios):.2f}x  median {statistics.median(ratios):.2f}x  max {max(ratios):.2f}x"
    )


def main() -> None:
    kept = DATABASE.recreate(keep=KEEP)
    try:
        setup_django(ENV, without=("REDIS_URL",))
        from scoring.games import jobs

        # The playoff race is queued for a worker after each snapshot; with no broker here it
        # would run inline and be timed as part of the recompute. Leave it out.
        jobs.race_compute_soon = lambda season_id: False
        season_id = kept_season() if kept else build_season()
        if PROFILE:
            profile_recompute(season_id)
        # Untimed: the snapshot, lines and shares as this code stores them, as a season has them
        # before its rules change (a fresh build has none; a kept one may have another version's).
        from scoring.standings.services.recompute import season_standings_recompute

        season_standings_recompute(season_id=season_id, force=True)
        ratios: dict[str, list[float]] = {"rewrite": [], "rules": [], "rewrite cpu": []}
        ratios["rules cpu"] = []
        ratios["domain"] = []
        rows = []
        for round_number in range(RUNS):
            floor, floor_cpu, rows = time_floor(season_id)
            rewrite = time_rewrite(season_id)
            rules = time_rules_change(season_id, round_number)
            domain = time_domain(season_id)
            ratios["rewrite"].append(rewrite.wall / floor)
            ratios["rules"].append(rules.wall / floor)
            ratios["domain"].append(domain.wall / floor)
            line = (
                f"round {round_number + 1}: wall: floor {floor:5.2f} s | "
                f"rewrite {rewrite.wall:5.2f} s ({rewrite.wall / floor:4.2f}x) | "
                f"rules change {rules.wall:5.2f} s ({rules.wall / floor:4.2f}x) | "
                f"domain alone {domain.wall:5.2f} s ({domain.wall / floor:4.2f}x)"
            )
            if floor_cpu and rewrite.cpu is not None and rules.cpu is not None:
                ratios["rewrite cpu"].append(rewrite.cpu / floor_cpu)
                ratios["rules cpu"].append(rules.cpu / floor_cpu)
                line += (
                    f"\n         cpu:  floor {floor_cpu:5.2f} s | "
                    f"rewrite {rewrite.cpu:5.2f} s ({rewrite.cpu / floor_cpu:4.2f}x) | "
                    f"rules change {rules.cpu:5.2f} s ({rules.cpu / floor_cpu:4.2f}x)"
                )
            print(line, flush=True)
        describe_snapshot(season_id)
        cross_check(season_id, rows)
        incremental = time_incremental(season_id)
        for name, label in (
            ("rewrite", "full recompute that rewrites"),
            ("rules", "rules change (rewrites the snapshot only)"),
        ):
            print(f"{label} / floor, wall: {spread(ratios[name])}")
            if ratios[f"{name} cpu"]:
                print(f"{label} / floor, cpu:  {spread(ratios[f'{name} cpu'])}")
        print(
            "the fold's domain work alone (no SQL: totals, Buchholz, standings, ratings, stats "
            f"lines) / floor, wall: {spread(ratios['domain'])}"
        )
        print("target for the full recompute that rewrites: at most 3.00x")
        print(
            f"incremental, one new game:  median {statistics.median(incremental):.2f} s  "
            f"runs {', '.join(f'{t:.2f}' for t in incremental)}"
        )
    finally:
        from django.db import connections

        connections.close_all()
        if not KEEP:
            DATABASE.drop()


if __name__ == "__main__":
    main()
