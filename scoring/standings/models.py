"""A season's standings as computed: the snapshot, its entrants' lines and each ranked game's share.

Written only by the recompute (``scoring.standings.services.recompute``); pages and the API read
them. The tables are the ones these models had when they lived in the games app (label
``scoring``): the move between apps changed no table and no row.
"""

from django.db import models

from league.models import Season
from scoring.games.models import Game
from scoring.standings.domain.stats import STATS_LINE_KINDS


class StandingSnapshot(models.Model):
    """A season's computed standings, ratings and night lines, as of one ``results_version``.

    Written only by the recompute job; pages and the API read it. Each player's and team's stats
    (partners and opponents included) are not here but on their own ``StandingLine`` rows,
    written in the same transaction: readers want one entrant's stats, never all of them.
    ``results_version`` is the season's counter the snapshot was computed from: when it is behind
    the season's, a recompute is due (and the sweep finds it even if the message asking for one
    was lost). ``race`` is written by the race job after the snapshot; ``race_version`` behind
    ``results_version``, or ``race_games`` other than the digest of the season's games still to
    play (a game added, moved or removed), means the race is due.
    """

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="snapshot")
    results_version = models.PositiveBigIntegerField()
    computed_at = models.DateTimeField()
    duration_ms = models.PositiveIntegerField(default=0)
    standings = models.JSONField()
    ratings = models.JSONField(default=list)
    nights = models.JSONField(default=list, help_text="Per night: games and points per entrant.")
    race = models.JSONField(
        default=dict,
        blank=True,
        help_text="The playoff race (scoring.standings.services.race): proofs, odds and the "
        "stakes of coming games.",
    )
    race_version = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="The results_version the race was computed from."
    )
    race_games = models.CharField(
        max_length=32,
        blank=True,
        default="",
        help_text="A digest of the season's games still to play and nights the race was "
        "computed from (scoring.standings.services.race_games): when the season's differ, the "
        "race is due.",
    )
    basis = models.JSONField(
        default=dict,
        blank=True,
        help_text="What the snapshot was ranked under (rulebook, standing rules, format): when "
        "it changes, the next recompute starts from scratch rather than from the stored totals.",
    )

    class Meta:
        db_table = "scoring_standingsnapshot"  # the table it had in the scoring app

    def __str__(self) -> str:
        return f"Standings of {self.season} at version {self.results_version}"


class StandingLine(models.Model):
    """One entrant's line of a season's snapshot, stored on its own row so one player's stats are
    read without loading every player's (which run to tens of megabytes in a large season). The
    player and team stats live only here; ratings are also in the snapshot. The standings rows
    live only in the snapshot: a game moves the rank and Buchholz of nearly every entrant, so a
    line each would be rewritten by every fold (an entrant's row is read out of the snapshot:
    ``scoring.standings.selectors.standing_rows_of``).

    Written by the recompute in the same transaction as the snapshot
    (``scoring.standings.services.recompute``), so the lines always belong to the snapshot's
    ``results_version``; only lines whose ``digest`` changed are rewritten (after one game, mostly
    the stats of its four players). ``kind`` says which part of the snapshot the line comes from;
    ``entrant_id`` is a player's id (``player``, ``rating``) or a team's (``team``). A stats
    line keeps its partner and opponent records as numbers
    (``scoring.standings.domain.stats.PAIR_STORED_FIELDS``: a fifth of the JSON of objects); the
    selectors read it as the API shows it (``scoring.standings.selectors.line_shown``).
    """

    class Kind(models.TextChoices):
        PLAYER = "player", "Player stats"
        TEAM = "team", "Team stats"
        RATING = "rating", "Rating"

    STATS_KINDS = tuple(map(Kind, STATS_LINE_KINDS))
    """The stats lines (``scoring.standings.domain.stats.STATS_LINE_KINDS``): their pair records
    are stored as numbers (``PAIR_STORED_FIELDS``)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standing_lines")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    entrant_id = models.PositiveBigIntegerField()
    data = models.JSONField()
    digest = models.CharField(
        max_length=32, default="", help_text="A hash of data: a recompute rewrites changed lines."
    )

    class Meta:
        db_table = "scoring_standingline"  # the table it had in the scoring app
        constraints = [
            models.UniqueConstraint(
                fields=["season", "kind", "entrant_id"], name="standing_line_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} line of {self.entrant_id} in season {self.season_id}"


class StandingGame(models.Model):
    """What one ranked game adds to its season's snapshot: the game as the snapshot counted it
    and its hands counted by side (packed counts, ``scoring.standings.services.recompute``).

    Written by the recompute in the same transaction as the snapshot, one row per game the
    snapshot counts, so a game that changes later has its old share subtracted from the
    snapshot's running totals and its new share added (an incremental recompute), and a game
    played after all others is rated on from the stored ratings. ``finished_at`` orders the games
    for the ratings.
    """

    # No foreign-key constraints in the database: a recompute from scratch writes a row per game
    # of a large season, and checking each one costs more than counting its hands. The rows are
    # written only from the games themselves, and deleted with them (by Django's cascade). No
    # index of the season's own either: the played order's (``standing_game_played``) starts
    # with it, and every share written would update both.
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    finished_at = models.DateTimeField(null=True)
    seat_0_id = models.BigIntegerField()
    seat_1_id = models.BigIntegerField()
    seat_2_id = models.BigIntegerField()
    seat_3_id = models.BigIntegerField()
    team_a_id = models.BigIntegerField(null=True)
    team_b_id = models.BigIntegerField(null=True)
    score_a = models.IntegerField()
    score_b = models.IntegerField()
    winner = models.CharField(max_length=1, blank=True)
    night_id = models.BigIntegerField(null=True)
    first_number = models.IntegerField(null=True)
    # Packed hand counts (``scoring.standings.services.recompute``): side A's and side B's as
    # makers, then the callers' own by seat.
    a0, a1, a2, a3 = (models.BigIntegerField(default=0) for _ in range(4))
    b0, b1, b2, b3 = (models.BigIntegerField(default=0) for _ in range(4))
    c0, c1, c2, c3, c4, c5, c6, c7 = (models.BigIntegerField(default=0) for _ in range(8))

    class Meta:
        db_table = "scoring_standinggame"  # the table it had in the scoring app
        indexes = [
            # The shares in played order, and the last played (whether a fold's new games came
            # after every other, so the ratings go on from the stored ones): read from the
            # index, not by sorting a large season's hundred thousand shares at every fold.
            models.Index(fields=["season", "finished_at", "game"], name="standing_game_played"),
        ]

    def __str__(self) -> str:
        return f"Share of game {self.game_id} in season {self.season_id}"
