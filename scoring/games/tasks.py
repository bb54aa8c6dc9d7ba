"""Celery tasks of the games app. They take ids, are idempotent and are enqueued on commit.

- ``scoring.rederive_season_points``: re-derive every hand's points after a rulebook change.

The standings' tasks (``scoring.standings.tasks``) include the beat's sweep, which finds seasons a
lost message left with stale points and sends this job again.

The tasks import the services; the services never import the tasks: they send jobs by name
through ``scoring.games.jobs``, so a task's ``name=`` and its constant there must agree.
"""

from celery import shared_task

from scoring.games import jobs, services


@shared_task(
    name=jobs.REDERIVE_SEASON_POINTS,
    autoretry_for=(ConnectionError,),
    retry_backoff=True,
    max_retries=5,
)
def rederive_season_points(season_id: int) -> int:
    return services.season_rederive_points(season_id=season_id)
