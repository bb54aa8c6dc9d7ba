"""Leagues, seasons, rulebooks, the roster and nights.

- *league*: an organisation's competition ("Tuesday euchre at Rosie's"); its organisers run it.
- *rulebook*: one immutable version of a league's scoring rules (options as data, see
  :mod:`league.domain.rules`). Changing a season's rules makes a new version.
- *season*: a span of nights with one rulebook version, a format and standings.
- *player*: a person on a league's roster; *team*: a fixed partnership within a season.
- *night*: one evening of play in a season; *attendance*: a player checked in for a night.
- *archived*: a season or a night an organiser took away (``archived_at`` set). Nothing of it is
  deleted: its rows stay as they were, it is left out of every public page, list, standings input
  and the night desk, and an organiser can restore it exactly (``tournaments.services.archiving``).
  A night of an archived season is out of sight with its season.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q

MAX_ID = 2**63 - 1
"""The largest bigint: the largest id a row can have on either database."""


class ArchivedFields(models.Model):
    """``archived_at`` and ``archived_by``: when and by whom a row was archived (both empty while
    it is in use). Written only by the archiving services."""

    archived_at = models.DateTimeField(null=True, blank=True)
    archived_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        abstract = True


class SeasonQuerySet(models.QuerySet):
    def not_archived(self):
        return self.filter(archived_at__isnull=True)


class NightQuerySet(models.QuerySet):
    def not_archived(self):
        """Nights in use: neither archived nor of an archived season."""
        return self.filter(archived_at__isnull=True, season__archived_at__isnull=True)


class League(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=80, unique=True)
    description = models.TextField(blank=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="LeagueRole", related_name="organised_leagues"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class LeagueRole(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", "Owner"
        ORGANISER = "organiser", "Co-organiser"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_roles"
    )
    role = models.CharField(max_length=20, choices=Role.choices, default=Role.ORGANISER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="league_role_one_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} – {self.get_role_display()} of {self.league}"


class Rulebook(models.Model):
    """One version of a set of scoring rules. Never edited once a season uses it."""

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="rulebooks", null=True, blank=True
    )
    name = models.CharField(max_length=120)
    preset = models.SlugField(max_length=40, blank=True, help_text="The preset it started from.")
    options = models.JSONField(help_text="Every scoring option; see league.domain.rules.Rulebook.")
    version = models.PositiveIntegerField(default=1)
    previous = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="next_versions",
        help_text="The version this one replaced.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league_id", "name", "version"]
        constraints = [
            models.CheckConstraint(condition=Q(version__gte=1), name="rulebook_version_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.name} v{self.version}"


class Season(ArchivedFields):
    class Format(models.TextChoices):
        TEAMS = "teams", "Teams (fixed partnerships)"
        INDIVIDUAL = "individual", "Individual (partners rotate)"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=120)
    format = models.CharField(max_length=20, choices=Format.choices, default=Format.TEAMS)
    rulebook = models.ForeignKey(Rulebook, on_delete=models.PROTECT, related_name="seasons")
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    fairness_public = models.BooleanField(
        default=False,
        help_text="Show the season's fairness report (partners, byes, strength of schedule) on "
        "its public page and to anyone through the API; organisers always see it.",
    )
    balance_partner_strength = models.BooleanField(
        default=False,
        help_text="Individual seasons: among rotations equally good for the night and the season, "
        "choose the one that makes each player's average partner rating most even.",
    )
    standing_rules = models.JSONField(
        default=dict, blank=True, help_text="Tie-break chain and season rules for the standings."
    )
    usual_rounds = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Rounds a night usually holds: the default when a night is planned (empty: the "
        "last night's, else a small number that fits an evening).",
    )
    results_version = models.PositiveBigIntegerField(
        default=0,
        help_text="Changes to the season's results folded into its standings so far (a rules "
        "change raises it directly); the changes still pending are scoring's ResultChange rows.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = SeasonQuerySet.as_manager()

    class Meta:
        ordering = ["league_id", "-starts_on", "name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="season_name_unique_in_league"),
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True)
                | Q(starts_on__isnull=True)
                | Q(ends_on__gte=F("starts_on")),
                name="season_ends_after_start",
            ),
            models.CheckConstraint(
                condition=Q(usual_rounds__isnull=True) | Q(usual_rounds__gte=1),
                name="season_usual_rounds_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league} – {self.name}"


def new_link_token() -> str:
    """A fresh unguessable token for a player's own link or a night's door: 128 random bits."""
    return secrets.token_urlsafe(16)


class Player(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=120)
    email = models.EmailField(blank=True)
    is_active = models.BooleanField(default=True)
    link_token = models.CharField(
        max_length=64,
        unique=True,
        null=True,
        blank=True,
        default=new_link_token,
        help_text="The secret of the player's own link (/me/<token>/); empty: turned off by an "
        "organiser. A new one makes the old link stop working.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="player_name_unique_in_league"),
        ]

    def __str__(self) -> str:
        return self.name


class EmailConsent(models.Model):
    """A player's consent to the league's emails (their seats when a night's rotation is published,
    their report after the night) at one address: what they agreed to (``wording``, the words
    they were shown) and when.

    - *recorded by an organiser*: the player told the organiser, who ticked the box on the
      player's page; it counts at once (``confirmed_at`` = ``consented_at``).
    - *signed up*: the player asked on their public page; it counts only once they open the
      link of the confirmation email (double opt-in): nothing else is sent before.
    - *ended*: unsubscribed (a link of any email), stopped by an organiser, or replaced by a
      newer consent of the same player. An ended consent is kept, as the record of what was
      agreed, and never counts again.

    At most one counting (confirmed, not ended) consent per player, by constraint. Written only by
    ``league.services`` (``email_consent_*``); the address is never shown publicly.
    """

    class Source(models.TextChoices):
        ORGANISER = "organiser", "Recorded by an organiser"
        PLAYER = "player", "Signed up on their page"

    class Ending(models.TextChoices):
        UNSUBSCRIBED = "unsubscribed", "Unsubscribed"
        STOPPED = "stopped", "Stopped by an organiser"
        REPLACED = "replaced", "Replaced by a newer consent"

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="email_consents")
    email = models.EmailField()
    wording = models.TextField(help_text="The words the player agreed to, as they were shown.")
    source = models.CharField(max_length=20, choices=Source.choices)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    consented_at = models.DateTimeField()
    confirmed_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    ending = models.CharField(max_length=20, choices=Ending.choices, blank=True)

    class Meta:
        ordering = ["-consented_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(confirmed_at__isnull=False, ended_at__isnull=True),
                name="email_consent_one_counting_per_player",
            ),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True, ending="")
                | Q(ended_at__isnull=False) & ~Q(ending=""),
                name="email_consent_ended_with_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}'s consent of {self.consented_at:%Y-%m-%d}"

    @property
    def is_counting(self) -> bool:
        """Mail may be sent under it: confirmed and not ended."""
        return self.confirmed_at is not None and self.ended_at is None


class Team(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=120)
    player_one = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_two = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    is_withdrawn = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="team_name_unique_in_season"),
            models.CheckConstraint(
                condition=~Q(player_one=F("player_two")), name="team_two_different_players"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def player_ids(self) -> tuple[int, int]:
        return (self.player_one_id, self.player_two_id)


class Night(ArchivedFields):
    class Status(models.TextChoices):
        PLANNED = "planned", "Planned"
        CHECK_IN = "check_in", "Checking in"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="nights")
    date = models.DateField()
    venue = models.CharField(max_length=120, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PLANNED)
    door_token = models.CharField(
        max_length=64,
        unique=True,
        default=new_link_token,
        help_text="The secret of the night's door link (its QR code at the door and on the "
        "tents), where players check themselves in.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = NightQuerySet.as_manager()

    class Meta:
        ordering = ["date", "id"]

    def __str__(self) -> str:
        return f"{self.season.name} – {self.date:%Y-%m-%d}"


class Attendance(models.Model):
    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="attendances")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="attendances")
    checked_in_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["checked_in_at"]
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="attendance_once_per_night"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.night}"


class SelfCheckIn(models.Model):
    """A player's check-in from their own phone at the night's door (the door link's QR code):
    the attendance itself is the same as the desk's; this row says it was the player's own and
    from which phone (``device``: a digest of the phone's cookie, empty if it keeps none).

    *Refused*: an organiser turned it down (``refused_at``): the player was checked out, and
    neither that player nor that phone may check in at the door again that night.
    """

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="self_check_ins")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    device = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    refused_at = models.DateTimeField(null=True, blank=True)
    refused_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="self_check_in_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at the door of {self.night}"


class Rsvp(models.Model):
    """A player's answer for a night ahead: "I'm coming" or "I can't" (one per player and night;
    answering again changes it)."""

    class Answer(models.TextChoices):
        COMING = "coming", "I'm coming"
        NOT_COMING = "not_coming", "I can't"

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="rsvps")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rsvps")
    answer = models.CharField(max_length=20, choices=Answer.choices)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["night_id", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="rsvp_once_per_night"),
            models.CheckConstraint(
                condition=Q(answer__in=["coming", "not_coming"]), name="rsvp_answer_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.get_answer_display()} ({self.night})"


class Invitation(models.Model):
    """An owner's invitation to co-organise a league: a secret link the invitee opens after
    signing up or logging in. It can be accepted once."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True)
    email = models.EmailField(blank=True, help_text="Whom it was meant for (a note, not a check).")
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Invitation to {self.league}"

    @property
    def is_open(self) -> bool:
        return self.accepted_at is None


class AuditEntry(models.Model):
    """One change to results, rules or the roster: who, when, what, before, after and why.

    ``actor`` is the signed-in user who made it; ``actor_label`` is what the trail shows, which is
    the user's name, ``captain`` for a table captain (whoever held the game's link) or ``system``
    for a command. Written only by :func:`league.audit.audit_record`; never changed.
    """

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="audit_entries")
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, null=True, blank=True, related_name="audit_entries"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    actor_label = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)
    action = models.SlugField(max_length=60)
    target_type = models.CharField(max_length=40)
    target_id = models.PositiveBigIntegerField(null=True, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["league", "created_at"], name="audit_league_created"),
            models.Index(fields=["season", "created_at"], name="audit_season_created"),
        ]

    def __str__(self) -> str:
        return f"{self.action} of {self.target_type} {self.target_id} by {self.actor_label}"


class ApiToken(models.Model):
    """An organiser's own named key to the REST API (``Authorization: Token <key>``), several per
    user. Only a SHA-256 digest of the key is stored: the key is shown once, when it is made, and
    a lost one is revoked and replaced. A revoked token is kept (who made it, when, last used)
    but opens nothing."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=80)
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the key, hex.")
    prefix = models.CharField(
        max_length=12, help_text="The key's first characters, to tell keys apart."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.user})"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
