from django.apps import AppConfig


class StandingsConfig(AppConfig):
    """Standings: snapshots and lines, the standings, tie-break, stats, ratings and race engines,
    the recompute and race jobs, the public standings pages and their API."""

    name = "scoring.standings"
    label = "standings"
    verbose_name = "Standings"

    def ready(self):
        # As the games app: the standings' jobs are sent by name (scoring.games.jobs).
        from scoring.standings import tasks  # noqa: F401
