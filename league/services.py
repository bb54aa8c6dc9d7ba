"""Services that write leagues, rulebooks, seasons and the roster: the only writers of them."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from contextlib import contextmanager
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify

from core.errors import ConflictError, DomainError, NotFoundError
from league.audit import SYSTEM, actor_of, audit_record, player_picture, team_picture
from league.domain.rules import PRESETS, preset_rulebook
from league.domain.rules import Rulebook as RulebookRules
from league.locks import (
    invitation_lock,
    player_consent_lock,
    player_lock,
    roster_lock,
    season_lock,
    season_row_lock,
)
from league.models import EmailConsent, League, LeagueRole, Player, Rulebook, Season, Team


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
    usual_rounds: int | None = None,
    balance_partner_strength: bool = False,
    user=None,
) -> Season:
    if format not in Season.Format.values:
        raise DomainError("the format is teams or individual", field="format")
    if rulebook is not None and rulebook.league_id not in (None, league.pk):
        raise DomainError("that rulebook belongs to another league", field="rulebook")
    if starts_on and ends_on and ends_on < starts_on:
        raise DomainError("a season cannot end before it starts", field="ends_on")
    if usual_rounds is not None and not 1 <= usual_rounds <= MAX_USUAL_ROUNDS:
        raise DomainError(f"a night holds 1 to {MAX_USUAL_ROUNDS} rounds", field="usual_rounds")
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
            usual_rounds=usual_rounds,
            balance_partner_strength=balance_partner_strength,
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

    The caller holds the roster's lock (``league.locks.roster_lock``); a database constraint
    cannot carry this rule while existing rosters may already hold names that differ only by
    case.
    """
    taken = _named(league_id, name)
    if other_than is not None:
        taken = taken.exclude(pk=other_than)
    if taken.exists():
        raise ConflictError(f"{name} is already on this league's roster")


def player_create(*, league: League, name: str, email: str = "", user=None) -> Player:
    name = _player_name(name)
    with _unique(f"{name} is already on this league's roster"):
        roster_lock(league.pk)
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


def _refuse_players_on_teams(*, season: Season, players: list[Player]) -> None:
    """Refuse players already on a team of the season (one not withdrawn), naming each of them and
    their team; the field is the first such player's (``player_one`` or ``player_two``)."""
    ids = [player.pk for player in players]
    teams = Team.objects.filter(season=season, is_withdrawn=False).filter(
        Q(player_one__in=ids) | Q(player_two__in=ids)
    )
    team_of = {pk: team for team in teams for pk in team.player_ids if pk in ids}
    taken = [player for player in players if player.pk in team_of]
    if taken:
        said = "; ".join(
            f"{player.name} is already on {team_of[player.pk].name}" for player in taken
        )
        field = "player_one" if taken[0].pk == ids[0] else "player_two"
        raise DomainError(f"a player can be on only one team in a season: {said}", field=field)


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
        season_lock(season.pk)
        _refuse_players_on_teams(season=season, players=pair)
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
        roster_lock(player.league_id)
        player = player_lock(player.pk)
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
        player = player_lock(player.pk)
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


class LinesRefusedError(DomainError):
    """A list (a file or a paste) refused as a whole; ``problems`` lists (line number, reason)
    per bad line, in line order."""

    def __init__(self, problems: list[tuple[int, str]], *, field: str = "file"):
        count = len(problems)
        super().__init__(
            f"{count} row{'s' if count != 1 else ''} cannot be imported; nothing was imported",
            field=field,
        )
        self.problems = sorted(problems, key=lambda problem: problem[0])


class RosterImportError(LinesRefusedError):
    """A roster import refused as a whole (a CSV file or pasted names)."""


def roster_import(
    *, league: League, rows: list[tuple[int, str, str]], user=None, field: str = "file"
) -> list[Player]:
    """Add players to a league's roster from ``(line number, name, email)`` rows: all of them in
    one transaction, or none of them if any row is bad (:class:`RosterImportError` says which
    rows and why). The one import of both a CSV file (``field`` ``file``) and pasted names
    (``names``: :func:`league.domain.pasted.pasted_names`)."""
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
        problems.append((1, f"the {'file' if field == 'file' else 'list'} has no players"))
    if problems:
        raise RosterImportError(problems, field=field)
    with transaction.atomic():
        return [
            player_create(league=league, name=name, email=email, user=user)
            for name, email in cleaned
        ]


class NewPlayersToConfirm(DomainError):
    """A team paste names people not on the roster: nothing was written; ``names`` lists them
    (in the order pasted) for the organiser to confirm as new roster players."""

    code = "new_players"

    def __init__(self, names: list[str]):
        count = len(names)
        super().__init__(
            f"{count} name{'s are' if count != 1 else ' is'} not on the roster: "
            + ", ".join(names),
            field="teams",
        )
        self.names = names


def teams_import(
    *, season: Season, text: str, new_players: Sequence[str] = (), user=None
) -> list[Team]:
    """Add a season's teams from a team paste (:func:`league.domain.pasted.pasted_teams`): all
    of them in one transaction, or none (:class:`LinesRefusedError` lists each bad line and why).

    A name is found on the roster in any case. Names not on it become roster players only when
    the organiser confirmed each of them (``new_players``, the names they were shown); if any is
    not confirmed, :class:`NewPlayersToConfirm` lists them all and nothing is written. Each team
    is made by :func:`team_create`, each new player by :func:`player_create` (both audited)."""
    from league.domain.pasted import pasted_teams

    if season.format != Season.Format.TEAMS:
        raise DomainError(
            "this season's partners rotate: teams are for seasons of fixed partnerships",
            field="teams",
        )
    pasted, problems = pasted_teams(text)
    if not pasted and not problems:
        problems.append((1, "the list has no teams"))
    roster = {
        player.name.casefold(): player
        for player in Player.objects.filter(league_id=season.league_id).order_by("-pk")
    }
    on_teams = {
        pk: team.name
        for team in Team.objects.filter(season=season, is_withdrawn=False)
        for pk in team.player_ids
    }
    team_names = {name.casefold() for name in season.teams.values_list("name", flat=True)}
    seen_players: dict[str, int] = {}
    seen_teams: dict[str, int] = {}
    new_names: dict[str, str] = {}
    name_limit = Team._meta.get_field("name").max_length
    for team in pasted:
        reasons = []
        if team.first.casefold() == team.second.casefold():
            reasons.append(f"{team.first} is named twice: a team is two different players")
        for name in (team.first, team.second):
            key = name.casefold()
            player = roster.get(key)
            if len(name) > PLAYER_NAME_MAX_LENGTH:
                reasons.append(f"a name has at most {PLAYER_NAME_MAX_LENGTH} characters")
            elif key in seen_players and seen_players[key] != team.line:
                reasons.append(f"{name} is also on line {seen_players[key]}")
            elif player is not None and not player.is_active:
                reasons.append(f"{player.name} is not on the active roster")
            elif player is not None and player.pk in on_teams:
                reasons.append(f"{player.name} is already on {on_teams[player.pk]}")
            elif player is None:
                new_names.setdefault(key, name)
            seen_players.setdefault(key, team.line)
        team_key = team.name.casefold()
        if len(team.name) > name_limit:
            reasons.append(
                f"the team's name is longer than {name_limit} characters: "
                "name it first, “Name: Ann Baker & Bob Carter”"
            )
        elif team_key in team_names:
            reasons.append(f"this season already has a team called {team.name}")
        elif team_key in seen_teams:
            reasons.append(f"the team {team.name} is also on line {seen_teams[team_key]}")
        seen_teams.setdefault(team_key, team.line)
        problems.extend((team.line, reason) for reason in reasons)
    if problems:
        raise LinesRefusedError(problems, field="teams")
    confirmed = {" ".join(name.split()).casefold() for name in new_players}
    if not set(new_names) <= confirmed:
        raise NewPlayersToConfirm(list(new_names.values()))
    league = season.league
    with transaction.atomic():
        for key, name in new_names.items():
            roster[key] = player_create(league=league, name=name, user=user)
        return [
            team_create(
                season=season,
                name=team.name,
                player_one=roster[team.first.casefold()],
                player_two=roster[team.second.casefold()],
                user=user,
            )
            for team in pasted
        ]


def season_free_players(*, season: Season):
    """The league's active players on no team of the season (withdrawn teams free theirs)."""
    taken = Team.objects.filter(season=season, is_withdrawn=False)
    return (
        Player.objects.filter(league_id=season.league_id, is_active=True)
        .exclude(pk__in=taken.values("player_one"))
        .exclude(pk__in=taken.values("player_two"))
    )


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


def nights_series_check(*, season: Season, dates: list) -> None:
    """Why a series of nights cannot be planned (a :class:`DomainError`), or nothing: what the
    preview says before :func:`nights_create_recurring` is asked, and what it checks again."""
    from league.models import Night

    if not dates:
        raise DomainError("no dates to plan", field="count")
    if len(set(dates)) != len(dates):
        raise DomainError("each date can be planned once", field="count")
    outside = [
        date
        for date in dates
        if (season.starts_on is not None and date < season.starts_on)
        or (season.ends_on is not None and date > season.ends_on)
    ]
    if outside:
        raise DomainError(
            "the nights must fall within the season's dates: "
            + ", ".join(f"{date:%a %-d %b %Y}" for date in outside),
            field="count",
        )
    taken = sorted(
        set(Night.objects.filter(season=season, date__in=dates).values_list("date", flat=True))
    )
    if taken:
        raise ConflictError(
            "the season already has a night on "
            + ", ".join(f"{date:%a %-d %b %Y}" for date in taken)
            + ": skip those dates",
            code="night_taken",
        )


def nights_create_recurring(*, season: Season, dates: list, venue: str = "", user=None) -> list:
    """Plan a series of nights at once (the dates from
    :func:`league.domain.pasted.recurring_dates`, shown to the organiser first): all of them, or
    none if one falls outside the season or on a date that already has a night
    (:func:`nights_series_check`, under the season's lock). One entry on the audit trail lists
    them."""
    from league.models import Night

    with transaction.atomic():
        season_lock(season.pk)
        nights_series_check(season=season, dates=dates)
        nights = Night.objects.bulk_create(
            [Night(season=season, date=date, venue=venue.strip()) for date in sorted(dates)]
        )
        audit_record(
            league=season.league_id,
            actor=actor_of(user, default=SYSTEM),
            action="nights.create",
            target=season,
            before=None,
            after={
                "dates": [date.isoformat() for date in sorted(dates)],
                "venue": venue.strip(),
            },
        )
    return nights


MAX_USUAL_ROUNDS = 30
"""The most rounds a season's usual night may be set to (an evening holds far fewer)."""


def season_set_usual_rounds(*, season: Season, rounds: int | None, user=None) -> Season:
    """Set (or clear, with ``None``) how many rounds a night of the season usually holds: the
    default rounds when a night is planned. Audited."""
    if rounds is not None and not 1 <= rounds <= MAX_USUAL_ROUNDS:
        raise DomainError(f"a night holds 1 to {MAX_USUAL_ROUNDS} rounds", field="usual_rounds")
    season_option_set(season=season, field="usual_rounds", value=rounds, user=user)
    return season


def season_set_partner_balance(*, season: Season, is_on: bool, user=None) -> Season:
    """Turn on or off the balance of partner strength in an individual season's rotations
    (``Season.balance_partner_strength``): nights planned from now on weigh it. Audited."""
    if season.format != Season.Format.INDIVIDUAL:
        raise DomainError(
            "partners are fixed in a team season; only rotating partners can be balanced",
            field="balance_partner_strength",
        )
    season_option_set(season=season, field="balance_partner_strength", value=is_on, user=user)
    return season


def season_option_set(*, season: Season, field: str, value, user=None) -> bool:
    """Set one of a season's options (a field checked by the caller) under the season's row
    lock, audited as ``season.<field>`` with its value before and after; ``season`` is updated
    in place. Returns whether anything changed (setting the same value writes nothing)."""
    with transaction.atomic():
        locked = season_row_lock(season.pk, field)
        before = getattr(locked, field)
        setattr(season, field, value)
        if before == value:
            return False
        Season.objects.filter(pk=season.pk).update(**{field: value})
        audit_record(
            league=season.league_id,
            actor=actor_of(user, default=SYSTEM),
            action=f"season.{field}",
            target=season,
            before={field: before},
            after={field: value},
        )
    return True


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

    if user is None or not user.is_authenticated:
        raise DomainError("sign in to accept the invitation")
    with transaction.atomic():
        invitation = invitation_lock(invitation.pk)
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


# --- Emails a player opts into (issue 33): consent, double opt-in, unsubscribe ---------------

EMAIL_CONSENT_WORDING = (
    "I agree that {league} may email me, at {email}, my seats when a night's rotation is "
    "published and my report after each night I play. Each email has a link to stop them at "
    "once; nothing else is sent."
)
"""What a player agrees to, formatted with the league's name and the address. The words shown
are stored with each consent (``EmailConsent.wording``)."""


def email_consent_wording(*, league: League, email: str) -> str:
    """The consent's words for ``league`` at ``email``, as the forms show them."""
    return EMAIL_CONSENT_WORDING.format(league=league.name, email=email or "this address")


def _consent_email(email: str) -> str:
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    email = (email or "").strip()
    if not email:
        raise DomainError("give an email address", field="email")
    try:
        validate_email(email)
    except ValidationError:
        raise DomainError(f"{email!r} is not an email address", field="email") from None
    return email


def _consent_picture(consent) -> dict[str, Any]:
    return {
        "source": consent.source,
        "consented_at": consent.consented_at.isoformat(),
        "confirmed": consent.confirmed_at is not None,
        "ending": consent.ending,
    }


def _end_counting(player: Player, *, now) -> None:
    EmailConsent.objects.filter(
        player=player, confirmed_at__isnull=False, ended_at__isnull=True
    ).update(ended_at=now, ending=EmailConsent.Ending.REPLACED)


def email_consent_record(*, player: Player, email: str, agreed: bool, user):
    """An organiser records that the player agreed (in person) to the emails at ``email``: it
    counts at once, replacing any earlier consent. Refused unless ``agreed`` (the form's box,
    whose words are stored). Recording the counting consent again changes nothing."""
    email = _consent_email(email)
    if not agreed:
        raise DomainError(
            "tick the box only once the player has agreed: without it nothing is recorded",
            field="agreed",
        )
    with _unique("the player's consent changed meanwhile; try again"):
        player = player_consent_lock(player.pk)
        counting = EmailConsent.objects.filter(
            player=player, confirmed_at__isnull=False, ended_at__isnull=True
        ).first()
        if counting is not None and counting.email.lower() == email.lower():
            return counting
        now = timezone.now()
        _end_counting(player, now=now)
        consent = EmailConsent.objects.create(
            player=player,
            email=email,
            wording=email_consent_wording(league=player.league, email=email),
            source=EmailConsent.Source.ORGANISER,
            recorded_by=user if getattr(user, "is_authenticated", False) else None,
            consented_at=now,
            confirmed_at=now,
        )
        audit_record(
            league=player.league_id,
            actor=actor_of(user, default=SYSTEM),
            action="player.email_consent",
            target=consent,
            before=_consent_picture(counting) if counting else None,
            after=_consent_picture(consent),
        )
        return consent


def email_consent_request(*, player: Player, email: str, agreed: bool):
    """A player asks, on their public page, for the emails at ``email``: a consent waiting for
    its confirmation (nothing is sent to it but the confirmation email). Asking again for the
    same address gives the same waiting consent; an address already counting gives that one
    (``confirmed_at`` set: no confirmation is needed)."""
    email = _consent_email(email)
    if not agreed:
        raise DomainError(
            "tick the box to agree, or leave the page: nothing is kept", field="agreed"
        )
    with transaction.atomic():
        player = player_consent_lock(player.pk)
        live = EmailConsent.objects.filter(
            player=player, email__iexact=email, ended_at__isnull=True
        ).order_by("-confirmed_at", "-consented_at")
        existing = live.first()
        if existing is not None:
            return existing
        return EmailConsent.objects.create(
            player=player,
            email=email,
            wording=email_consent_wording(league=player.league, email=email),
            source=EmailConsent.Source.PLAYER,
            consented_at=timezone.now(),
        )


def email_consent_confirm(*, consent_id: int):
    """The player opened the confirmation link: the waiting consent counts from now on and
    replaces any earlier one. Confirming twice changes nothing; an ended consent is refused."""
    consent = EmailConsent.objects.filter(pk=consent_id).first()
    if consent is None:
        raise NotFoundError("this sign-up no longer exists; sign up again from your page")
    with _unique("the player's consent changed meanwhile; try again"):
        player = player_consent_lock(consent.player_id)
        consent = EmailConsent.objects.get(pk=consent_id)
        if consent.ended_at is not None:
            raise ConflictError(
                "these emails were stopped since; sign up again from your page", code="ended"
            )
        if consent.confirmed_at is not None:
            return consent
        now = timezone.now()
        _end_counting(player, now=now)
        consent.confirmed_at = now
        consent.save(update_fields=["confirmed_at"])
        audit_record(
            league=player.league_id,
            actor=SYSTEM,
            action="player.email_consent",
            target=consent,
            before=None,
            after=_consent_picture(consent),
            reason="confirmed by the player's link",
        )
        return consent


def email_address_key(email: str) -> str:
    """A digest that stands for an address in an unsubscribe link: the link says whose emails
    it stops without carrying the address itself (links are forwarded)."""
    return hashlib.sha256(email.strip().lower().encode()).hexdigest()[:32]


def email_consent_end(*, player_id: int, address_key: str, user=None) -> int:
    """Stop the emails of a player at one address (an unsubscribe link: ``address_key`` is
    :func:`email_address_key` of it): every consent of theirs at that address, counting or
    waiting, ends. Idempotent: the number ended (0 the second time)."""
    with transaction.atomic():
        if not Player.objects.filter(pk=player_id).exists():
            return 0
        player = player_consent_lock(player_id)
        live = [
            consent
            for consent in EmailConsent.objects.filter(player=player, ended_at__isnull=True)
            if email_address_key(consent.email) == address_key
        ]
        return _consents_end(
            player, live, ending=EmailConsent.Ending.UNSUBSCRIBED, action="unsubscribe", user=user
        )


def email_consent_stop(*, player: Player, user) -> int:
    """An organiser stops every email to the player (the player asked them to): each live
    consent, counting or waiting, ends. Idempotent: the number ended."""
    with transaction.atomic():
        player = player_consent_lock(player.pk)
        live = list(EmailConsent.objects.filter(player=player, ended_at__isnull=True))
        return _consents_end(
            player, live, ending=EmailConsent.Ending.STOPPED, action="stop", user=user
        )


def _consents_end(player: Player, consents: list, *, ending: str, action: str, user) -> int:
    """End ``consents`` (the player's row locked by the caller) for ``ending``, each audited as
    ``player.email_<action>``: the number ended."""
    now = timezone.now()
    for consent in consents:
        before = _consent_picture(consent)
        consent.ended_at, consent.ending = now, ending
        consent.save(update_fields=["ended_at", "ending"])
        audit_record(
            league=player.league_id,
            actor=actor_of(user, default=SYSTEM),
            action=f"player.email_{action}",
            target=consent,
            before=before,
            after=_consent_picture(consent),
        )
    return len(consents)


def email_consents_counting(*, player_ids) -> dict:
    """The counting consent (confirmed, not ended) of each of ``player_ids`` that has one: whom
    the league may email, at which address."""
    return {
        consent.player_id: consent
        for consent in EmailConsent.objects.filter(
            player_id__in=list(player_ids), confirmed_at__isnull=False, ended_at__isnull=True
        ).select_related("player__league")
    }


def email_consent_status(*, player: Player):
    """What the organiser's page says of a player's emails: ``(counting, waiting)``, the counting
    consent (or ``None``) and the newest one waiting for its confirmation (or ``None``)."""
    live = EmailConsent.objects.filter(player=player, ended_at__isnull=True)
    counting = live.filter(confirmed_at__isnull=False).first()
    waiting = live.filter(confirmed_at__isnull=True).order_by("-consented_at", "-id").first()
    return counting, waiting


# ---------------------------------------------------------------------------------------------
# A player's own link, and their answers for nights ahead


def player_link_url(*, player: Player, request=None) -> str | None:
    """The address of ``player``'s own page (``/me/<token>/``: no account; seats, scores and
    "I'm coming"), absolute when ``request`` is given, or ``None`` while an organiser has turned
    the link off. The token is a secret: give the link to the player alone."""
    from django.urls import reverse

    if not player.link_token:
        return None
    path = reverse("player-link", args=[player.link_token])
    return request.build_absolute_uri(path) if request is not None else path


def player_link_renew(*, player: Player, user) -> Player:
    """Give ``player`` a new link (the old one stops working at once), or one again after it
    was turned off. Audited (``player.link_renew``; the trail never shows a token)."""
    from league.models import new_link_token

    with transaction.atomic():
        player = player_lock(player.pk)
        was_on = bool(player.link_token)
        player.link_token = new_link_token()
        player.save(update_fields=["link_token"])
        audit_record(
            league=player.league_id,
            actor=actor_of(user, default=SYSTEM),
            action="player.link_renew",
            target=player,
            before={"link": "on" if was_on else "off"},
            after={"link": "new"},
        )
        return player


def player_link_revoke(*, player: Player, user) -> Player:
    """Turn ``player``'s link off: it opens nothing until a new one is made. Turning off a link
    already off changes nothing. Audited (``player.link_revoke``)."""
    with transaction.atomic():
        player = player_lock(player.pk)
        if not player.link_token:
            return player
        player.link_token = None
        player.save(update_fields=["link_token"])
        audit_record(
            league=player.league_id,
            actor=actor_of(user, default=SYSTEM),
            action="player.link_revoke",
            target=player,
            before={"link": "on"},
            after={"link": "off"},
        )
        return player


def rsvp_set(*, player: Player, night, answer: str):
    """``player``'s answer for ``night`` ("coming" or "not_coming"), from their own link: one
    row per player and night, the latest answer kept (the same answer twice changes nothing but
    its time). Refused for a night of another league, one archived, started or finished."""
    from league.models import Night, Rsvp

    if answer not in Rsvp.Answer.values:
        raise DomainError("answer “coming” or “not_coming”", field="answer")
    if night.season.league_id != player.league_id:
        raise DomainError("that night is not one of your league's", field="night")
    if night.archived_at is not None or night.season.archived_at is not None:
        raise DomainError("that night was called off", field="night")
    if night.status not in (Night.Status.PLANNED, Night.Status.CHECK_IN):
        raise ConflictError("that night has started: ask the organiser", code="night_started")
    Rsvp.objects.bulk_create(
        [Rsvp(night=night, player=player, answer=answer)],
        update_conflicts=True,
        unique_fields=["night", "player"],
        update_fields=["answer", "updated_at"],
    )
    return Rsvp.objects.get(night=night, player=player)
