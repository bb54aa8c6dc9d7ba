"""The standings service: load a season's finished games and hands, call the standings, stats and
ratings engines, and store one snapshot. Also how a recompute is asked for, coalesced.

- *results version*: a counter on the season raised by every change to its results (a hand
  recorded, undone or corrected, a rulebook change). A snapshot remembers the version it was
  computed from; a recompute with nothing newer does nothing (idempotent).
- *coalescing*: forty tables entering hands at once ask for forty recomputes; only one is queued
  at a time per season (a short-lived cache key), and it reads the newest version when it runs.
"""

from __future__ import annotations

import gc
import hashlib
import json
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone

from league.errors import DomainError
from league.models import Player, Season, Team
from scoring import jobs
from scoring.domain.ratings import compute_ratings
from scoring.domain.standings import GameRecord, SeasonRules, SideTally, compute_standings
from scoring.domain.stats import HandTotals, player_stats, side_tallies, team_stats
from scoring.models import Game, Hand, StandingLine, StandingSnapshot

PENDING_SECONDS = 30
"""How long a queued recompute keeps others from queueing (longer than any recompute waits)."""
COALESCE_COUNTDOWN = 1.0
"""Seconds a queued recompute waits, so a burst of hands is computed once."""


def _pending_key(season_id: int) -> str:
    return f"standings:pending:{season_id}"


def race_pending_key(season_id: int) -> str:
    return f"race:pending:{season_id}"


def race_compute_soon(season_id: int) -> bool:
    """Queue the season's playoff race (``scoring.race``) unless it is already queued; say whether
    this call queued it. Asked for after each new snapshot, coalesced like the recompute."""
    if not cache.add(race_pending_key(season_id), 1, timeout=PENDING_SECONDS):
        return False
    if not jobs.send_race_compute(season_id, countdown=COALESCE_COUNTDOWN):
        cache.delete(race_pending_key(season_id))  # not queued: the sweep or the next change will
        return False
    return True


def standings_recompute_soon(season_id: int) -> bool:
    """Queue a recompute unless one is already queued; say whether this call queued it."""
    if not cache.add(_pending_key(season_id), 1, timeout=PENDING_SECONDS):
        return False
    if not jobs.send_standings_recompute(season_id, countdown=COALESCE_COUNTDOWN):
        cache.delete(_pending_key(season_id))  # not queued: let the next change try again
        return False
    return True


def season_rules(season: Season) -> SeasonRules:
    return _rules_from(season.standing_rules or {})


def _rules_from(options: dict[str, Any]) -> SeasonRules:
    values = dict(options)
    if "tiebreaks" in values:
        values["tiebreaks"] = tuple(values["tiebreaks"])
    unknown = sorted(set(values) - set(SeasonRules.__dataclass_fields__))
    if unknown:
        raise DomainError(f"unknown standings option: {', '.join(unknown)}", field=unknown[0])
    return SeasonRules(**values)


_GAME_COLUMNS = (
    "pk",
    "seat_0_id",
    "seat_1_id",
    "seat_2_id",
    "seat_3_id",
    "team_a_id",
    "team_b_id",
    "score_a",
    "score_b",
    "winner",
    "night_id",
)
_HAND_COLUMNS = (
    "game_id",
    "number",
    "makers",
    "tricks_won",
    "caller_id",
    "caller_alone",
    "defender_alone",
    "renege",
    "thrown_in",
)


def _records(season: Season) -> tuple[list[GameRecord], HandTotals, dict[int, str]]:
    """The season's ranked games as records, their hands counted once, and the entrants' names.

    Games and hands are read as plain rows (``values_list``), each table in one query: a large
    season has half a million hands, and a model instance or a checked record per hand would cost
    more than everything else the recompute does.
    """
    games = list(
        Game.objects.filter(season=season, status=Game.Status.FINISHED, counts_for_standings=True)
        .order_by("finished_at", "pk")
        .values_list(*_GAME_COLUMNS)
    )
    is_teams = season.format == Season.Format.TEAMS
    if is_teams:  # a friendly between players of a team season does not rank teams
        games = [game for game in games if game[5] is not None and game[6] is not None]
    seats_of = {game[0]: game[1:5] for game in games}
    hands = Hand.objects.filter(
        game__season=season,
        game__status=Game.Status.FINISHED,
        status=Hand.Status.ACTIVE,
        misdeal=False,
    ).values_list(*_HAND_COLUMNS)
    totals = HandTotals.from_rows(
        (game_id, number, seats, makers or None, tricks, caller, alone, defender_alone, None,
         renege or None, thrown_in)
        for game_id, number, makers, tricks, caller, alone, defender_alone, renege, thrown_in
        in hands
        if (seats := seats_of.get(game_id)) is not None
    )  # fmt: skip
    tallies = side_tallies(totals)
    no_tallies = (SideTally(), SideTally())
    records = []
    for order, (pk, seat_0, seat_1, seat_2, seat_3, team_a, team_b, *result) in enumerate(games):
        score_a, score_b, winner, night_id = result
        players_a, players_b = (seat_0, seat_2), (seat_1, seat_3)
        tally_a, tally_b = tallies.get(pk, no_tallies)
        records.append(
            GameRecord(
                game_id=pk,
                side_a=(team_a,) if is_teams else players_a,
                side_b=(team_b,) if is_teams else players_b,
                points_a=score_a,
                points_b=score_b,
                winner=winner or None,
                night_id=night_id,
                played_order=order,
                tally_a=tally_a,
                tally_b=tally_b,
                players_a=players_a if is_teams else (),
                players_b=players_b if is_teams else (),
            )
        )
    return records, totals, _names(season, records, is_teams=is_teams)


def _names(season: Season, records: list[GameRecord], *, is_teams: bool) -> dict[int, str]:
    """The names of the entrants of ``records``, in the order they first played."""
    seen = dict.fromkeys(
        entrant for record in records for entrant in (*record.side_a, *record.side_b)
    )
    if is_teams:
        found = dict(Team.objects.filter(pk__in=list(seen)).values_list("pk", "name"))
    else:
        found = dict(Player.objects.filter(league_id=season.league_id).values_list("pk", "name"))
        missing = [pk for pk in seen if pk not in found]
        if missing:  # a guest from another league
            found.update(Player.objects.filter(pk__in=missing).values_list("pk", "name"))
    return {pk: found[pk] for pk in seen}


def _entrants(season: Season, names: dict[int, str]) -> list[int]:
    if season.format == Season.Format.TEAMS:
        teams = season.teams.filter(is_withdrawn=False).values_list("pk", "name")
        names.update(dict(teams))
        return [pk for pk, _name in teams]
    return list(names)


def _nights(records: list[GameRecord]) -> list[dict[str, Any]]:
    """Per night, each entrant's games, wins and points: the season's chart, night by night."""
    nights: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    for record in records:
        if record.night_id is None:
            continue
        for side, entrants, points in (
            ("A", record.side_a, record.points_a),
            ("B", record.side_b, record.points_b),
        ):
            for entrant in entrants:
                line = nights[record.night_id][entrant]
                line[0] += 1
                line[1] += record.winner == side
                line[2] += points
    return [
        {
            "night": night,
            "entrants": {
                str(entrant): {"games": games, "wins": wins, "points": points}
                for entrant, (games, wins, points) in sorted(lines.items())
            },
        }
        for night, lines in sorted(nights.items())
    ]


_LARGE_PARTS = ("player_stats", "team_stats", "ratings", "nights")


@contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """Pause Python's cycle collector while a recompute builds its records.

    A large season makes millions of small tuples, lists and dicts that live until the snapshot
    is written; each automatic collection walks all of them again, which cost over a third of the
    engines' time (``benchmarks/bench_standings_engine.py --gc``). They hold no reference cycles,
    so reference counting frees them all the same; the collector runs as usual afterwards.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def season_standings_recompute(*, season_id: int, force: bool = False) -> StandingSnapshot | None:
    """Recompute a season's snapshot if its results are newer than the stored one.

    Returns the new snapshot, or ``None`` when the stored one was already current. Safe to run
    twice at once: the older result never overwrites a newer one.
    """
    cache.delete(_pending_key(season_id))  # changes from now on queue another run
    season = Season.objects.get(pk=season_id)
    version = season.results_version
    current = (
        StandingSnapshot.objects.filter(season=season)
        .values_list("results_version", flat=True)
        .first()
    )
    if current is not None and current >= version and not force:
        return None
    started = time.perf_counter()
    with _cyclic_gc_paused():
        records, hands, names = _records(season)
        entrants = _entrants(season, names)
        rules = season_rules(season)
        standings = compute_standings(records, rules, entrants=entrants, names=names)
        is_teams = season.format == Season.Format.TEAMS
        values = {
            "results_version": version,
            "computed_at": timezone.now(),
            "standings": standings.to_dict(),
            "player_stats": [line.to_dict() for line in player_stats(records, hands)],
            "team_stats": (
                [line.to_dict() for line in team_stats(records, hands)] if is_teams else []
            ),
            "ratings": [rating.to_dict() for rating in compute_ratings(records)],
            "nights": _nights(records),
        }
        values["duration_ms"] = int((time.perf_counter() - started) * 1000)
        with transaction.atomic():
            updated = StandingSnapshot.objects.filter(
                season=season, results_version__lte=version
            ).update(**values)
            if not updated:
                if StandingSnapshot.objects.filter(season=season).exists():
                    return None  # a newer snapshot landed meanwhile
                try:
                    with transaction.atomic():
                        StandingSnapshot.objects.create(season=season, **values)
                except IntegrityError:
                    return None  # a concurrent run created it first
            standing_lines_write(season_id=season.pk, values=values)
            # The race is worked out from the snapshot, once it is committed.
            transaction.on_commit(lambda: race_compute_soon(season_id))
    # The large parts (stats of every player and their partners) load when first read: the
    # caller just wrote them and most callers never look.
    return StandingSnapshot.objects.defer(*_LARGE_PARTS).get(season=season)


# --------------------------------------------------------------------------------------------
# Per-entrant lines: the snapshot's parts split by entrant, so one player's line is one row read
# --------------------------------------------------------------------------------------------

LINE_SOURCES = (
    (StandingLine.Kind.PLAYER, "player_stats", "player_id"),
    (StandingLine.Kind.TEAM, "team_stats", "team_id"),
    (StandingLine.Kind.RATING, "ratings", "player_id"),
)


def standing_lines(*, season_id: int, values: dict[str, Any]) -> list[StandingLine]:
    """The snapshot ``values`` (as the recompute stores them) as one line per entrant and kind,
    each with the digest of its data."""
    parts = [(StandingLine.Kind.STANDING, values["standings"]["rows"], "entrant")]
    parts += [(kind, values[part], key) for kind, part, key in LINE_SOURCES]
    return [
        StandingLine(
            season_id=season_id,
            kind=kind,
            entrant_id=line[key],
            data=line,
            digest=hashlib.md5(
                json.dumps(line, sort_keys=True).encode(), usedforsecurity=False
            ).hexdigest(),
        )
        for kind, lines, key in parts
        for line in lines
    ]


def standing_lines_write(*, season_id: int, values: dict[str, Any]) -> None:
    """Make the season's per-entrant lines those of the snapshot just stored (call inside the
    transaction that stores it, so readers never see lines of another version). Lines whose
    digest is unchanged stay as they are: after one game most of the large ones are."""
    lines = standing_lines(season_id=season_id, values=values)
    stored = {
        (kind, entrant): (pk, digest)
        for pk, kind, entrant, digest in StandingLine.objects.filter(
            season_id=season_id
        ).values_list("pk", "kind", "entrant_id", "digest")
    }
    fresh = {(line.kind, line.entrant_id): line for line in lines}
    changed = {
        key for key, line in fresh.items() if key not in stored or stored[key][1] != line.digest
    }
    stale = [pk for key, (pk, _digest) in stored.items() if key not in fresh or key in changed]
    for start in range(0, len(stale), 900):  # under SQLite's limit of variables in a query
        StandingLine.objects.filter(pk__in=stale[start : start + 900]).delete()
    StandingLine.objects.bulk_create([fresh[key] for key in changed], batch_size=500)


def stale_season_ids() -> list[int]:
    """Seasons with results newer than their snapshot (or with results and no snapshot)."""
    from django.db.models import F, Q

    return list(
        Season.objects.filter(results_version__gt=0)
        .filter(Q(snapshot__isnull=True) | Q(snapshot__results_version__lt=F("results_version")))
        .values_list("pk", flat=True)
    )


def stale_race_season_ids() -> list[int]:
    """Seasons whose snapshot is newer than its playoff race (or has no race yet)."""
    from django.db.models import F, Q

    return list(
        StandingSnapshot.objects.filter(
            Q(race_version__isnull=True) | Q(race_version__lt=F("results_version"))
        ).values_list("season_id", flat=True)
    )


def season_set_standing_rules(*, season: Season, rules: dict[str, Any], user=None) -> Season:
    """Choose how a season ranks: the tie-break chain, best K nights, minimum games, forfeits,
    what a bye is worth and how many make the playoffs (the cut line of the playoff race).
    Checked by the standings engine before anything is written; the standings are then
    recomputed (after commit), and the change is in the audit trail."""
    from league.audit import SYSTEM, actor_of, audit_record

    _rules_from(rules)  # refuses unknown options and impossible combinations, writing nothing
    options = {name: list(value) if name == "tiebreaks" else value for name, value in rules.items()}
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        before = dict(locked.standing_rules or {})
        locked.standing_rules = options
        locked.results_version += 1
        locked.save(update_fields=["standing_rules", "results_version"])
        audit_record(
            league=locked.league_id,
            season=locked,
            actor=actor_of(user, default=SYSTEM),
            action="standings.rules",
            target=locked,
            before=before,
            after=options,
        )
        season_id = locked.pk
        transaction.on_commit(lambda: standings_recompute_soon(season_id))
    season.refresh_from_db()
    return season
