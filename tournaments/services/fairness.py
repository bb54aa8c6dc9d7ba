"""Writing a season's fairness option: whether its report is public (``fairness_public``).

Words: see :mod:`tournaments.domain.fairness`. The report itself is read, never stored
(:mod:`tournaments.selectors.fairness`).
"""

from __future__ import annotations

from django.db import transaction

from league.access import require_league_organiser
from league.audit import SYSTEM, actor_of, audit_record
from league.errors import DomainError
from league.models import Season


def season_fairness_publish(*, season: Season, is_public: bool, user=None) -> bool:
    """Show (``is_public`` True) or hide the season's fairness report on its public page and
    API; only an organiser of the season's league may. Returns whether anything changed (the
    trail records each change, with who and when)."""
    if not isinstance(is_public, bool):
        raise DomainError("say yes or no: is the fairness report public?", field="is_public")
    require_league_organiser(user=user, league_id=season.league_id)
    with transaction.atomic():
        locked = Season.objects.select_for_update().only("pk", "fairness_public").get(pk=season.pk)
        if locked.fairness_public == is_public:
            season.fairness_public = is_public
            return False
        Season.objects.filter(pk=season.pk).update(fairness_public=is_public)
        audit_record(
            league=season.league_id,
            actor=actor_of(user, default=SYSTEM),
            action="season.fairness_public",
            target=season,
            before={"fairness_public": locked.fairness_public},
            after={"fairness_public": is_public},
        )
    season.fairness_public = is_public
    return True
