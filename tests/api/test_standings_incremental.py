"""The standings recompute against the engines: the snapshot stored by the recompute (shares
counted by the database, folded into running totals) equals what the pure engines compute from
every raw hand row, on seeded seasons of both formats; and after any sequence of hands, undos,
corrections, final scores, calls-off and settled disputes, each folded in incrementally, the
snapshot equals a recompute from scratch, line for line."""

from __future__ import annotations

import random
from collections import defaultdict
from contextlib import contextmanager
from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection, transaction
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from core.errors import DomainError
from league.models import Attendance, Night, Player, Season, Team
from scoring.games import services
from scoring.games.models import Game, Hand, ResultChange
from scoring.standings import selectors as standings_selectors
from scoring.standings.domain.ratings import compute_ratings
from scoring.standings.domain.standings import GameRecord, SideTally, compute_standings
from scoring.standings.domain.stats import HandTotals, player_stats, side_tallies, team_stats
from scoring.standings.models import StandingGame, StandingLine, StandingSnapshot
from scoring.standings.services import shares
from scoring.standings.services.recompute import (
    line_digest,
    season_rules,
    season_set_standing_rules,
    season_standings_recompute,
)
from tests.conftest import require
from tests.factories import GameFactory, NightFactory, SeasonFactory, team_game

pytestmark = pytest.mark.django_db

PARTS = ("standings", "player_stats", "team_stats", "ratings", "nights")
LINE_PARTS = {"player_stats": StandingLine.Kind.PLAYER, "team_stats": StandingLine.Kind.TEAM}


# --- the reference: every raw hand row through the pure engines (the recompute of before) -------


def reference_parts(season: Season) -> dict:
    """The snapshot's parts as the engines compute them from the season's raw rows."""
    is_teams = season.format == Season.Format.TEAMS
    games = Game.objects.filter(
        season=season, status=Game.Status.FINISHED, counts_for_standings=True
    )
    rows = list(
        games.order_by("finished_at", "pk").values_list(
            "pk", "seat_0_id", "seat_1_id", "seat_2_id", "seat_3_id", "team_a_id", "team_b_id",
            "score_a", "score_b", "winner", "night_id",
        )
    )  # fmt: skip
    if is_teams:
        rows = [row for row in rows if row[5] is not None and row[6] is not None]
    seats_of = {row[0]: row[1:5] for row in rows}
    hands = Hand.objects.filter(
        game__season=season, game__status=Game.Status.FINISHED, status=Hand.Status.ACTIVE,
        misdeal=False,
    ).values_list(
        "game_id", "number", "makers", "tricks_won", "caller_id", "caller_alone",
        "defender_alone", "renege", "thrown_in",
    )  # fmt: skip
    totals = HandTotals.from_rows(
        (game_id, number, seats, makers or None, tricks, caller, alone, defender, None,
         renege or None, thrown)
        for game_id, number, makers, tricks, caller, alone, defender, renege, thrown in hands
        if (seats := seats_of.get(game_id)) is not None
    )  # fmt: skip
    tallies = side_tallies(totals)
    records = []
    for order, (pk, s0, s1, s2, s3, team_a, team_b, score_a, score_b, winner, night) in enumerate(
        rows
    ):
        tally_a, tally_b = tallies.get(pk, (SideTally(), SideTally()))
        records.append(
            GameRecord(
                game_id=pk,
                side_a=(team_a,) if is_teams else (s0, s2),
                side_b=(team_b,) if is_teams else (s1, s3),
                points_a=score_a,
                points_b=score_b,
                winner=winner or None,
                night_id=night,
                played_order=order,
                tally_a=tally_a,
                tally_b=tally_b,
                players_a=(s0, s2) if is_teams else (),
                players_b=(s1, s3) if is_teams else (),
            )
        )
    seen = {entrant for r in records for entrant in (*r.side_a, *r.side_b)}
    if is_teams:
        names = dict(Team.objects.filter(pk__in=seen).values_list("pk", "name"))
        roster = list(season.teams.filter(is_withdrawn=False).values_list("pk", "name"))
        names.update(dict(roster))
        entrants = [pk for pk, _name in roster]
    else:
        # Listed too: whoever is seated in a game of the season not voided, or checked in on one
        # of its nights (an archived night's neither).
        seated = (
            Game.objects.filter(season=season)
            .exclude(status=Game.Status.VOIDED)
            .exclude(night__archived_at__isnull=False)
            .values_list("seat_0_id", "seat_1_id", "seat_2_id", "seat_3_id")
        )
        checked_in = Attendance.objects.filter(
            night__season=season, night__archived_at__isnull=True
        ).values_list("player_id", flat=True)
        listed = seen | {pk for seats in seated for pk in seats} | set(checked_in)
        names = dict(Player.objects.filter(pk__in=listed).values_list("pk", "name"))
        entrants = list(names)
    nights: dict = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    for r in records:
        if r.night_id is None:
            continue
        for side, entrants_of, points in (("A", r.side_a, r.points_a), ("B", r.side_b, r.points_b)):
            for entrant in entrants_of:
                line = nights[r.night_id][entrant]
                line[0] += 1
                line[1] += r.winner == side
                line[2] += points
    return {
        "standings": compute_standings(
            records, season_rules(season), entrants=entrants, names=names
        ).to_dict(),
        "player_stats": [line.to_dict() for line in player_stats(records, totals)],
        "team_stats": [line.to_dict() for line in team_stats(records, totals)] if is_teams else [],
        "ratings": [rating.to_dict() for rating in compute_ratings(records)],
        "nights": [
            {
                "night": night,
                "entrants": {
                    str(e): {"games": g, "wins": w, "points": p}
                    for e, (g, w, p) in sorted(lines.items())
                },
            }
            for night, lines in sorted(nights.items())
        ],
    }


def stored_parts(season: Season) -> dict:
    """The stored snapshot's parts; the player and team stats, which live only on the lines, as
    the lists the engines make (every line of the kind, by entrant id)."""
    snapshot = StandingSnapshot.objects.get(season=season)
    parts = {part: getattr(snapshot, part) for part in PARTS if part not in LINE_PARTS}
    for part, kind in LINE_PARTS.items():
        parts[part] = standings_selectors.season_all_lines(season_id=season.pk, kind=kind)
    return parts


def stored_lines(season: Season) -> dict:
    return {
        (kind, entrant): data
        for kind, entrant, data in StandingLine.objects.filter(season=season).values_list(
            "kind", "entrant_id", "data"
        )
    }


# --- seeded seasons ------------------------------------------------------------------------------


def random_hand(chance: random.Random, game: Game) -> services.HandInput:
    """Any hand a table may enter: made, marched, euchred, alone or not, a renege, thrown in,
    a misdeal, the caller recorded or not."""
    roll = chance.random()
    if roll < 0.05:
        return services.HandInput(thrown_in=True)
    if roll < 0.08:
        return services.HandInput(misdeal=True)
    makers = chance.choice("AB")
    seats = game.seat_player_ids
    side = (seats[0], seats[2]) if makers == "A" else (seats[1], seats[3])
    caller = chance.choice([*side, None])
    if roll < 0.15:
        return services.HandInput(makers=makers, caller_id=caller, renege=chance.choice("AB"))
    return services.HandInput(
        makers=makers,
        caller_id=caller,
        caller_alone=caller is not None and chance.random() < 0.2,
        defender_alone=chance.random() < 0.05,
        tricks_won=chance.choice([0, 1, 2, 3, 3, 4, 4, 5]),
    )


def play_out(chance: random.Random, game: Game, *, limit: int = 60) -> None:
    for _ in range(limit):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return
        try:
            services.hand_record(game=game, data=random_hand(chance, game))
        except DomainError:
            continue


def teams_of(season: Season, count: int) -> list[Team]:
    """``count`` new teams of the season, each of two new players."""
    league = season.league
    return [
        Team.objects.create(
            season=season,
            name=f"Team {n}",
            player_one=Player.objects.create(league=league, name=f"T{n} one"),
            player_two=Player.objects.create(league=league, name=f"T{n} two"),
        )
        for n in range(count)
    ]


def seeded_season(league, *, teams: bool, seed: int) -> Season:
    chance = random.Random(seed)
    season = SeasonFactory(
        league=league,
        format=Season.Format.TEAMS if teams else Season.Format.INDIVIDUAL,
        rulebook__slug="standard",
    )
    nights = [NightFactory(season=season) for _ in range(2)]
    if teams:
        roster = teams_of(season, 5)
    players = [Player.objects.create(league=league, name=f"P{n}") for n in range(8)]
    for number in range(9):
        night = chance.choice([*nights, None])
        if teams:
            first, second = chance.sample(roster, 2)
            game = team_game(season, first, second, night)
        else:
            seated = chance.sample(players, 4)
            game = GameFactory(
                season=season,
                night=night,
                **{f"seat_{seat}": player for seat, player in enumerate(seated)},
            )
        if number % 4 == 3:
            score_a, score_b = chance.choice([(10, 4), (6, 10), (10, 9)])
            services.game_record_final_score(game=game, score_a=score_a, score_b=score_b)
        else:
            play_out(chance, game)
    return season


@pytest.mark.parametrize("teams", [True, False])
@pytest.mark.parametrize("seed", [1, 2])
def test_the_recompute_stores_what_the_engines_compute_from_every_hand(league, teams, seed):
    season = seeded_season(league, teams=teams, seed=seed)
    season_standings_recompute(season_id=season.pk, force=True)
    expected = reference_parts(season)
    assert expected["standings"]["rows"] and expected["player_stats"]
    assert stored_parts(season) == expected
    stats = StandingLine.objects.filter(season=season, kind__in=["player", "team"])
    assert stats.count() == len(expected["player_stats"]) + len(expected["team_stats"])
    for kind, data, digest in stats.values_list("kind", "data", "digest"):
        assert digest == line_digest(data, kind) == line_digest(data)  # the digest of its data
    assert set(StandingGame.objects.filter(season=season).values_list("game_id", flat=True)) == set(
        Game.objects.filter(season=season, status=Game.Status.FINISHED).values_list("pk", flat=True)
    )


@pytest.mark.services  # the pass on PostgreSQL
@pytest.mark.django_db(transaction=True)
def test_recounts_of_one_season_wait_for_each_other(league):
    """A recount waits while another transaction holds the season's fold lock, and runs once it
    ends; another season's lock does not hold it up."""
    import threading

    import psycopg
    from django.db import connections

    from scoring.standings.locks import fold_lock_key

    require(connection.vendor == "postgresql", "the fold lock is PostgreSQL's")
    season = seeded_season(league, teams=False, seed=8)
    settings_dict = connection.settings_dict
    holder = psycopg.connect(
        dbname=settings_dict["NAME"],
        user=settings_dict["USER"],
        host=settings_dict["HOST"],
        port=settings_dict["PORT"] or 5432,
        password=settings_dict["PASSWORD"] or None,
    )
    lock = "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))"
    holder.execute(lock, [fold_lock_key(season.pk + 1)])  # another season's: no wait
    done = []

    def recount():
        try:
            season_standings_recompute(season_id=season.pk, force=True)
            done.append(True)
        finally:
            connections.close_all()

    first = threading.Thread(target=recount)
    first.start()
    first.join(timeout=30)
    assert done == [True]
    holder.execute(lock, [fold_lock_key(season.pk)])
    second = threading.Thread(target=recount)
    second.start()
    second.join(timeout=1.5)
    assert second.is_alive() and done == [True]  # waiting on the lock
    holder.rollback()  # the holder's transaction ends
    second.join(timeout=30)
    holder.close()
    assert done == [True, True]


def test_best_nights_and_chosen_tiebreaks_match_the_engines(league):
    season = seeded_season(league, teams=False, seed=3)
    season_set_standing_rules(
        season=season,
        rules={"tiebreaks": ["buchholz", "head_to_head", "marches"], "count_best_nights": 1},
    )
    season.refresh_from_db()
    season_standings_recompute(season_id=season.pk, force=True)
    assert stored_parts(season) == reference_parts(season)


# --- incremental against from scratch -------------------------------------------------------------

steps = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "hand",
                "hand",
                "hand",
                "finish",
                "undo",
                "correct",
                "final",
                "void",
                "settle",
                "finish_during",
            ]
        ),
        st.integers(0, 1),  # which game
        st.integers(0, 10_000),  # a seed for the hand's facts
    ),
    min_size=1,
    max_size=30,
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(teams=st.booleans(), steps=steps)
@example(  # a finished game reopened, corrected and finished again, a final score, a void
    teams=False,
    steps=[("finish", 0, 1), ("finish", 1, 2), ("undo", 0, 3), ("correct", 1, 4),
           ("finish", 0, 5), ("final", 1, 6), ("void", 1, 7), ("final", 1, 8)],
)  # fmt: skip
@example(teams=False, steps=[("finish", 0, 1), ("settle", 0, 2), ("settle", 0, 3)])
@example(  # a game finishes while the run that folds a correction reads (issue 32, item 2)
    teams=False,
    steps=[("finish", 0, 1), ("hand", 1, 2), ("correct", 0, 3), ("finish_during", 1, 4)],
)
@example(teams=True, steps=[("finish_during", 0, 1), ("finish_during", 1, 2), ("undo", 0, 3)])
@example(teams=True, steps=[("finish", 0, 1), ("undo", 0, 2)])  # left without a game: no
@example(teams=False, steps=[("finish", 0, 1), ("undo", 0, 2)])  # head-to-head from before
@example(
    teams=True,
    steps=[("finish", 0, 1), ("correct", 0, 2), ("finish", 1, 3), ("undo", 1, 4),
           ("undo", 1, 5), ("finish", 1, 6)],
)  # fmt: skip
def test_incremental_snapshots_equal_a_recompute_from_scratch(league, teams, steps):
    """Each example runs in a savepoint rolled back at its end."""
    with transaction.atomic():
        _check_incremental(league, teams, steps)
        transaction.set_rollback(True)


@contextmanager
def finishing_during_the_fold(game: Game, facts: random.Random):
    """While the recompute inside runs, ``game`` is played out (its change logged) just after
    the run has stored the shares it counted and before it reads anything else: as when a table
    finishes a game 0.2 s into a run on another connection."""
    real = shares.shares_replace
    done = []

    def replace_then_finish(season, game_ids):
        counted = real(season, game_ids)
        if not done:
            done.append(True)
            play_out(facts, game, limit=40)
        return counted

    with mock.patch.object(shares, "shares_replace", replace_then_finish):
        yield


@pytest.mark.parametrize("teams", [True, False])
def test_a_game_finishing_while_a_recompute_reads_is_folded_by_the_next_run(league, teams):
    """Issue 32, item 2: a run folding a correction replays the ratings in played order; a game
    that finished after the run counted its shares (``KeyError`` at ``shares[game_id]`` before:
    the order came from the games, the shares from what the run had stored). The run folds what
    it counted, the finished game's change stays pending, and the next run folds it."""
    season = seeded_season(league, teams=teams, seed=11)
    season_standings_recompute(season_id=season.pk, force=True)
    finished = Game.objects.filter(season=season, status=Game.Status.FINISHED, hands_played__gt=1)
    corrected = finished.first()
    services.hand_correct(
        game=corrected,
        number=corrected.hands.filter(status="active").order_by("number").first().number,
        data=services.HandInput(makers="A", tricks_won=3),
        reason="fix",
    )
    roster = list(Team.objects.filter(season=season)) if teams else []
    players = list(Player.objects.filter(league=league))
    late = _new_game(season, random.Random(3), roster, players, None)
    services.hand_record(game=late, data=services.HandInput(makers="B", tricks_won=3))
    with finishing_during_the_fold(late, random.Random(4)):
        assert season_standings_recompute(season_id=season.pk) is not None
    late.refresh_from_db()
    assert late.status == Game.Status.FINISHED
    assert not StandingGame.objects.filter(game=late).exists()  # not counted by that run
    assert ResultChange.objects.filter(season=season, game=late).exists()  # left pending
    assert season_standings_recompute(season_id=season.pk) is not None
    assert StandingGame.objects.filter(game=late).exists()
    folded = stored_parts(season)
    season_standings_recompute(season_id=season.pk, force=True)
    assert stored_parts(season) == folded == reference_parts(season)


@pytest.mark.parametrize("shared", [0, 1])
def test_a_game_folded_after_a_later_one_is_rated_on_when_they_share_no_player(
    league, monkeypatch, shared
):
    """Two tables end their games a moment apart and the later game's change is folded first.
    The earlier game is then rated after a game played after it: in played order only if the
    two share no player (a game's rating moves only its own players'). So the ratings go on
    from the stored ones without reading the season's games when they share none, and are
    replayed in played order when they share one; either way the snapshot is the one a
    recompute from scratch stores."""
    season = seeded_season(league, teams=False, seed=5)
    season_standings_recompute(season_id=season.pk, force=True)
    players = [Player.objects.create(league=league, name=f"Late {n}") for n in range(8)]
    seats = [players[:4], players[4 - shared : 8 - shared]]
    earlier, later = (
        GameFactory(season=season, **{f"seat_{n}": player for n, player in enumerate(four)})
        for four in seats
    )
    play_out(random.Random(1), later)
    season_standings_recompute(season_id=season.pk)
    play_out(random.Random(2), earlier)
    later.refresh_from_db()
    Game.objects.filter(pk=earlier.pk).update(finished_at=later.finished_at - timedelta(minutes=1))
    replays = []
    real = shares.meetings_in_played_order
    monkeypatch.setattr(
        shares, "meetings_in_played_order", lambda season: replays.append(1) or real(season)
    )
    assert season_standings_recompute(season_id=season.pk) is not None
    assert len(replays) == shared
    folded = stored_parts(season)
    season_standings_recompute(season_id=season.pk, force=True)
    assert stored_parts(season) == folded == reference_parts(season)


def test_a_change_counted_by_the_run_before_is_folded_as_no_change(league, monkeypatch):
    """A game ends just after a run read the pending changes and before it counted the games:
    the run counts the finished game, and the finishing hand's change is left for the next run.
    That run finds the game's share as stored, so it takes nothing out, puts nothing in and
    replays no ratings (it did before: a finished game's share counted again was a changed
    game's, which replays the season's ratings)."""
    season = seeded_season(league, teams=False, seed=7)
    season_standings_recompute(season_id=season.pk, force=True)
    players = [Player.objects.create(league=league, name=f"Late {n}") for n in range(4)]
    game = GameFactory(season=season, **{f"seat_{n}": player for n, player in enumerate(players)})
    services.hand_record(game=game, data=services.HandInput(makers="B", tricks_won=3))
    real = shares.shares_replace

    def finish_then_replace(season, game_ids):
        if game_ids is not None and game.pk in game_ids:
            play_out(random.Random(8), game, limit=40)  # its changes come after the run read
        return real(season, game_ids)

    with mock.patch.object(shares, "shares_replace", finish_then_replace):
        assert season_standings_recompute(season_id=season.pk) is not None
    assert StandingGame.objects.filter(game=game).exists()  # the run counted it finished
    assert ResultChange.objects.filter(game=game).exists()  # its last changes left pending
    folded = stored_parts(season)
    replays, counted = [], []
    monkeypatch.setattr(
        shares, "meetings_in_played_order", lambda season: replays.append(season) or []
    )
    real_counted = shares.shares_counted
    monkeypatch.setattr(
        shares,
        "shares_counted",
        lambda season, ids: counted.append(ids) or real_counted(season, ids),
    )
    assert season_standings_recompute(season_id=season.pk) is not None
    assert not ResultChange.objects.filter(game=game).exists()
    assert replays == [] and counted == []
    assert stored_parts(season) == folded
    monkeypatch.undo()
    season_standings_recompute(season_id=season.pk, force=True)
    assert stored_parts(season) == folded == reference_parts(season)


def test_a_fold_rewrites_the_nights_only_when_a_game_of_a_night_changed(league):
    """The nights part is one value of the snapshot row (a large season's half megabyte): a
    fold of games played on no night leaves it as stored; a game of a night rewrites it, that
    night's counts read and rendered again, the others kept as they were loaded."""
    season = seeded_season(league, teams=False, seed=9)
    season_standings_recompute(season_id=season.pk, force=True)
    nights_before = StandingSnapshot.objects.get(season=season).nights
    assert len(nights_before) >= 2
    players = list(Player.objects.filter(league=league)[:4])
    updates = []

    def watch(execute, sql, params, many, context):
        if sql.startswith("UPDATE") and StandingSnapshot._meta.db_table in sql:
            updates.append(sql)
        return execute(sql, params, many, context)

    night = Night.objects.get(pk=nights_before[0]["night"])
    for on_night in (None, night):
        game = GameFactory(
            season=season,
            night=on_night,
            **{f"seat_{n}": player for n, player in enumerate(players)},
        )
        play_out(random.Random(3), game, limit=40)
        updates.clear()
        with connection.execute_wrapper(watch):
            assert season_standings_recompute(season_id=season.pk) is not None
        sets_nights = [sql for sql in updates if '"nights" =' in sql]
        assert bool(sets_nights) == (on_night is not None), updates
    nights_after = StandingSnapshot.objects.get(season=season).nights
    assert nights_after[1:] == nights_before[1:]
    assert nights_after[0] != nights_before[0]
    folded = stored_parts(season)
    season_standings_recompute(season_id=season.pk, force=True)
    assert stored_parts(season) == folded == reference_parts(season)


def _new_game(season, chance, roster, players, night):
    if roster:
        first, second = chance.sample(roster, 2)
        return team_game(season, first, second, night)
    seated = chance.sample(players, 4)
    return GameFactory(
        season=season, night=night, **{f"seat_{n}": player for n, player in enumerate(seated)}
    )


def _check_incremental(league, teams, steps):
    chance = random.Random(len(steps))
    season = SeasonFactory(
        league=league,
        format=Season.Format.TEAMS if teams else Season.Format.INDIVIDUAL,
        rulebook__slug="standard",
    )
    night = NightFactory(season=season)
    roster = []
    if teams:
        roster = teams_of(season, 4)
    players = [Player.objects.create(league=league, name=f"P{n}") for n in range(6)]
    games = [
        _new_game(season, chance, roster, players, chance.choice([night, None])) for _ in range(4)
    ]
    season_standings_recompute(season_id=season.pk, force=True)
    for action, which, seed in steps:
        game = games[which]
        game.refresh_from_db()
        facts = random.Random(seed)
        try:
            if action == "hand":
                services.hand_record(game=game, data=random_hand(facts, game))
            elif action == "finish":
                play_out(facts, game, limit=40)
            elif action == "undo" and game.hands_played:
                number = game.hands.filter(status="active").order_by("-number").first().number
                services.hand_undo(game=game, number=number)
            elif action == "correct" and game.hands.filter(status="active").exists():
                number = game.hands.filter(status="active").order_by("number").first().number
                services.hand_correct(
                    game=game, number=number, data=random_hand(facts, game), reason="fix"
                )
            elif action == "settle" and game.hands.filter(status="active").exists():
                # the other side disputes a finished score; an organiser corrects hand 1
                services.game_dispute(game=game, reason="the first hand was wrong")
                services.game_settle_dispute(
                    game=game,
                    user=None,
                    decision="correct",
                    reason="fixed",
                    number=1,
                    data=random_hand(facts, game),
                )
            elif action == "final":
                services.game_record_final_score(game=game, score_a=10, score_b=facts.randrange(10))
            elif action == "void":
                services.game_void(game=game, reason="called off")
                games[which] = _new_game(season, chance, roster, players, night)
        except DomainError:
            pass
        if action == "finish_during":  # the game finishes while the run reads
            with finishing_during_the_fold(game, facts):
                season_standings_recompute(season_id=season.pk)
        season_standings_recompute(season_id=season.pk)  # folds the changes the step logged
    incremental = stored_parts(season)
    lines = stored_lines(season)
    season_standings_recompute(season_id=season.pk, force=True)
    assert stored_parts(season) == incremental
    assert stored_lines(season) == lines
    assert incremental == reference_parts(season)


def test_changed_games_are_folded_into_the_stored_totals_without_a_recount(league, monkeypatch):
    """After the first snapshot, a finished game, a reopened one and a correction are each
    folded in from the stored totals; a change of the standing rules recounts everything."""
    from scoring.standings.services import values

    paths = []
    real = values.season_fold

    def fold(season, rules, base, changed, basis):
        paths.append("from empty" if base is None else "incremental")
        return real(season, rules, base, changed, basis)

    monkeypatch.setattr(values, "season_fold", fold)
    _check_incremental(
        league, False, [("finish", 0, 1), ("undo", 0, 2), ("correct", 0, 3), ("finish", 0, 4)]
    )
    assert paths[0] == "from empty"
    assert paths[1:-1] and set(paths[1:-1]) == {"incremental"}
    assert paths[-1] == "from empty"  # the check's own recompute with force
    season = Season.objects.latest("pk")
    season_set_standing_rules(season=season, rules={"tiebreaks": ["wins", "buchholz"]})
    paths.clear()
    season_standings_recompute(season_id=season.pk)
    assert paths == ["from empty"]
    assert stored_parts(season) == reference_parts(season)


def share_writers(season: Season) -> dict[int, str] | None:
    """On PostgreSQL, the transaction that last wrote each of the season's shares (``xmin``)."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT game_id, xmin::text FROM scoring_standinggame WHERE season_id = %s",
            [season.pk],
        )
        return dict(cursor.fetchall())


def test_a_recount_from_empty_writes_only_the_shares_and_lines_that_changed(league):
    """A standing-rules change folds from empty and counts every game again, yet stores only
    what differs: no share and no stats line is written again (their rows and digests stay),
    and the snapshot is still what the engines compute. A correction then recounted from empty
    (``force``) rewrites that game's share alone."""
    season = seeded_season(league, teams=False, seed=5)
    season_standings_recompute(season_id=season.pk, force=True)

    def stored() -> tuple[dict, dict]:
        shares = {
            game: (pk, row)
            for pk, game, *row in StandingGame.objects.filter(season=season).values_list(
                "pk", "game_id", "a0", "b0", "c0", "score_a", "winner"
            )
        }
        stats = dict(
            StandingLine.objects.filter(season=season, kind="player").values_list("pk", "digest")
        )
        return shares, stats

    shares, stats = stored()
    writers = share_writers(season)
    season_set_standing_rules(season=season, rules={"min_games": 2})
    season_standings_recompute(season_id=season.pk)
    assert stored() == (shares, stats)
    assert share_writers(season) == writers  # not even written over with the same values
    assert stored_parts(season) == reference_parts(season)

    # The other player of the makers' side called: the same points, other caller counts.
    hand = Hand.objects.filter(
        game__season=season, game__status=Game.Status.FINISHED, status=Hand.Status.ACTIVE,
        makers__in=["A", "B"], caller_alone=False, thrown_in=False, misdeal=False,
    ).order_by("game_id", "number").select_related("game").first()  # fmt: skip
    corrected = hand.game
    first = 0 if hand.makers == "A" else 1
    side = [corrected.seat_player_ids[first], corrected.seat_player_ids[first + 2]]
    caller = side[1] if hand.caller_id == side[0] else side[0]
    services.hand_correct(
        game=corrected,
        number=hand.number,
        data=services.HandInput(
            makers=hand.makers, caller_id=caller, tricks_won=hand.tricks_won,
            renege=hand.renege or None,
        ),
        reason="the partner called",
    )  # fmt: skip
    assert Game.objects.get(pk=corrected.pk).status == Game.Status.FINISHED
    season_standings_recompute(season_id=season.pk, force=True)
    after, _stats = stored()
    assert after.keys() == shares.keys()
    assert [game for game in shares if after[game] != shares[game]] == [corrected.pk]
    assert after[corrected.pk][0] == shares[corrected.pk][0]  # updated in place
    assert stored_parts(season) == reference_parts(season)


def test_kept_opponent_records_are_the_lines_and_stay_within_their_bound():
    """The head-to-head records kept between recomputes, by line digest: the same records as
    the line's, the least recently used dropped first, never more than the bound."""
    from scoring.standings.services.values import OpponentRecords

    def line(other: int) -> list[int]:  # a stored line's opponents: other, wins, losses, draws
        return [other, 2, 1, 0]

    kept = OpponentRecords(capacity=2)
    assert kept.put("a", line(7)) == {7: (2, 1, 0)}
    assert kept.get("a") == {7: (2, 1, 0)} and kept.get("b") is None
    kept.put("b", line(8))
    kept.get("a")  # "b" is now the least recently used
    kept.put("c", line(9))
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == ({7: (2, 1, 0)}, None, {9: (2, 1, 0)})
    assert kept.size == 2
    assert kept.put("", line(5)) == {5: (2, 1, 0)} and kept.get("") is None  # no digest: not kept
    assert kept.put("d", line(1) + line(2) + line(3)) and kept.get("d") is None  # over the bound
