"""Table cards: one link and QR code per table for a whole night.

- *table card*: table ``number`` of a ``night``, with an unguessable ``token``. Its link
  (``/tables/<token>/``) stays valid all night and opens whatever that table plays now: the
  captain's score card of the table's current game (the round's game, as started from the plan
  after any repair, or a team schedule's game at that table), or a page saying the table waits
  for the next round. Printed once per night as a table tent.
"""

import secrets

from django.db import models
from django.db.models import Q

from league.models import Night

__all__ = ["TableCard", "new_table_token"]


def new_table_token() -> str:
    """A fresh unguessable token: 128 bits of randomness, URL safe."""
    return secrets.token_urlsafe(16)


class TableCard(models.Model):
    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="table_cards")
    number = models.PositiveSmallIntegerField()
    token = models.CharField(max_length=64, unique=True, default=new_table_token)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["night_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="table_card_once_per_night"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_card_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number} of {self.night}"
