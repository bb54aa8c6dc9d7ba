"""Writing a season's money rules (words: :mod:`tournaments.domain.pot`).

The rules are the only money stored: a night's pot is counted from its hands and places when
read (:mod:`tournaments.selectors.money`).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from league.access import require_league_organiser
from league.audit import SYSTEM, actor_of, audit_record
from league.models import Season
from tournaments.domain.pot import MoneyRules, money_rules_parse
from tournaments.models import SeasonMoney
from tournaments.services.locks import season_money_lock


def season_money_update(*, season: Season, data: Any, user=None) -> tuple[MoneyRules, bool]:
    """Set the season's money rules from ``data`` (JSON of
    :meth:`~tournaments.domain.pot.MoneyRules.to_data`; a missing key: its default); only an
    organiser of the season's league may. Bad rules raise a ``DomainError`` naming the field
    and write nothing. Returns the rules and whether anything changed (each change is on the
    audit trail with the rules before and after)."""
    require_league_organiser(user=user, league_id=season.league_id)
    rules = money_rules_parse(data)
    with transaction.atomic():
        locked = season_money_lock(season.pk)
        row = SeasonMoney.objects.filter(season=locked).first()
        before = MoneyRules() if row is None else money_rules_parse(row.rules)
        if row is not None and before == rules:
            return rules, False
        # The season's row lock (taken above) keeps two organisers' saves apart.
        SeasonMoney.objects.update_or_create(
            season=locked,
            defaults={
                "rules": rules.to_data(),
                "updated_by": user if getattr(user, "is_authenticated", False) else None,
            },
        )
        audit_record(
            league=season.league_id,
            actor=actor_of(user, default=SYSTEM),
            action="season.money",
            target=season,
            before=before.to_data(),
            after=rules.to_data(),
        )
    return rules, True
