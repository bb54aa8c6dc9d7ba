"""Celery tasks of the standings app. They take ids, are idempotent and are enqueued on commit.

- ``scoring.recompute_season_standings``: recompute a season's standings snapshot (idempotent,
  coalesced; see scoring.standings.services.recompute).
- ``scoring.compute_season_race``: work out a season's playoff race from its new snapshot
  (idempotent, coalesced; see scoring.standings.services.race).
- ``scoring.sweep_stale_seasons`` (beat): find seasons a lost message left stale and fix them, so a
  worker or broker that was down loses nothing. It costs what is left to do, not the history:
  hands are looked for only among those still derived under a superseded rulebook version (an
  index probe on the hand's rulebook), and standings among seasons with changes pending.

The tasks import the services; the services never import the tasks: they send these jobs by name
through ``scoring.games.jobs`` (the names the games app asks for), so a task's ``name=`` here and
its constant there must agree.
"""

import logging
import time

from celery import shared_task
from django.db.models import BigIntegerField, Exists, F, OuterRef, Q
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast

from core.metrics import RECOMPUTE_SECONDS
from league.models import Rulebook, Season
from scoring.games import jobs
from scoring.games.models import Game, Hand
from scoring.games.tasks import rederive_season_points
from scoring.standings.services import race, recompute

logger = logging.getLogger("scoring.standings.tasks")


def seasons_with_stale_points() -> list[int]:
    """Seasons with a hand whose points were derived under another rulebook than the season's.

    Two ways a season's rulebook changes, each looked for where it shows, so the cost is what is
    left to do, not every hand stored:

    - *a new version* (``scoring.games.services.season_change_rules``, whose ``previous`` is the old
      one): such a hand is derived under a *superseded* version (one that has a next version).
      The hands are found through the index on the hand's rulebook, from the few superseded
      versions: the hands not yet re-derived (and any hands of a season still on a version
      another season moved on from).
    - *another rulebook altogether* (e.g. chosen in the admin, with no ``previous``): the
      season's snapshot was ranked under another rulebook than the season's now (its basis),
      or it has none yet; only those seasons' hands are read, through their games.

    The games of the hands found are then read by key, a chunk at a time: joined in one
    statement, the planner (which cannot know that most superseded versions have no hand left)
    read every game.
    """
    superseded = Rulebook.objects.filter(Exists(Rulebook.objects.filter(previous=OuterRef("pk"))))
    derived = set(  # (game, rulebook) of every hand that may be stale
        Hand.objects.filter(rulebook__in=superseded)
        .order_by()
        .values_list("game_id", "rulebook_id")
        .distinct()
    )
    ranked_under = Cast(KeyTextTransform("rulebook", "snapshot__basis"), BigIntegerField())
    swapped = list(
        Season.objects.annotate(ranked_under=ranked_under)
        .filter(
            Q(snapshot__isnull=True)
            | Q(ranked_under__lt=F("rulebook_id"))
            | Q(ranked_under__gt=F("rulebook_id"))
        )
        .order_by()
        .values_list("pk", flat=True)
    )
    for seasons in _chunks(swapped):
        games = list(
            Game.objects.filter(season_id__in=seasons).order_by().values_list("pk", flat=True)
        )
        for chunk in _chunks(games):
            hands = Hand.objects.filter(game_id__in=chunk).order_by()
            derived.update(hands.values_list("game_id", "rulebook_id").distinct())
    current: dict[int, tuple[int, int]] = {}
    for chunk in _chunks(sorted({game_id for game_id, _rulebook in derived})):
        games = Game.objects.filter(pk__in=chunk).order_by()
        for game_id, season_id, rulebook_id in games.values_list(
            "pk", "season_id", "season__rulebook_id"
        ):
            current[game_id] = (season_id, rulebook_id)
    return sorted(
        {
            current[game_id][0]
            for game_id, rulebook_id in derived
            if game_id in current and current[game_id][1] != rulebook_id
        }
    )


def _chunks(ids: list[int], size: int = 900):
    """``ids`` a chunk at a time, under SQLite's limit of variables in a query."""
    return (ids[start : start + size] for start in range(0, len(ids), size))


@shared_task(name=jobs.SWEEP_STALE_SEASONS)
def sweep_stale_seasons() -> dict[str, list[int]]:
    rederive = seasons_with_stale_points()
    for season_id in rederive:
        rederive_season_points.delay(season_id)
    stale = [pk for pk in recompute.stale_season_ids() if pk not in rederive]
    for season_id in stale:
        # Coalesced as a change's own ask is: a season whose recompute is queued (or whose run is
        # waiting at the fold lock) gets no second one. A lost message's key expires
        # (PENDING_SECONDS), so the next sweep sends it.
        jobs.standings_recompute_soon(season_id)
    # A race behind its snapshot; a season being recomputed asks for its race afterwards.
    races = [
        pk for pk in recompute.stale_race_season_ids() if pk not in rederive and pk not in stale
    ]
    for season_id in races:
        jobs.race_compute_soon(season_id)
    return {"rederive": rederive, "recompute": stale, "race": races}


@shared_task(
    name=jobs.RECOMPUTE_SEASON_STANDINGS,
    autoretry_for=(ConnectionError,),
    retry_backoff=True,
    max_retries=5,
)
def recompute_season_standings(season_id: int) -> int | None:
    started = time.perf_counter()
    with RECOMPUTE_SECONDS.time():
        snapshot = recompute.season_standings_recompute(season_id=season_id)
    seconds = time.perf_counter() - started
    if snapshot is None:
        logger.debug("standings of season %s already current (%.3f s)", season_id, seconds)
        return None
    logger.info(
        "standings of season %s recomputed to results version %s in %.3f s",
        season_id,
        snapshot.results_version,
        seconds,
    )
    return snapshot.results_version


@shared_task(
    name=jobs.COMPUTE_SEASON_RACE,
    autoretry_for=(ConnectionError,),
    retry_backoff=True,
    max_retries=5,
)
def compute_season_race(season_id: int) -> int | None:
    """Returns the results version the race was computed from, or ``None`` if already current."""
    computed = race.season_race_compute(season_id=season_id)
    return computed.get("results_version") if computed else None
