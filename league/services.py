"""Services that write leagues, rulebooks, seasons and the roster: the only writers of them."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.text import slugify

from league.audit import SYSTEM, actor_of, audit_record, player_picture, team_picture
from league.domain.rules import PRESETS, preset_rulebook
from league.domain.rules import Rulebook as RulebookRules
from league.errors import ConflictError, DomainError
from league.models import League, LeagueRole, Player, Rulebook, Season, Team


@contextmanager
def _unique(message: str):
    """Turn a unique-constraint violation inside the block into a clear conflict."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError as error:
        raise ConflictError(message) from error


def league_create(*, name: str, owner, slug: str = "", description: str = "") -> League:
    name = name.strip()
    if not name:
        raise DomainError("a league needs a name", field="name")
    slug = slug or slugify(name)[:80]
    if not slug:
        raise DomainError("the league's name needs a letter or a digit", field="name")
    with _unique(f"a league with the address {slug!r} already exists"):
        league = League.objects.create(name=name, slug=slug, description=description)
        LeagueRole.objects.create(league=league, user=owner, role=LeagueRole.Role.OWNER)
    return league


def rulebook_create(
    *,
    league: League | None,
    name: str,
    preset: str = "",
    options: dict[str, Any] | None = None,
    user=None,
) -> Rulebook:
    """A custom rulebook: a preset's options, with any of them changed."""
    base = preset_rulebook(preset) if preset else RulebookRules()
    rules = RulebookRules.from_options({**base.to_options(), **(options or {})})
    if not name.strip():
        raise DomainError("a rulebook needs a name", field="name")
    return Rulebook.objects.create(
        league=league,
        name=name.strip(),
        preset=preset,
        options=rules.to_options(),
        created_by=user if user is not None and user.is_authenticated else None,
    )


def rulebook_for_preset(*, league: League, slug: str, user=None) -> Rulebook:
    preset_rulebook(slug)
    return rulebook_create(league=league, name=PRESETS[slug].name, preset=slug, user=user)


def season_create(
    *,
    league: League,
    name: str,
    format: str = Season.Format.TEAMS,
    rulebook: Rulebook | None = None,
    preset: str = "",
    starts_on=None,
    ends_on=None,
    user=None,
) -> Season:
    if format not in Season.Format.values:
        raise DomainError("the format is teams or individual", field="format")
    if rulebook is not None and rulebook.league_id not in (None, league.pk):
        raise DomainError("that rulebook belongs to another league", field="rulebook")
    if starts_on and ends_on and ends_on < starts_on:
        raise DomainError("a season cannot end before it starts", field="ends_on")
    with _unique(f"this league already has a season called {name!r}"):
        if rulebook is None:
            rulebook = rulebook_for_preset(league=league, slug=preset or "standard", user=user)
        return Season.objects.create(
            league=league,
            name=name.strip(),
            format=format,
            rulebook=rulebook,
            starts_on=starts_on,
            ends_on=ends_on,
        )


PLAYER_NAME_MAX_LENGTH: int = Player._meta.get_field("name").max_length
"""The longest name a player may have (SQLite does not enforce ``max_length``; the services do)."""


def _player_name(name: str) -> str:
    """A player's name as stored (runs of whitespace made one space), or why it cannot be one."""
    name = " ".join(name.split())
    if not name:
        raise DomainError("a player needs a name", field="name")
    if len(name) > PLAYER_NAME_MAX_LENGTH:
        raise DomainError(
            f"a name has at most {PLAYER_NAME_MAX_LENGTH} characters (it has {len(name)})",
            field="name",
        )
    return name


def _named(league_id: int, name: str):
    """The league's players called ``name`` (whitespace runs made one space), in any case."""
    return Player.objects.filter(league_id=league_id, name__iexact=" ".join(name.split()))


def roster_player_named(*, league_id: int, name: str) -> Player | None:
    """The league's player called ``name``, in any case: how a walk-in is found on the roster."""
    return _named(league_id, name).first()


def _refuse_name_on_roster(*, league_id: int, name: str, other_than: int | None = None) -> None:
    """Refuse a name already on the league's roster in any case: the night desk finds a walk-in
    by name regardless of case (:func:`roster_player_named`), so two such names would make the
    match ambiguous.

    The caller holds the league's row lock (``_lock_roster``); a database constraint cannot
    carry this rule while existing rosters may already hold names that differ only by case.
    """
    taken = _named(league_id, name)
    if other_than is not None:
        taken = taken.exclude(pk=other_than)
    if taken.exists():
        raise ConflictError(f"{name} is already on this league's roster")


def _lock_roster(league_id: int) -> None:
    """Lock the league's row so that two players are added or renamed one after the other (a
    no-key lock: rows pointing at the league can still be written meanwhile)."""
    League.objects.select_for_update(no_key=True).filter(pk=league_id).values_list(
        "pk", flat=True
    ).first()


def player_create(*, league: League, name: str, email: str = "", user=None) -> Player:
    name = _player_name(name)
    with _unique(f"{name} is already on this league's roster"):
        _lock_roster(league.pk)
        _refuse_name_on_roster(league_id=league.pk, name=name)
        player = Player.objects.create(league=league, name=name, email=email)
        audit_record(
            league=league,
            actor=actor_of(user, default=SYSTEM),
            action="player.create",
            target=player,
            before=None,
            after=player_picture(player),
        )
        return player


def team_create(
    *, season: Season, name: str, player_one: Player, player_two: Player, user=None
) -> Team:
    if season.format != Season.Format.TEAMS:
        raise DomainError(
            "this season's partners rotate: teams are for seasons of fixed partnerships",
            field="season",
        )
    if player_one.pk == player_two.pk:
        raise DomainError("a team is two different players", field="player_two")
    for player in (player_one, player_two):
        if player.league_id != season.league_id:
            raise DomainError(f"{player} is not on this league's roster", field="player_one")
    pair = [player_one, player_two]
    with _unique(f"this season already has a team called {name!r}"):
        # The season's row is the lock: two organisers adding overlapping teams at once take
        # turns, so the second one sees the first one's team in the check below.
        Season.objects.select_for_update().filter(pk=season.pk).exists()
        clash = Team.objects.filter(season=season, is_withdrawn=False).filter(
            Q(player_one__in=pair) | Q(player_two__in=pair)
        )
        if clash.exists():
            raise DomainError("a player can be on only one team in a season", field="player_one")
        team = Team.objects.create(
            season=season, name=name.strip(), player_one=player_one, player_two=player_two
        )
        audit_record(
            league=season.league_id,
            actor=actor_of(user, default=SYSTEM),
            action="team.create",
            target=team,
            before=None,
            after=team_picture(team),
        )
        return team


# --- The organiser's workspace (issue 7): roster edits, imports, nights, invitations ---


def player_update(*, player: Player, name: str, email: str = "", user=None) -> Player:
    """Rename a player or change their email; the old values stay on the audit trail."""
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    name = _player_name(name)
    email = email.strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise DomainError(f"{email!r} is not an email address", field="email") from None
    with _unique(f"{name} is already on this league's roster"):
        _lock_roster(player.league_id)
        player = Player.objects.select_for_update().get(pk=player.pk)
        before = player_picture(player)
        if before["name"] == name and before["email"] == email:
            return player
        if before["name"] != name:  # a new email alone is fine beside an older case twin
            _refuse_name_on_roster(league_id=player.league_id, name=name, other_than=player.pk)
        player.name, player.email = name, email
        player.save(update_fields=["name", "email"])
        audit_record(
            league=player.league_id,
            actor=actor_of(user, default=SYSTEM),
            action="player.update",
            target=player,
            before=before,
            after=player_picture(player),
        )
        return player


def player_deactivate(*, player: Player, user=None, reason: str = "") -> Player:
    """Take a player off the active roster (their games and stats stay)."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if not player.is_active:
            raise ConflictError(f"{player.name} is already inactive", code="inactive")
        before = player_picture(player)
        player.is_active = False
        player.save(update_fields=["is_active"])
        audit_record(
            league=player.league_id,
            actor=actor_of(user, default=SYSTEM),
            action="player.deactivate",
            target=player,
            before=before,
            after=player_picture(player),
            reason=reason,
        )
        return player


class RosterImportError(DomainError):
    """A roster import refused as a whole; ``problems`` lists (line number, reason) per bad row."""

    def __init__(self, problems: list[tuple[int, str]]):
        count = len(problems)
        super().__init__(
            f"{count} row{'s' if count != 1 else ''} cannot be imported; nothing was imported",
            field="file",
        )
        self.problems = problems


def roster_import(*, league: League, rows: list[tuple[int, str, str]], user=None) -> list[Player]:
    """Add players to a league's roster from ``(line number, name, email)`` rows: all of them in
    one transaction, or none of them if any row is bad (:class:`RosterImportError` says which
    rows and why)."""
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    on_roster = {name.casefold() for name in league.players.values_list("name", flat=True)}
    seen: dict[str, int] = {}
    problems: list[tuple[int, str]] = []
    cleaned: list[tuple[str, str]] = []
    for line, raw_name, raw_email in rows:
        name, email = " ".join((raw_name or "").split()), (raw_email or "").strip()
        key = name.casefold()
        if not name:
            problems.append((line, "the name is empty"))
        elif len(name) > PLAYER_NAME_MAX_LENGTH:
            problems.append((line, f"the name is longer than {PLAYER_NAME_MAX_LENGTH} characters"))
        elif key in on_roster:
            problems.append((line, f"{name} is already on the roster"))
        elif key in seen:
            problems.append((line, f"{name} is also on line {seen[key]}"))
        else:
            seen[key] = line
        if email:
            try:
                validate_email(email)
            except ValidationError:
                problems.append((line, f"{email!r} is not an email address"))
        cleaned.append((name, email))
    if not rows:
        problems.append((1, "the file has no players"))
    if problems:
        raise RosterImportError(problems)
    with transaction.atomic():
        return [
            player_create(league=league, name=name, email=email, user=user)
            for name, email in cleaned
        ]


def night_create(*, season: Season, date, venue: str = "", user=None):
    """Plan a night of a season."""
    from league.models import Night

    if date is None:
        raise DomainError("a night needs a date", field="date")
    too_early = season.starts_on is not None and date < season.starts_on
    too_late = season.ends_on is not None and date > season.ends_on
    if too_early or too_late:
        raise DomainError("the night must fall within the season's dates", field="date")
    return Night.objects.create(season=season, date=date, venue=venue.strip())


def invitation_create(*, league: League, user, email: str = ""):
    """The owner invites a co-organiser: a one-time secret link to pass on."""
    import secrets

    from league.access import require_league_owner
    from league.models import Invitation

    require_league_owner(user=user, league_id=league.pk)
    return Invitation.objects.create(
        league=league, token=secrets.token_urlsafe(24), email=email.strip(), invited_by=user
    )


def invitation_accept(*, invitation, user) -> LeagueRole:
    """The invitee, signed in, becomes a co-organiser of the league. A link works once."""
    from django.utils import timezone

    from league.models import Invitation

    if user is None or not user.is_authenticated:
        raise DomainError("sign in to accept the invitation")
    with transaction.atomic():
        invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
        if not invitation.is_open:
            raise ConflictError("this invitation was already used", code="used")
        if LeagueRole.objects.filter(league_id=invitation.league_id, user=user).exists():
            raise ConflictError("you already organise this league", code="already_organiser")
        role = LeagueRole.objects.create(
            league_id=invitation.league_id, user=user, role=LeagueRole.Role.ORGANISER
        )
        invitation.accepted_by, invitation.accepted_at = user, timezone.now()
        invitation.save(update_fields=["accepted_by", "accepted_at"])
        audit_record(
            league=invitation.league_id,
            actor=user,
            action="organiser.join",
            target=role,
            before=None,
            after={"user": user.get_username(), "role": role.role},
        )
        return role


# --- An organiser's own API tokens (issue 31) ---

API_TOKEN_START = "eul_"
"""How every key of :class:`league.models.ApiToken` begins: a key DRF's own token table made
(40 hex digits) never does, so the authentication knows which table to look in."""

API_TOKEN_TOUCH_SECONDS = 60
"""``last_used_at`` is written at most once a minute per token: a client sending hands in a burst
costs no write per request."""


def api_token_digest(key: str) -> str:
    """The SHA-256 of a key, as stored: the key itself is random (240 bits), so a plain digest is
    as good as a slow password hash for it, and is looked up by an index."""
    import hashlib

    return hashlib.sha256(key.encode()).hexdigest()


def api_token_create(*, user, name: str):
    """A new named API token for ``user``: returns the row and the key, which is never stored and
    cannot be shown again."""
    import secrets

    from league.models import ApiToken

    if user is None or not user.is_authenticated:
        raise DomainError("sign in to make an API token")
    name = " ".join(name.split())
    if not name:
        raise DomainError("give the token a name (what will use it?)", field="name")
    limit = ApiToken._meta.get_field("name").max_length
    if len(name) > limit:
        raise DomainError(f"a token's name has at most {limit} characters", field="name")
    key = API_TOKEN_START + secrets.token_urlsafe(30)
    token = ApiToken.objects.create(
        user=user, name=name, digest=api_token_digest(key), prefix=key[:12]
    )
    return token, key


def api_token_revoke(*, token) -> None:
    """Revoke a token (from :func:`league.access.api_token_for_owner`): it opens nothing from the
    next request on; the row stays, listed as revoked."""
    from django.utils import timezone

    from league.models import ApiToken

    ApiToken.objects.filter(pk=token.pk, revoked_at=None).update(revoked_at=timezone.now())


def api_token_user(*, key: str):
    """The active user whose unrevoked token ``key`` is, and the token, or ``None`` if no such
    token is in use; notes when it was last used (:data:`API_TOKEN_TOUCH_SECONDS`)."""
    import datetime

    from django.utils import timezone

    from league.models import ApiToken

    token = (
        ApiToken.objects.select_related("user")
        .filter(digest=api_token_digest(key), revoked_at=None)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= datetime.timedelta(
        seconds=API_TOKEN_TOUCH_SECONDS
    ):
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token
