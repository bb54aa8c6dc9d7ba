"""Writing a season's fairness option: whether its report is public (``fairness_public``).

Words: see :mod:`tournaments.domain.fairness`. The report itself is read, never stored
(:mod:`tournaments.selectors.fairness`).
"""

from __future__ import annotations

from core.errors import DomainError
from league.access import require_league_organiser
from league.models import Season
from league.services import season_option_set


def season_fairness_publish(*, season: Season, is_public: bool, user=None) -> bool:
    """Show (``is_public`` True) or hide the season's fairness report on its public page and
    API; only an organiser of the season's league may. Returns whether anything changed (the
    trail records each change, with who and when)."""
    if not isinstance(is_public, bool):
        raise DomainError("say yes or no: is the fairness report public?", field="is_public")
    require_league_organiser(user=user, league_id=season.league_id)
    return season_option_set(season=season, field="fairness_public", value=is_public, user=user)
