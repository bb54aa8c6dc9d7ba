"""The standings service: load a season's finished games and hands, call the standings, stats and
ratings engines, and store one snapshot. Also how a recompute is asked for, coalesced.

- *results version*: grows by one at every committed change to a season's results: a hand
  recorded, undone or corrected, a final score, a game called off (each logs a ``ResultChange``
  row, *pending* until a recompute folds it), or a rulebook or standing-rules change (which raise
  ``Season.results_version``, the folded counter, directly). The version is the folded counter
  plus the pending rows. A snapshot remembers the version it was computed from; a recompute with
  nothing newer does nothing (idempotent).
- *coalescing*: forty tables entering hands at once ask for forty recomputes; only one is queued
  at a time per season (a short-lived cache key, the *pending key*), and it reads the newest
  version when it runs. A run clears the key first, so a change committed after that queues the
  next run.
- *no change lost*: a change commits, then asks for a run (``cache.add`` of the pending key;
  the one that set it sends the job). A run clears the key before it reads anything. So a change
  committed before the clearing is read by that run, and a change whose ``add`` comes after the
  clearing sets the key again and queues the next run: either way some run reads it. Should the
  job not be sent (broker down) or the key expire unused, the change stays pending (its
  ``ResultChange`` row) and the beat's sweep queues the run.
"""

from __future__ import annotations

import functools
import hashlib
import io
import pickle
import time
from collections.abc import Iterable
from typing import Any

import orjson
from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from core.errors import DomainError
from league.locks import season_row_lock
from league.models import Season
from scoring.games import jobs
from scoring.games.models import Game, ResultChange
from scoring.standings.domain.season_totals import stats_line_digest
from scoring.standings.domain.standings import SeasonRules
from scoring.standings.locks import fold_lock, season_fold_lock
from scoring.standings.models import StandingGame, StandingLine, StandingSnapshot
from scoring.standings.services.race_games import EMPTY_DIGEST, games_digests
from scoring.standings.services.values import Computed, snapshot_values


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


_LARGE_PARTS = ("standings", "ratings", "nights", "race")


def season_standings_recompute(*, season_id: int, force: bool = False) -> StandingSnapshot | None:
    """Fold the season's pending changes into a new snapshot, if there are any (or ``force``).
    It first clears the season's pending key (see *no change lost*).

    Returns the new snapshot, or ``None`` when the stored one was already current or another
    recompute folded changes meanwhile (it then asks for another run; nothing is lost). Reads, in
    this order, the season's folded counter, the pending changes, the stored snapshot (the
    *base*), then the results. When every pending change names its game, the base is at the
    folded counter and was ranked under the same rules, only those games are recounted and
    folded into the base's running totals (see :mod:`scoring.standings.services.values`); otherwise,
    or with ``force``, the same fold starts from empty and counts every game. When none of the
    pending changes' games counts for the standings (a bracket's games), nothing is folded: the
    snapshot's version (and a current race's) moves on and no race is asked for.

    It reads and computes in a transaction that holds no lock anything but another recompute of
    the season takes (:func:`.locks.fold_lock`, taken before it reads anything, so a run reads
    what the last fold stored, not what it replaced; it replaces the recounted games' stored
    shares, rows only recomputes touch). A run that finds the lock held returns ``None`` at once,
    having asked the holder to queue one more run after its commit; a forced run waits for it.
    It ends by locking the season's row
    against other folds (``FOR NO KEY UPDATE``: hand writes, which only reference the row, never
    wait on it), checking the counter has not moved (else the base may be stale: it gives up, its
    shares rolled back, and asks again), deleting exactly the changes it read, adding their
    number to the counter and storing the snapshot at that version. A change committed after the
    read stays pending, so the season stays visibly stale until a run has seen it.
    """
    jobs.standings_pending_clear(season_id)
    with transaction.atomic():
        if not fold_lock(season_id, wait=force) and not _held_asked_again(season_id):
            return None
        # Once committed (the lock released): a run that found the lock held asked for another.
        transaction.on_commit(lambda: _run_again_if_asked(season_id), robust=True)
        return _fold_pending(season_id, force)


def _held_asked_again(season_id: int) -> bool:
    """Another run of the season holds the fold lock. Rather than hold a worker process while it
    folds (other seasons' runs would queue behind it), ask it to run once more when done, then
    try the lock once more: whether this run may fold after all. Either the holder has ended by
    then (the lock is taken), or it still holds the lock, and it reads the ask after its commit,
    which comes after this: no change is left without a run."""
    jobs.standings_rerun_ask(season_id)
    return fold_lock(season_id)


def _run_again_if_asked(season_id: int) -> None:
    """After a run's commit: queue the next run at once if another asked for one meanwhile (the
    changes it found pending have waited for this fold already)."""
    if jobs.standings_rerun_asked(season_id):
        jobs.standings_recompute_soon(season_id, countdown=None)


def _fold_pending(season_id: int, force: bool) -> StandingSnapshot | None:
    """:func:`season_standings_recompute` once it holds the season's fold lock."""
    season = Season.objects.get(pk=season_id)
    folded = season.results_version
    pending = list(
        ResultChange.objects.filter(season_id=season_id).order_by("pk").values_list("pk", "game_id")
    )
    version = folded + len(pending)
    base = (
        StandingSnapshot.objects.filter(season=season)
        .only("results_version", "basis", "standings", "ratings", "nights")
        .first()
    )
    if base is not None and base.results_version >= version and not pending and not force:
        return None
    changed = {game_id for _pk, game_id in pending}
    if force or base is None or base.results_version != folded or None in changed:
        base, changed = None, None  # recount everything
    elif not _counts_any(season, changed):
        return _version_moved_on(season_id, folded, pending, base.results_version)
    started = time.perf_counter()
    with transaction.atomic():
        try:
            with transaction.atomic():
                computed = snapshot_values(
                    season, season_rules(season), base=base, changed_game_ids=changed
                )
        except IntegrityError:  # another fold is storing the same games' shares: it goes first
            transaction.on_commit(lambda: jobs.standings_recompute_soon(season_id))
            return None
        computed.values |= {"results_version": version, "computed_at": timezone.now()}
        computed.values["duration_ms"] = int((time.perf_counter() - started) * 1000)
        locked = season_fold_lock(season_id)
        if locked.results_version != folded:
            # Another run folded changes (or the rules changed) since this one read: its results
            # may be newer than ours, and our base older. Leave what is pending to the next run.
            transaction.set_rollback(True)
            jobs.standings_recompute_soon(season_id)
            return None
        pending_ids = [pk for pk, _game_id in pending]
        for start in range(0, len(pending_ids), 900):  # under SQLite's limit of query variables
            ResultChange.objects.filter(pk__in=pending_ids[start : start + 900]).delete()
        Season.objects.filter(pk=season_id).update(results_version=version)
        if not _snapshot_store(season.pk, version, computed):
            transaction.set_rollback(True)  # never go back to an older version
            return None
    # The parts (a large season's megabyte of JSON) load when first read: the caller just wrote
    # them, and the worker, which runs nearly every recompute, only logs the version.
    return StandingSnapshot.objects.defer(*_LARGE_PARTS).get(season=season)


def _counts_any(season: Season, game_ids: set[int]) -> bool:
    """Whether any of the games counts for the standings (finished or not: a season game called
    off leaves the race's games), or was counted by the stored snapshot (a share is stored)."""
    ids = sorted(game_ids)
    for start in range(0, len(ids), 900):  # under SQLite's limit of variables in a query
        chunk = ids[start : start + 900]
        if Game.objects.filter(pk__in=chunk, counts_for_standings=True).exists():
            return True
        if StandingGame.objects.filter(season=season, game_id__in=chunk).exists():
            return True
    return False


def _version_moved_on(
    season_id: int, folded: int, pending: list[tuple[int, int]], base_version: int
) -> StandingSnapshot | None:
    """Changes only of games the standings do not count (a bracket's): nothing of the snapshot
    changes, so it is not recomputed. Its version (and its race's, if the race was current, since
    such games are not among the race's games either) moves on to take them in, as a fold would,
    in one short transaction; no race is asked for."""
    version = folded + len(pending)
    with transaction.atomic():
        locked = season_fold_lock(season_id)
        if locked.results_version != folded:  # another run folded meanwhile: leave it to the next
            transaction.on_commit(lambda: jobs.standings_recompute_soon(season_id))
            return None
        pending_ids = [pk for pk, _game_id in pending]
        for start in range(0, len(pending_ids), 900):  # under SQLite's limit of query variables
            ResultChange.objects.filter(pk__in=pending_ids[start : start + 900]).delete()
        Season.objects.filter(pk=season_id).update(results_version=version)
        stored = StandingSnapshot.objects.filter(season_id=season_id, results_version=base_version)
        stored.filter(race_version=base_version).update(
            results_version=version, race_version=version
        )
        stored.update(results_version=version)
    return StandingSnapshot.objects.defer(*_LARGE_PARTS).get(season_id=season_id)


def _snapshot_store(season_id: int, version: int, computed: Computed) -> bool:
    """Store the computed snapshot and its per-entrant lines (in the caller's transaction),
    unless a newer snapshot is there; say whether it was stored. Only the lines whose digest
    changed are written: after one game, mostly the stats of its four players."""
    values = computed.values
    stored = StandingSnapshot.objects.filter(season_id=season_id, results_version__lte=version)
    if not stored.update(**values):
        if not computed.complete or StandingSnapshot.objects.filter(season_id=season_id).exists():
            # A newer snapshot is there; or none is, and this fold went on from one (it may
            # leave out the parts it did not change): the next run folds from empty.
            return False
        try:
            with transaction.atomic():
                StandingSnapshot.objects.create(season_id=season_id, **values)
        except IntegrityError:
            return False  # a concurrent run created it first
    standing_lines_write(season_id=season_id, computed=computed)
    # The race is worked out from the snapshot, once it is committed.
    transaction.on_commit(lambda: jobs.race_compute_soon(season_id))
    return True


def standing_lines_write(*, season_id: int, computed: Computed) -> None:
    """Write the computed lines whose digest changed and delete the lines that are gone (every
    stored line not given, when the lines are ``complete``). Call inside the transaction that
    stores the snapshot, so readers never see lines of another version."""
    digests = {
        key: line_digest(data, key[0]) for key, data in computed.lines.items() if data is not None
    }
    digests |= {key: digest for key, (digest, _render) in computed.rendered.items()}
    given = computed.lines.keys() | computed.rendered.keys()
    stored_lines = StandingLine.objects.filter(season_id=season_id)
    if not computed.complete:
        stored_lines = stored_lines.filter(_lines_of_keys(given))
    stored = {
        (kind, entrant): (pk, digest)
        for pk, kind, entrant, digest in stored_lines.values_list(
            "pk", "kind", "entrant_id", "digest"
        )
    }
    gone = [
        pk
        for key, (pk, _digest) in stored.items()
        if key not in digests and (computed.complete or key in given)
    ]
    for start in range(0, len(gone), 900):  # under SQLite's limit of variables in a query
        StandingLine.objects.filter(pk__in=gone[start : start + 900]).delete()
    changed = [
        key for key, digest in digests.items() if key not in stored or stored[key][1] != digest
    ]
    lines = (
        (key, computed.lines[key] if key in computed.lines else computed.rendered[key][1]())
        for key in changed
    )
    _lines_upsert(
        season_id,
        ((kind, entrant, digests[kind, entrant], data) for (kind, entrant), data in lines),
    )


def _lines_of_keys(keys: set[tuple[str, int]]) -> Q:
    """The lines of ``keys`` (``(kind, entrant)``): by entrant when they are few, else (past
    SQLite's limit of variables in a query) every line of their kinds."""
    by_kind: dict[str, list[int]] = {}
    for kind, entrant in keys:
        by_kind.setdefault(kind, []).append(entrant)
    if len(keys) > 900:
        return Q(kind__in=list(by_kind))
    wanted = Q(pk__in=[])
    for kind, entrants in by_kind.items():
        wanted |= Q(kind=kind, entrant_id__in=entrants)
    return wanted


def _lines_upsert(season_id: int, lines: Iterable[tuple[str, int, str, Any]]) -> None:
    """Insert or replace lines ``(kind, entrant, digest, data)``: one statement run for each line
    in one batch (``executemany``: psycopg pipelines it), each line's data its JSON text. No line
    is a model instance and no value is quoted in Python: after one game of a large season some
    800 standings rows change (their Buchholz and ranks), which Django's bulk insert sent as
    arrays of JSON that psycopg quoted in Python, four times the cost of this.

    The JSON text is orjson's: a recompute from scratch of a 1M-hand season writes a thousand
    stats lines of some 60 kB each, which the standard library's encoder took a second to write
    and orjson a third of that. Keys that are not strings become strings, as ``json.dumps``
    makes them."""
    rows = (
        (season_id, kind, entrant, digest, orjson.dumps(data, option=_JSON_KEYS).decode())
        for kind, entrant, digest, data in lines
    )
    with connection.cursor() as cursor:
        cursor.executemany(_lines_upsert_sql(), rows)


_JSON_KEYS = orjson.OPT_NON_STR_KEYS


@functools.cache
def _lines_upsert_sql() -> str:
    """The statement of :func:`_lines_upsert`, its table and columns named by the model's
    ``_meta``: the same text on PostgreSQL and SQLite."""
    meta = StandingLine._meta
    name = connection.ops.quote_name
    columns = [
        name(meta.get_field(field).column)
        for field in ("season", "kind", "entrant_id", "digest", "data")
    ]
    digest, data = columns[3:]
    return (
        f"INSERT INTO {name(meta.db_table)} ({', '.join(columns)}) VALUES (%s, %s, %s, %s, %s) "
        f"ON CONFLICT ({', '.join(columns[:3])}) "
        f"DO UPDATE SET {data} = excluded.{data}, {digest} = excluded.{digest}"
    )


# --------------------------------------------------------------------------------------------
# Per-entrant lines: the snapshot split by entrant, so one player's line is one row read
# --------------------------------------------------------------------------------------------


def line_digest(line: dict[str, Any], kind: str | None = None) -> str:
    """A digest of a line's data (of ``kind``, else told by its fields), to tell a changed line
    from an unchanged one.

    A stats line's (player or team: the lines with opponents) is taken from its counts
    (``stats_line_digest``).
    Any other line's over its pickle without memo (``fast``): built only from the values (and
    their order, which the engines fix), never from which objects happen to be shared."""
    is_stats = "opponents" in line if kind is None else kind in StandingLine.STATS_KINDS
    if is_stats:
        return stats_line_digest(line)
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=5)
    pickler.fast = True
    pickler.dump(line)
    return hashlib.md5(buffer.getvalue(), usedforsecurity=False).hexdigest()


def stale_season_ids() -> list[int]:
    """Seasons with changes not yet folded into their snapshot, or with results and no snapshot,
    or whose snapshot is behind their folded counter (the rules changed)."""

    return list(
        Season.objects.filter(
            Exists(ResultChange.objects.filter(season_id=OuterRef("pk")))
            | Q(results_version__gt=0, snapshot__isnull=True)
            | Q(snapshot__results_version__lt=F("results_version"))
        )
        .order_by()
        .values_list("pk", flat=True)
    )


def stale_race_season_ids() -> list[int]:
    """Seasons whose snapshot is newer than its playoff race (or has no race yet), or whose
    games still to play are not those the race was computed from (a game added, moved or
    removed: the games digest of :mod:`scoring.standings.services.race_games` differs)."""
    behind = Q(race_version__isnull=True) | Q(race_version__lt=F("results_version"))
    stale = set(StandingSnapshot.objects.filter(behind).values_list("season_id", flat=True))
    computed = StandingSnapshot.objects.exclude(behind).values_list("season_id", "race_games")
    current = games_digests()  # what is left to play, of every season
    stale.update(
        season_id
        for season_id, digest in computed
        if current.get(season_id, EMPTY_DIGEST) != digest
    )
    return sorted(stale)


def season_set_standing_rules(*, season: Season, rules: dict[str, Any], user=None) -> Season:
    """Choose how a season ranks: the tie-break chain, best K nights, minimum games, forfeits,
    what a bye is worth and how many make the playoffs (the cut line of the playoff race).
    Checked by the standings engine before anything is written; the standings are then
    recomputed (after commit), and the change is in the audit trail."""
    from league.audit import SYSTEM, actor_of, audit_record

    _rules_from(rules)  # refuses unknown options and impossible combinations, writing nothing
    options = {name: list(value) if name == "tiebreaks" else value for name, value in rules.items()}
    with transaction.atomic():
        locked = season_row_lock(season.pk)
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
        transaction.on_commit(lambda: jobs.standings_recompute_soon(season_id))
    season.refresh_from_db()
    return season
