"""A season's money rules (words: :mod:`tournaments.domain.pot`).

- *season money*: one row per season that has money rules; ``rules`` holds them as the JSON of
  :meth:`tournaments.domain.pot.MoneyRules.to_data` (declared once, in the domain), written only
  by :func:`tournaments.services.money.season_money_update`. A season without a row has the
  default rules: no money, nothing public. A night's pot is counted from the hands and places
  whenever it is read, never stored, so a corrected hand is counted at once.
"""

from django.conf import settings
from django.db import models

from league.models import Season

__all__ = ["SeasonMoney"]


class SeasonMoney(models.Model):
    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="money")
    rules = models.JSONField(help_text="The money rules; see tournaments.domain.pot.MoneyRules.")
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name_plural = "season money"

    def __str__(self) -> str:
        return f"Money rules of {self.season}"
