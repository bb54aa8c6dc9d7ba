"""The scoring app's Prometheus metrics (prometheus_client; exposed at ``/metrics`` by
``config.observability``, and by a worker on ``WORKER_METRICS_PORT``).

- ``euchre_hands_stored_total``: hands stored, counted once each when its transaction commits
  (``scoring.games.services.game_state.hand_create``), whichever door it came through.
- ``euchre_standings_recompute_seconds``: how long each standings recompute job took
  (``scoring.games.tasks.recompute_season_standings``), a run that found nothing to fold included.

Under gunicorn or a prefork worker, ``PROMETHEUS_MULTIPROC_DIR`` makes every process write its
values to files there, summed at scrape time (prometheus_client's multiprocess mode).
"""

from prometheus_client import Counter, Histogram

HANDS_STORED = Counter("euchre_hands_stored", "Hands stored (counted when their write commits).")
RECOMPUTE_SECONDS = Histogram(
    "euchre_standings_recompute_seconds",
    "Duration of a season's standings recompute job, in seconds.",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
