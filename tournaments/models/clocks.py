"""Round clocks (words: :mod:`tournaments.domain.clock`).

- *round clock*: the time limit of one started round, of a rotation night (``night`` and
  ``round_number``) or of a bracket (``bracket`` and ``round_number``): exactly one of the two.
  At most one clock a round, so a second "start" finds the first. Written only by
  :mod:`tournaments.services.clocks`; ``started_at`` and ``stopped_at`` are the server's instants.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from league.models import Night
from tournaments.domain.clock import MINUTES_MAX, MINUTES_MIN
from tournaments.models.brackets import Bracket

__all__ = ["RoundClock"]


class RoundClock(models.Model):
    night = models.ForeignKey(
        Night, on_delete=models.CASCADE, null=True, blank=True, related_name="round_clocks"
    )
    bracket = models.ForeignKey(
        Bracket, on_delete=models.CASCADE, null=True, blank=True, related_name="round_clocks"
    )
    round_number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    minutes = models.PositiveSmallIntegerField(help_text="The round's length, extensions included.")
    extended_minutes = models.PositiveSmallIntegerField(
        default=0, help_text="Of ``minutes``, how many were added after the start."
    )
    stopped_at = models.DateTimeField(
        null=True, blank=True, help_text="Time called early by the organiser."
    )
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["started_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(night__isnull=False) & Q(bracket__isnull=True))
                | (Q(night__isnull=True) & Q(bracket__isnull=False)),
                name="round_clock_of_a_night_or_a_bracket",
            ),
            models.UniqueConstraint(
                fields=["night", "round_number"],
                condition=Q(night__isnull=False),
                name="round_clock_once_per_night_round",
            ),
            models.UniqueConstraint(
                fields=["bracket", "round_number"],
                condition=Q(bracket__isnull=False),
                name="round_clock_once_per_bracket_round",
            ),
            models.CheckConstraint(
                condition=Q(round_number__gte=1), name="round_clock_round_positive"
            ),
            models.CheckConstraint(
                condition=Q(minutes__gte=MINUTES_MIN) & Q(minutes__lte=MINUTES_MAX),
                name="round_clock_minutes_in_range",
            ),
        ]

    def __str__(self) -> str:
        owner = self.night if self.night_id else self.bracket
        return f"Clock of round {self.round_number} of {owner}"
