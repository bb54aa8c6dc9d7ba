"""What the night's emails sent: one row per message, so retries and re-publishes never send one
twice.

- *kind*: ``seats`` (a player's seats when the night's rotation is published, and again, as
  "your seats changed", whenever a repair or a substitute changes them) or ``report`` (the
  player's night after it ends: once).
- *number*: the player's messages of that kind for that night, counted from 1; the database
  refuses a second row with the same number, so two workers running the same job send once.
- *digest*: what the message said, as a hash of its seats: the next seats message is sent only
  when the seats differ from the last one sent.

A row is written in the same transaction as the message is handed to the mail server: a send that
fails rolls it back (the retry sends it), and a committed row means the message went.
"""

from django.db import models
from django.db.models import Q

from league.models import Night, Player

__all__ = ["NightEmail"]


class NightEmail(models.Model):
    class Kind(models.TextChoices):
        SEATS = "seats", "Seats"
        REPORT = "report", "Night's report"

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="emails")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="night_emails")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    number = models.PositiveSmallIntegerField()
    digest = models.CharField(max_length=64)
    email = models.EmailField(help_text="The address it was sent to.")
    sent_at = models.DateTimeField()

    class Meta:
        ordering = ["night_id", "player_id", "kind", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["night", "player", "kind", "number"], name="night_email_once_per_number"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="night_email_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.number} to {self.player} for {self.night}"
