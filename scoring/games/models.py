"""Games and hands.

- *game*: two sides of two players at a table, played to the rulebook's target or for its number
  of hands. Seats are numbered 0–3 clockwise: seats 0 and 2 are side A, 1 and 3 side B.
- *hand*: one deal's result. It stores the **facts** the captain entered and the **points**
  derived from them by the scoring engine under the season's rulebook. A hand is never
  overwritten: an undo voids it, a correction supersedes it with a new row (who, when, why kept).
- *running state*: what the next hand needs from a game's past, kept on the game row by every
  hand write in the same transaction: the score, the scored hands (``hands_played``), the last
  counting hand's number and the next dealer. A new hand is folded into it, not replayed.
- *captain token*: the unguessable secret in a table's link and QR code; whoever holds it may score
  that game and nothing else.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from league.models import Night, Player, Season, Team
from scoring.games.hand_counts import caller_packs, maker_packs


def new_captain_token() -> str:
    """A fresh unguessable token: 128 bits of randomness, URL safe."""
    return secrets.token_urlsafe(16)


def _counted(expression) -> models.GeneratedField:
    """A hand's packed counts (``scoring.games.hand_counts``), worked out by the database as the row
    is written and stored with it."""
    return models.GeneratedField(
        expression=expression, output_field=models.BigIntegerField(), db_persist=True
    )


_MAKER_PACKS, _CALLER_PACKS = maker_packs(), caller_packs()


class Side(models.TextChoices):
    A = "A", "Side A"
    B = "B", "Side B"


class Game(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        IN_PROGRESS = "in_progress", "In progress"
        FINISHED = "finished", "Finished"
        VOIDED = "voided", "Voided (will not be played)"

    class Confirmation(models.TextChoices):
        PENDING = "pending", "Waiting for the other side"
        CONFIRMED = "confirmed", "Confirmed"
        DISPUTED = "disputed", "Disputed"

    # Its own index would repeat the first column of game_season_status and game_season_newest.
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="games", db_index=False
    )
    night = models.ForeignKey(
        Night, on_delete=models.SET_NULL, null=True, blank=True, related_name="games"
    )
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    team_a = models.ForeignKey(
        Team, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    team_b = models.ForeignKey(
        Team, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    seat_0 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    seat_1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    seat_2 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    seat_3 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    first_dealer_seat = models.PositiveSmallIntegerField(default=0)
    hands_per_game = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="A game of this many hands, whatever the rulebook says (a night's choice).",
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.SCHEDULED)
    score_a = models.IntegerField(default=0)
    score_b = models.IntegerField(default=0)
    hands_played = models.PositiveSmallIntegerField(default=0)
    last_hand_number = models.PositiveSmallIntegerField(
        default=0,
        help_text="The number of the last hand that counts (thrown-in and misdealt hands "
        "included); 0 before the first. Kept with the running score by every hand write.",
    )
    next_dealer_seat = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The seat that deals after the last hand that counts; empty before the first "
        "hand (the first dealer deals). Kept with the running score by every hand write.",
    )
    winner = models.CharField(max_length=1, choices=Side.choices, blank=True)
    time_called = models.BooleanField(
        default=False,
        help_text="Time was called on one of its counting hands: finished, the game ended at "
        "time (a draw when it has no winner); in progress, it was level at time and the next "
        "hand that breaks the tie ends it. Kept with the running score by every hand write.",
    )
    counts_for_standings = models.BooleanField(
        default=True, help_text="False for playoff games: they do not change the season's table."
    )
    void_reason = models.CharField(max_length=300, blank=True)
    is_final_score_only = models.BooleanField(
        default=False, help_text="Recorded by its final score alone, with no hand detail."
    )
    captain_token = models.CharField(max_length=64, unique=True, default=new_captain_token)
    confirmation = models.CharField(
        max_length=20, choices=Confirmation.choices, default=Confirmation.PENDING
    )
    dispute_reason = models.TextField(blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "id"]
        indexes = [
            models.Index(fields=["season", "status"], name="game_season_status"),
            # The games list, newest first (its ordering), whole or of one season: a page reads
            # its rows from the index instead of sorting every game.
            models.Index(fields=["-created_at", "id"], name="game_newest"),
            models.Index(fields=["season", "-created_at", "id"], name="game_season_newest"),
            # The games still to play of every season, few beside the history: what the beat's
            # sweep reads to find a race whose games changed
            # (scoring.standings.services.race_games).
            models.Index(
                fields=["season", "id"],
                condition=Q(status__in=["scheduled", "in_progress"]),
                name="game_left",
            ),
            # A season's playoff games (a bracket's, not counted), few beside its history: whom
            # the standings list unranked (scoring.standings.services.values).
            models.Index(
                fields=["season", "id"],
                condition=Q(counts_for_standings=False),
                name="game_playoff",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~Q(seat_0=F("seat_1"))
                & ~Q(seat_0=F("seat_2"))
                & ~Q(seat_0=F("seat_3"))
                & ~Q(seat_1=F("seat_2"))
                & ~Q(seat_1=F("seat_3"))
                & ~Q(seat_2=F("seat_3")),
                name="game_four_different_players",
            ),
            models.CheckConstraint(
                condition=Q(first_dealer_seat__lte=3), name="game_dealer_seat_0_to_3"
            ),
            models.CheckConstraint(
                condition=Q(hands_per_game__isnull=True)
                | Q(hands_per_game__gte=1, hands_per_game__lte=100),
                name="game_hands_per_game_1_to_100",
            ),
            models.CheckConstraint(
                condition=Q(status="finished") | Q(winner=""),
                name="game_winner_only_when_finished",
            ),
            models.CheckConstraint(
                condition=Q(last_hand_number=0, next_dealer_seat__isnull=True)
                | Q(last_hand_number__gt=0, next_dealer_seat__lte=3),
                name="game_next_dealer_with_last_hand",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk}: {self.side_name('A')} v {self.side_name('B')}"

    @property
    def seat_player_ids(self) -> tuple[int, int, int, int]:
        return (self.seat_0_id, self.seat_1_id, self.seat_2_id, self.seat_3_id)

    @property
    def seats(self) -> tuple[Player, Player, Player, Player]:
        return (self.seat_0, self.seat_1, self.seat_2, self.seat_3)

    def side_players(self, side: str) -> tuple[Player, Player]:
        return (self.seat_0, self.seat_2) if side == "A" else (self.seat_1, self.seat_3)

    def side_name(self, side: str) -> str:
        team = self.team_a if side == "A" else self.team_b
        if team is not None:
            return team.name
        first, second = self.side_players(side)
        return f"{first.name} & {second.name}"


class Hand(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "Counts"
        SUPERSEDED = "superseded", "Corrected (replaced)"
        VOIDED = "voided", "Undone"

    class Outcome(models.TextChoices):
        MAKE = "make", "Made it"
        MARCH = "march", "March"
        LONE_MAKE = "lone_make", "Loner made"
        LONE_MARCH = "lone_march", "Loner marched"
        EUCHRE = "euchre", "Euchred"
        LONE_CALLER_EUCHRED = "lone_caller_euchred", "Euchred a loner"
        LONE_DEFENDER_EUCHRE = "lone_defender_euchre", "Euchred by a lone defender"
        RENEGE = "renege", "Renege"
        THROWN_IN = "thrown_in", "Thrown in"
        MISDEAL = "misdeal", "Misdeal"

    class Source(models.TextChoices):
        API = "api", "API"
        CAPTAIN = "captain", "Captain's page"
        ORGANISER = "organiser", "Organiser"
        IMPORT = "import", "Import"

    # Indexed by hand_game_status_number, which leads with the game: a hand is written at every
    # deal, and each index on the table is one more entry to write.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands", db_index=False)
    number = models.PositiveSmallIntegerField()
    # Facts
    makers = models.CharField(max_length=1, choices=Side.choices, blank=True)
    caller = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    caller_alone = models.BooleanField(default=False)
    defender_alone = models.BooleanField(default=False)
    tricks_won = models.PositiveSmallIntegerField(null=True, blank=True)
    renege = models.CharField(max_length=1, choices=Side.choices, blank=True)
    thrown_in = models.BooleanField(default=False)
    misdeal = models.BooleanField(default=False)
    ordered_up = models.BooleanField(
        null=True, blank=True, help_text="Trump was ordered up in round one (unknown if empty)."
    )
    time_called = models.BooleanField(
        default=False,
        help_text="Time was called during this hand (a timed rulebook): the game's last hand, "
        "unless level and playing on.",
    )
    dealer_seat = models.PositiveSmallIntegerField()
    # Derived by the engine from the facts under this rulebook version
    rulebook = models.ForeignKey("league.Rulebook", on_delete=models.PROTECT, related_name="+")
    outcome = models.CharField(max_length=30, choices=Outcome.choices)
    points_a = models.SmallIntegerField()
    points_b = models.SmallIntegerField()
    # Record keeping
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE)
    # NULL, not "", when no key was sent: keys are unique (hand_client_key_unique), absent ones not
    client_key = models.CharField(max_length=100, null=True, blank=True)  # noqa: DJ001
    source = models.CharField(max_length=20, choices=Source.choices, default=Source.API)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    replaced_by = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="replaces",
    )
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,  # hand_changed_by: only the few changed hands
    )
    changed_at = models.DateTimeField(null=True, blank=True)
    change_reason = models.TextField(blank=True)
    # Derived by the database from the facts: what the hand counts, packed
    # (scoring.games.hand_counts)
    maker_counts_0 = _counted(_MAKER_PACKS[0])
    maker_counts_1 = _counted(_MAKER_PACKS[1])
    maker_counts_2 = _counted(_MAKER_PACKS[2])
    maker_counts_3 = _counted(_MAKER_PACKS[3])
    caller_counts_0 = _counted(_CALLER_PACKS[0])
    caller_counts_1 = _counted(_CALLER_PACKS[1])

    class Meta:
        ordering = ["game_id", "number", "created_at"]
        indexes = [
            models.Index(fields=["game", "status", "number"], name="hand_game_status_number"),
            models.Index(
                fields=["changed_by"], condition=Q(changed_by__isnull=False), name="hand_changed_by"
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number"],
                condition=Q(status="active"),
                name="hand_one_active_number_per_game",
            ),
            # A constraint, not unique=True: that also makes a LIKE index no query uses.
            models.UniqueConstraint(fields=["client_key"], name="hand_client_key_unique"),
            models.CheckConstraint(
                condition=Q(tricks_won__isnull=True) | Q(tricks_won__lte=5),
                name="hand_tricks_0_to_5",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
            models.CheckConstraint(condition=Q(dealer_seat__lte=3), name="hand_dealer_seat_0_to_3"),
            models.CheckConstraint(
                condition=Q(status="active") | ~Q(change_reason=""),
                name="hand_change_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} of game {self.game_id}"


class ResultChange(models.Model):
    """One committed change to a season's results, waiting for the standings recompute to fold it.

    Every write that changes a result (a hand recorded, undone or corrected, a final score, a game
    called off) inserts one row in its own transaction, instead of raising a counter on the season
    row: inserts of different tables never wait on one another, and a row is visible exactly when
    its change is committed, whatever order the transactions took their ids in.

    - *pending*: the rows still here. The season's results version is
      ``Season.results_version + <pending rows>``; it grows by one at every committed change.
    - *folding*: the recompute reads the pending rows, computes, and in the transaction that stores
      the snapshot deletes exactly the rows it read and adds their number to
      ``Season.results_version`` (the version does not move). Rows committed meanwhile stay
      pending, so the season stays visibly stale until a recompute has seen them.
    """

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="result_changes")
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="result_changes"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Change {self.pk} of season {self.season_id} (game {self.game_id})"
