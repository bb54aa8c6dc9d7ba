"""Reads for the site's navigation: what a season has to link to besides its standings and nights
(its published brackets, its team schedule). Selectors only; nothing here writes."""

from league.models import Season
from tournaments.models import Bracket, TeamSchedule


def season_published_brackets(*, season: Season) -> list[Bracket]:
    """The season's brackets anyone may see (published or finished), oldest first."""
    return list(
        Bracket.objects.not_archived()
        .filter(season=season)
        .exclude(status=Bracket.Status.DRAFT)
        .order_by("created_at", "pk")
    )


def season_brackets(*, season: Season) -> list[Bracket]:
    """Every bracket of the season, drafts included (for its organisers), oldest first."""
    return list(Bracket.objects.not_archived().filter(season=season).order_by("created_at", "pk"))


def season_has_schedule(*, season: Season) -> bool:
    return TeamSchedule.objects.filter(season=season).exists()
