"""The rounds a night's plan starts from (a selector: it never writes)."""

from __future__ import annotations

from league.models import Night
from tournaments.domain.rotation_chart import DefaultRounds, default_rounds
from tournaments.models import NightPlan


def night_default_rounds(*, night: Night, player_count: int) -> DefaultRounds:
    """The season's usual rounds, else the rounds of the season's latest other night with a
    plan (before this one, else any), else what fits an evening (``default_rounds``)."""
    others = NightPlan.objects.filter(night__season_id=night.season_id).exclude(night=night)
    earlier = others.filter(night__date__lte=night.date).order_by("-night__date", "-night_id")
    last = earlier.values_list("rounds", flat=True).first()
    if last is None:
        last = others.order_by("-night__date").values_list("rounds", flat=True).first()
    return default_rounds(player_count, usual=night.season.usual_rounds, last=last)
