"""Celery tasks of the tournaments app. They take ids, are idempotent and are enqueued on commit.

- ``tournaments.bracket_advance``: a game's final result changed (``game_finished``): reconcile
  its bracket match from the database (``tournaments.services.brackets.advance.bracket_advance``).
- ``tournaments.sweep_brackets`` (beat): reconcile what a lost signal left behind (a ready match
  already won, a decided match whose games changed), so a worker or broker that was down loses
  nothing.
"""

from celery import shared_task
from django.db import OperationalError

from tournaments.services.brackets import advance


@shared_task(
    name="tournaments.bracket_advance",
    autoretry_for=(ConnectionError, OperationalError),
    retry_backoff=True,
    max_retries=5,
)
def bracket_advance(game_id: int) -> int | None:
    bracket = advance.bracket_advance(game_id=game_id)
    return bracket.pk if bracket is not None else None


@shared_task(name="tournaments.sweep_brackets")
def sweep_brackets() -> list[int]:
    return advance.bracket_sweep()
