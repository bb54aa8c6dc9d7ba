"""The stored plan of an individual (progressive) night.

- *night plan*: the rotation chosen for one night: how many rounds, how long a game is (the
  season rulebook's hands per game, or a per-night override), the seed it was generated with,
  the quality report, and the constraints (pairs kept apart, players fixed to a table, of whom
  the *stationary* keep their seat too and never sit out). A *draft*
  plan can be generated again; a *published* one is what players see and what rounds start from.
- *planned round*: one round of the plan. *Planned* (not started, may be re-planned by a
  repair), *started* (its games exist: kept exactly as it is), *finished* (all its games over).
- *seat*: where one player is in one round: a table number and a seat 0–3 clockwise (seats 0
  and 2 partner against 1 and 3; seat 0 deals first), or a bye (no table, no seat).

The games of a started round are ``scoring.Game`` rows with the night, round number and table
number set: they hold the real players, so stats follow the people who actually played.
"""

from django.db import models
from django.db.models import Q

from league.models import Night, Player

__all__ = ["NightPlan", "PlannedRound", "Seat"]


class NightPlan(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        PUBLISHED = "published", "Published"

    night = models.OneToOneField(Night, on_delete=models.CASCADE, related_name="plan")
    rounds = models.PositiveSmallIntegerField()
    hands_per_game = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="A per-night game length; empty: the season rulebook's."
    )
    seed = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    report = models.JSONField(default=dict, blank=True, help_text="The rotation's quality report.")
    keep_apart = models.JSONField(
        default=list, blank=True, help_text="Pairs of player ids never to partner: [[a, b], …]."
    )
    fixed_tables = models.JSONField(
        default=dict, blank=True, help_text="Player id → the table number they always play at."
    )
    stationary = models.JSONField(
        default=list,
        blank=True,
        help_text="Player ids (each with a fixed table, one a table) who keep their table and "
        "seat all night and never sit out.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(rounds__gte=1), name="night_plan_rounds_positive"),
            models.CheckConstraint(
                condition=Q(hands_per_game__isnull=True) | Q(hands_per_game__gte=1),
                name="night_plan_hands_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"Plan of {self.night}"


class PlannedRound(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", "Planned"
        STARTED = "started", "Playing"
        FINISHED = "finished", "Finished"

    plan = models.ForeignKey(NightPlan, on_delete=models.CASCADE, related_name="planned_rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PLANNED)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["plan_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["plan", "number"], name="planned_round_number_unique"),
            models.CheckConstraint(
                condition=Q(number__gte=1), name="planned_round_number_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of {self.plan.night}"


class Seat(models.Model):
    round = models.ForeignKey(PlannedRound, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="night_seats")
    table_number = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Empty: a bye."
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["round_id", "table_number", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "player"], name="seat_one_per_player_per_round"
            ),
            models.UniqueConstraint(
                fields=["round", "table_number", "seat"],
                condition=Q(table_number__isnull=False),
                name="seat_one_player_per_table_seat",
            ),
            models.CheckConstraint(
                condition=(Q(table_number__isnull=True) & Q(seat__isnull=True))
                | (Q(table_number__gte=1) & Q(seat__isnull=False) & Q(seat__lte=3)),
                name="seat_at_a_table_0_to_3_or_a_bye",
            ),
        ]

    def __str__(self) -> str:
        where = f"table {self.table_number} seat {self.seat}" if self.table_number else "bye"
        return f"{self.player} – {where}"

    @property
    def is_bye(self) -> bool:
        return self.table_number is None
