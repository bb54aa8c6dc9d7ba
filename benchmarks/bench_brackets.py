"""A 1,024-team double elimination built and played through the services, with random results.

Run from the repository root: ``python benchmarks/bench_brackets.py`` (a throwaway SQLite file,
the embedded shape), or with ``BENCH_DATABASE_URL=postgres://…`` for PostgreSQL (its tables are
created in that database and dropped afterwards by Django's test-database machinery). Set
``BENCH_TEAMS`` for another field size. Prints its figures; not a test.

Every game is finished through ``scoring.games.services.game_record_final_score``; its
``game_finished`` signal (sent on commit) runs ``bracket_advance``, which decides the match,
moves its teams on to the matches it feeds (not the whole bracket) and creates the games of the
matches that became ready, with their links: the lock, one read, one UPDATE, and the game and
its link when a match became ready. Figures:

- *create*: ``bracket_create`` (seeds by hand) and ``bracket_publish`` (512 first games);
- *per game*: the whole ``game_record_final_score`` call, advance included;
- *per advance*: the ``bracket_advance`` call alone, its time and its database queries
  (counted by an ``execute_wrapper``, which sees SQLite's ``BEGIN IMMEDIATE`` but not
  psycopg's ``BEGIN``, and neither commit), which should not grow with the field, and their
  total over the whole bracket (target for 1,024 teams: under 10 s);
- *floors*, measured in the same run, and the advance's ratio to each: a bare write of what an
  advance must write (lock the bracket row, UPDATE the finished match and the match it feeds, in
  one transaction, committed as durably as the advance), its median and its total for as many
  writes as there were advances (the ratio of the totals is the ratio of the means), and the
  pure engine's ``advance`` of one result (no database).

With ``BENCH_DATABASE_URL``, ``BENCH_DATABASE_NAME`` names the throwaway database (default:
``test_`` and the URL's name), e.g. ``BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/x
BENCH_DATABASE_NAME=bench_helper_brackets``.

On PostgreSQL the tables are analysed once the bracket is published, as autovacuum would have
done long before its first game ends (``autovacuum_naptime`` is a minute): the advance's plans
are those of a database with statistics.

The standings recompute that each finished game enqueues is switched off here: in the embedded
shape it would run eagerly inside every call and dominate the figures (it has its own benchmark,
``bench_standings_engine.py``, and runs on a worker in production).
"""

import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEAMS = int(os.environ.get("BENCH_TEAMS", "1024"))
SEED = 1


def setup() -> object:
    workdir = Path(tempfile.mkdtemp(prefix="bench-brackets-"))
    database_url = os.environ.get("BENCH_DATABASE_URL", "")
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "SQLITE_PATH": str(workdir / "bench.sqlite3"),
            "DATABASE_URL": database_url,
            "REDIS_URL": "",
            "SECURE_SSL_REDIRECT": "0",
            "LOG_LEVEL": "ERROR",
        }
    )
    os.environ.setdefault("SECRET_KEY", "bench")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    if database_url:
        if os.environ.get("BENCH_DATABASE_NAME"):
            connection.settings_dict["TEST"]["NAME"] = os.environ["BENCH_DATABASE_NAME"]
        creation = connection.creation
        old_name = creation.create_test_db(verbosity=0, autoclobber=True)
        return lambda: creation.destroy_test_db(old_name, verbosity=0)
    call_command("migrate", verbosity=0)
    return lambda: None


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> None:
    teardown = setup()
    try:
        run()
    finally:
        teardown()


def run() -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from league import services as league_services
    from league.models import Player, Team
    from scoring.games import services as scoring_services
    from scoring.games.models import Game
    from scoring.games.services import game_state
    from tournaments.models import Bracket, BracketMatchGame
    from tournaments.selectors.brackets import bracket_summary
    from tournaments.services.brackets import advance
    from tournaments.services.brackets.create import bracket_create, bracket_publish

    game_state.enqueue_standings = lambda season_id: None  # see the module docstring
    print(f"database: {connection.vendor}; {TEAMS} teams, double elimination with a reset")

    user = get_user_model().objects.create_user("bench", password=uuid.uuid4().hex)
    league = league_services.league_create(name="Bench league", owner=user)
    season = league_services.season_create(league=league, name="Bench", preset="standard")
    players = Player.objects.bulk_create(
        Player(league=league, name=f"Player {number}") for number in range(2 * TEAMS)
    )
    teams = Team.objects.bulk_create(
        Team(
            season=season,
            name=f"Team {number + 1}",
            player_one=players[2 * number],
            player_two=players[2 * number + 1],
        )
        for number in range(TEAMS)
    )

    started = time.perf_counter()
    bracket = bracket_create(
        season=season, user=user, kind="double", grand_final_reset=True, teams=teams
    )
    created = time.perf_counter() - started
    started = time.perf_counter()
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as publish_queries:
        bracket_publish(bracket=bracket, user=user)
    published = time.perf_counter() - started
    if connection.vendor == "postgresql":
        # The statistics autovacuum gathers within a minute of the rows' arrival, long before a
        # bracket's first game ends; without them the planner takes the bracket's 1,024 new
        # entries for one row and reads them all for each match an advance loads.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    print(
        f"create: {bracket.matches.count()} matches in {created:.2f} s; publish: "
        f"{BracketMatchGame.objects.count()} games in {published:.2f} s "
        f"({len(publish_queries)} queries)"
    )

    advance_times: list[float] = []
    advance_queries: list[int] = []
    original_advance = advance.bracket_advance

    advance_cpu: list[float] = []

    def measured_advance(*, game_id):
        count = [0]

        def counted(execute, sql, params, many, context):  # lighter than the debug cursor
            count[0] += 1
            return execute(sql, params, many, context)

        with connection.execute_wrapper(counted):
            began, began_cpu = time.perf_counter(), time.process_time()
            result = original_advance(game_id=game_id)
            advance_cpu.append((time.process_time() - began_cpu) * 1000)
            advance_times.append((time.perf_counter() - began) * 1000)
        advance_queries.append(count[0])
        return result

    advance.bracket_advance = measured_advance
    rng = random.Random(SEED)
    game_times: list[float] = []
    started = time.perf_counter()
    while True:
        waiting = list(
            Game.objects.filter(
                bracket_link__match__bracket=bracket,
                bracket_link__status=BracketMatchGame.Status.COUNTING,
            )
            .exclude(status=Game.Status.FINISHED)
            .order_by("pk")
        )
        if not waiting:
            break
        for game in waiting:
            score = (10, rng.randrange(0, 10))
            if rng.random() < 0.5:
                score = score[::-1]
            began = time.perf_counter()
            scoring_services.game_record_final_score(game=game, score_a=score[0], score_b=score[1])
            game_times.append((time.perf_counter() - began) * 1000)
    total = time.perf_counter() - started
    advance.bracket_advance = original_advance

    bracket = Bracket.objects.get(pk=bracket.pk)
    summary = bracket_summary(bracket=bracket)
    print(
        f"played: {len(game_times)} games in {total:.1f} s; bracket {bracket.status}, "
        f"champion {summary.champion}"
    )
    print(
        f"per game (record + advance): median {statistics.median(game_times):.1f} ms, "
        f"p95 {percentile(game_times, 0.95):.1f} ms, max {max(game_times):.1f} ms"
    )
    print(
        f"per advance: median {statistics.median(advance_times):.1f} ms, "
        f"p95 {percentile(advance_times, 0.95):.1f} ms, max {max(advance_times):.1f} ms; "
        f"queries median {statistics.median(advance_queries):.0f}, "
        f"min {min(advance_queries)}, max {max(advance_queries)}"
    )
    print(
        f"all advances: {len(advance_times)} in {sum(advance_times) / 1000:.2f} s "
        f"({sum(advance_cpu) / 1000:.2f} s of CPU in this process; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    floors(bracket, advance_times)


def floors(bracket, advance_times: list[float]) -> None:
    """The bare costs an advance cannot go below, measured here, and the advance's ratio."""
    from django.db import transaction

    from tournaments.domain.brackets import MatchState, MatchStatus, advance, play
    from tournaments.models import Bracket, BracketMatch
    from tournaments.selectors.bracket_structure import bracket_structure

    structure = bracket_structure(bracket)
    rows = {row.code: row for row in bracket.matches.all()}
    feeds = [
        (rows[code], rows[fed[0]])
        for code, fed in structure.downstream.items()
        if fed and rows[code].status == BracketMatch.Status.DECIDED
    ]

    def bare_writes() -> list[float]:
        times = []
        for match, fed in feeds:
            began = time.perf_counter()
            with transaction.atomic():
                Bracket.objects.select_for_update().get(pk=bracket.pk)
                BracketMatch.objects.filter(pk=match.pk).update(
                    status=match.status, winner=match.winner_id, decided_by=match.decided_by
                )
                BracketMatch.objects.filter(pk=fed.pk).update(
                    first_team=fed.first_team_id, second_team=fed.second_team_id, status=fed.status
                )
            times.append((time.perf_counter() - began) * 1000)
        return times

    times = bare_writes()
    write = statistics.median(times)
    advance_median = statistics.median(advance_times)
    advance_mean, write_mean = statistics.fmean(advance_times), statistics.fmean(times)

    rng = random.Random(SEED)
    results: dict[str, int] = {}
    state = play(structure, results)
    kept = {
        code: MatchState(
            code,
            match.status,
            match.first if isinstance(match.first, int) else None,
            match.second if isinstance(match.second, int) else None,
        )
        for code, match in state.matches.items()
    }
    ready = [code for code, match in kept.items() if match.status is MatchStatus.READY]
    engine = []
    while ready:
        code = ready.pop(0)
        winner = rng.choice((kept[code].first, kept[code].second))
        began = time.perf_counter()
        changed = advance(structure, kept, code=code, winner=winner)
        engine.append((time.perf_counter() - began) * 1000)
        kept.update(changed)
        ready.extend(other for other, match in changed.items() if match.status is MatchStatus.READY)
    domain = statistics.median(engine)
    print(
        f"floor, bare write (lock + UPDATE match and the one it feeds, one durable commit): "
        f"median {write:.2f} ms over {len(times)}, {write_mean * len(advance_times) / 1000:.2f} s "
        f"for {len(advance_times)}; advance / floor = {advance_median / write:.1f}x (medians), "
        f"{advance_mean / write_mean:.2f}x (totals)"
    )
    print(
        f"floor, engine advance alone: median {domain * 1000:.1f} us over {len(engine)} "
        f"results; advance / floor = {advance_median / domain:.0f}x"
    )


if __name__ == "__main__":
    main()
