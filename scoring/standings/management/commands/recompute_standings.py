"""``manage.py recompute_standings``: recompute seasons' standings now, showing progress."""

import time

from django.core.management.base import BaseCommand, CommandError

from league.models import Season
from scoring.standings.services.recompute import season_standings_recompute


class Command(BaseCommand):
    help = "Recompute the standings snapshot of one season, or of every season (--all)."

    def add_arguments(self, parser):
        target = parser.add_mutually_exclusive_group(required=True)
        target.add_argument("--season", type=int, help="the season's id")
        target.add_argument("--all", action="store_true", help="every season")
        parser.add_argument(
            "--force", action="store_true", help="recompute even when the snapshot is current"
        )

    def handle(self, *args, season=None, all=False, force=False, **options):
        seasons = Season.objects.order_by("pk")
        if season is not None:
            seasons = seasons.filter(pk=season)
            if not seasons.exists():
                raise CommandError(f"no season with id {season}")
        total = seasons.count()
        for index, item in enumerate(seasons, start=1):
            started = time.perf_counter()
            snapshot = season_standings_recompute(season_id=item.pk, force=force)
            seconds = time.perf_counter() - started
            state = (
                f"recomputed at version {snapshot.results_version}"
                if snapshot
                else "already current"
            )
            self.stdout.write(f"[{index}/{total}] {item}: {state} ({seconds:.2f}s)")
