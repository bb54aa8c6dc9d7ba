"""Brackets of a team season: their entries (seeds), matches, the games that play them, and
corrections.

Words used here (see ``tournaments.domain.brackets`` for the engine's own):

- *bracket*: a knockout or round robin of a season's teams, built from a structure the engine
  rebuilds from ``kind``, the options and the number of entries (pure and deterministic, so the
  database keeps the results, not the structure). ``draft`` while the organiser reviews the
  seeds; ``published`` once games exist; ``finished`` when every match is decided.
- *entry*: a team and its seed. A withdrawn entry forfeits every match it has not played.
- *bracket match*: one match of the structure, by its engine code (``W2-1``, ``L3-2``, ``GF1`` …).
  Its slots are stored as the engine describes them (``{"kind": "winner", "match": "W1-2"}``), so
  the feeder links are the codes in them. ``winner`` is the result; ``decided_by`` says how
  (the games, a forfeit, or an organiser's correction).
- *needs review*: a match decided by its games whose games no longer say so (a game's winner
  changed, or a game was reopened by an undo). Its result and the later matches stand until the
  organiser confirms or corrects it (``review_reason`` says what changed); nothing is reset
  silently.
- *match game*: the link from a match to one of its games. A best-of-N match has several, played
  one after the other. A link that no longer counts (the match was reset by a correction, or
  forfeited) is ``voided``; the game row itself is kept as it was played.
- *correction*: an organiser changing a finished match's winner, with the later matches it reset.
- *pools*: a ``pools`` bracket deals its seeds into ``pool_count`` pools (snake fashion); each pool
  plays a round robin and its top ``advancing_per_pool`` teams go into a single-elimination
  knockout whose first slots read "2nd in pool A" until pool A has finished.
- *Swiss rounds*: a ``swiss`` bracket plays ``swiss_rounds`` rounds; each round's matches are
  paired from the records so far once every match of the round before is decided, so its
  matches (``S2-1`` …) are stored as they are paired, not all at once.
- *night*: the night a bracket is played on, if the organiser chose one when publishing it. Each
  game it creates gets that night and the lowest free table of the night (a table is free when
  none of the night's games at it is unfinished), so the night's table cards
  (``tournaments.models.tables``) open bracket games as they open a rotation's.
- *team schedule*: a team season's round robin over its nights (``TeamSchedule``): the nights and
  the scheduled games with their captain links, created once.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from league.models import ArchivedFields, Night, Season, Team

__all__ = [
    "Bracket",
    "BracketCorrection",
    "BracketEntry",
    "BracketMatch",
    "BracketMatchGame",
    "TeamSchedule",
]


class BracketQuerySet(models.QuerySet):
    def not_archived(self):
        """Brackets in use: neither archived nor of an archived season."""
        return self.filter(archived_at__isnull=True, season__archived_at__isnull=True)


class Bracket(ArchivedFields):
    class Kind(models.TextChoices):
        SINGLE = "single", "Single elimination"
        DOUBLE = "double", "Double elimination"
        ROUND_ROBIN = "round_robin", "Round robin"
        POOLS = "pools", "Pools, then a knockout"
        SWISS = "swiss", "Swiss rounds"

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        PUBLISHED = "published", "Being played"
        FINISHED = "finished", "Finished"

    class Seeding(models.TextChoices):
        STANDINGS = "standings", "From the standings"
        MANUAL = "manual", "Set by hand"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="brackets")
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    third_place = models.BooleanField(default=False)
    grand_final_reset = models.BooleanField(default=False)
    best_of = models.PositiveSmallIntegerField(default=1)
    cycles = models.PositiveSmallIntegerField(default=1)
    pool_count = models.PositiveSmallIntegerField(default=0, help_text="pools: how many")
    advancing_per_pool = models.PositiveSmallIntegerField(
        default=0, help_text="pools: teams of each pool that go through to the knockout"
    )
    swiss_rounds = models.PositiveSmallIntegerField(default=0, help_text="Swiss: rounds to play")
    seeding = models.CharField(max_length=20, choices=Seeding.choices)
    night = models.ForeignKey(
        Night,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="brackets",
        help_text="The night it is played on, chosen when it is published: its games take that "
        "night's free tables, so the night's table cards open them.",
    )
    cut_note = models.TextField(
        blank=True, help_text="Why the last team in is in and the first team out is out."
    )
    cut_note_short = models.CharField(
        max_length=300,
        blank=True,
        help_text="The cut note in a few plain words ('Clubs is out: Jacks beat them').",
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = BracketQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "name"], name="bracket_name_unique_in_season"
            ),
            models.CheckConstraint(
                condition=Q(best_of__in=(1, 3, 5)), name="bracket_best_of_1_3_5"
            ),
            models.CheckConstraint(condition=Q(cycles__in=(1, 2)), name="bracket_cycles_1_2"),
            models.CheckConstraint(
                condition=~Q(kind="pools") | (Q(pool_count__gte=1) & Q(advancing_per_pool__gte=1)),
                name="bracket_pools_have_pools",
            ),
            models.CheckConstraint(
                condition=~Q(kind="swiss") | Q(swiss_rounds__gte=1),
                name="bracket_swiss_has_rounds",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def wins_needed(self) -> int:
        """Games a team must win to take a match: 1 of 1, 2 of 3, 3 of 5."""
        return self.best_of // 2 + 1


class BracketEntry(models.Model):
    bracket = models.ForeignKey(Bracket, on_delete=models.CASCADE, related_name="entries")
    seed = models.PositiveSmallIntegerField()
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="bracket_entries")
    standing_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    standing_reason = models.CharField(max_length=300, blank=True)
    standing_reason_short = models.CharField(
        max_length=120,
        blank=True,
        help_text="The standing's reason in a few plain words ('Jacks beat them'), beside the "
        "full sentence.",
    )
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawal_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["bracket_id", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["bracket", "seed"], name="bracket_entry_seed_unique"),
            models.UniqueConstraint(fields=["bracket", "team"], name="bracket_entry_team_unique"),
            models.CheckConstraint(condition=Q(seed__gte=1), name="bracket_entry_seed_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.seed}. {self.team}"

    @property
    def is_withdrawn(self) -> bool:
        return self.withdrawn_at is not None


class BracketMatch(models.Model):
    class Part(models.TextChoices):
        WINNERS = "winners", "Winners' bracket"
        LOSERS = "losers", "Losers' bracket"
        FINAL = "final", "Grand final"
        THIRD_PLACE = "third_place", "Third place"
        ROUND_ROBIN = "round_robin", "Round robin"
        POOL = "pool", "Pool"
        SWISS = "swiss", "Swiss round"

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for its teams"
        READY = "ready", "To play"
        DECIDED = "decided", "Decided"
        BYE = "bye", "Bye"
        VOID = "void", "Not needed"

    class DecidedBy(models.TextChoices):
        NOTHING = "", "Not decided"
        GAMES = "games", "Games played"
        FORFEIT = "forfeit", "Forfeit"
        CORRECTION = "correction", "Organiser's correction"

    bracket = models.ForeignKey(Bracket, on_delete=models.CASCADE, related_name="matches")
    code = models.CharField(max_length=16)
    order = models.PositiveIntegerField(help_text="Position in the structure (feeders first).")
    part = models.CharField(max_length=20, choices=Part.choices)
    round = models.PositiveSmallIntegerField()
    pool = models.CharField(max_length=4, blank=True)
    first_slot = models.JSONField()
    second_slot = models.JSONField()
    is_bye = models.BooleanField(default=False)
    reset_of = models.CharField(max_length=16, blank=True)
    winner_place = models.PositiveSmallIntegerField(null=True, blank=True)
    loser_place = models.PositiveSmallIntegerField(null=True, blank=True)
    first_team = models.ForeignKey(
        Team, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    second_team = models.ForeignKey(
        Team, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    winner = models.ForeignKey(
        Team, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_by = models.CharField(
        max_length=20, choices=DecidedBy.choices, default=DecidedBy.NOTHING, blank=True
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.WAITING)
    decided_at = models.DateTimeField(null=True, blank=True)
    needs_review = models.BooleanField(
        default=False, help_text="Its games no longer support its winner: the organiser decides."
    )
    review_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["bracket_id", "order"]
        constraints = [
            models.UniqueConstraint(fields=["bracket", "code"], name="bracket_match_code_unique"),
            models.UniqueConstraint(fields=["bracket", "order"], name="bracket_match_order_unique"),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(status="decided"),
                name="bracket_match_winner_only_when_decided",
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True)
                | Q(winner=models.F("first_team"))
                | Q(winner=models.F("second_team")),
                name="bracket_match_winner_plays_in_it",
            ),
            models.CheckConstraint(
                condition=Q(needs_review=False) | Q(status="decided"),
                name="bracket_match_review_only_when_decided",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.bracket} {self.code}"


class BracketMatchGame(models.Model):
    class Status(models.TextChoices):
        COUNTING = "counting", "Counts"
        VOIDED = "voided", "No longer counts"

    match = models.ForeignKey(BracketMatch, on_delete=models.CASCADE, related_name="game_links")
    game = models.OneToOneField(
        "scoring.Game", on_delete=models.PROTECT, related_name="bracket_link"
    )
    number = models.PositiveSmallIntegerField(help_text="1 for the match's first game, …")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.COUNTING)
    voided_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["match_id", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number"],
                condition=Q(status="counting"),
                name="bracket_match_game_number_unique",
            ),
            models.CheckConstraint(
                condition=Q(status="counting") | ~Q(voided_reason=""),
                name="bracket_match_game_void_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} game {self.number}"


class BracketCorrection(models.Model):
    """An organiser changed a decided match's winner; ``reset`` lists the later matches whose
    results were thrown away (kept here, with who, when and why)."""

    bracket = models.ForeignKey(Bracket, on_delete=models.CASCADE, related_name="corrections")
    code = models.CharField(max_length=16)
    old_winner = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+")
    new_winner = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+")
    reset = models.JSONField(default=list, help_text="[{code, winner}] of each reset match.")
    reason = models.TextField()
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="bracket_correction_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.bracket} {self.code} corrected"


class TeamSchedule(models.Model):
    """A team season's schedule: every team meets every other ``cycles`` times, round by round,
    over the season's nights (at most ``rounds_per_night`` rounds a night). One per season: its
    nights and games are created with it, byes balanced by Berger tables."""

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="team_schedule")
    cycles = models.PositiveSmallIntegerField(default=1)
    rounds_per_night = models.PositiveSmallIntegerField()
    byes = models.JSONField(default=dict, help_text="{round number: team id with the bye}")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(cycles__in=(1, 2)), name="team_schedule_cycles_1_2"),
            models.CheckConstraint(
                condition=Q(rounds_per_night__gte=1), name="team_schedule_rounds_per_night"
            ),
        ]

    def __str__(self) -> str:
        return f"Schedule of {self.season}"
