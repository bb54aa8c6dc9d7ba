"""``manage.py compute_race``: work out seasons' playoff races now, one progress line a season."""

from django.core.management.base import BaseCommand, CommandError

from league.models import Season
from scoring.standings.models import StandingSnapshot
from scoring.standings.services.race import season_race_compute


class Command(BaseCommand):
    help = (
        "Work out the playoff race of one season, or of every season (--all), from its standings."
    )

    def add_arguments(self, parser):
        target = parser.add_mutually_exclusive_group(required=True)
        target.add_argument("--season", type=int, help="the season's id")
        target.add_argument("--all", action="store_true", help="every season with standings")
        parser.add_argument(
            "--force", action="store_true", help="compute even when the race is current"
        )
        parser.add_argument(
            "--runs",
            type=int,
            default=None,
            help="simulated seasons (default: 10,000 for a race, 2,000 for projected ranks)",
        )

    def handle(self, *args, season=None, all=False, force=False, runs=None, **options):
        if runs is not None and runs < 1:
            raise CommandError("--runs must be at least 1")
        if season is not None:
            if not Season.objects.filter(pk=season).exists():
                raise CommandError(f"no season with id {season}")
            ids = [season]
        else:
            ids = list(
                StandingSnapshot.objects.order_by("season_id").values_list("season_id", flat=True)
            )
        for season_id in ids:
            race = season_race_compute(
                season_id=season_id, force=force, runs=runs, progress=self.stdout.write
            )
            if race is None:
                has_snapshot = StandingSnapshot.objects.filter(season_id=season_id).exists()
                state = "already current" if has_snapshot else "no standings yet"
                self.stdout.write(f"season {season_id}: {state}")
