"""The audited doors to league objects (Zulip's ``access_*`` idea): who may see or change what.

Public data (leagues, seasons, rosters' names, games, standings) is readable by anyone; a change
needs an organiser (owner or co-organiser) of the league the object belongs to, or a superuser.
"""

import ipaddress

from django.conf import settings
from django_ratelimit.core import get_usage

from core.errors import AccessDeniedError, NotFoundError
from league.models import League, LeagueRole, Season


def is_league_organiser(*, user, league_id: int) -> bool:
    if not _role_decides(user):
        return _without_role(user)
    return LeagueRole.objects.filter(league_id=league_id, user=user).exists()


def _role_decides(user) -> bool:
    """Whether a user's being an organiser depends on a role row (a signed-in user who is not a
    superuser); if not, :func:`_without_role` is the answer."""
    return user is not None and user.is_authenticated and not user.is_superuser


def _without_role(user) -> bool:
    return user is not None and user.is_authenticated and user.is_superuser


def organiser_role_exists(*, user, league_id):
    """:func:`is_league_organiser` as an expression a query can select along with the object
    (``league_id`` an ``OuterRef`` to the object's league): one query instead of two. A boolean
    when the answer does not depend on a role (no user, a superuser)."""
    from django.db.models import Exists

    if not _role_decides(user):
        return _without_role(user)
    return Exists(LeagueRole.objects.filter(league_id=league_id, user_id=user.pk))


def is_organiser_given_role(*, user, has_role: bool) -> bool:
    """:func:`is_league_organiser` for a user whose role row was read already (``has_role``)."""
    return has_role if _role_decides(user) else _without_role(user)


def require_league_organiser(*, user, league_id: int) -> None:
    if not is_league_organiser(user=user, league_id=league_id):
        raise AccessDeniedError("only an organiser of this league may change it")


def league_for_organiser(*, user, pk: int) -> League:
    league = League.objects.filter(pk=pk).first()
    if league is None:
        raise NotFoundError("no such league")
    require_league_organiser(user=user, league_id=league.pk)
    return league


def season_for_organiser(*, user, pk: int) -> Season:
    """A season its league's organisers may work on: not archived (an archived one is found on
    the league's Archived page, through ``tournaments.services.archiving``, and restored)."""
    season = (
        Season.objects.not_archived().select_related("league", "rulebook").filter(pk=pk).first()
    )
    if season is None:
        raise NotFoundError("no such season (an archived one is restored from Archived first)")
    require_league_organiser(user=user, league_id=season.league_id)
    return season


# --- The organiser's workspace (issue 7): one door per resource ---


def is_league_owner(*, user, league_id: int) -> bool:
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return LeagueRole.objects.filter(
        league_id=league_id, user=user, role=LeagueRole.Role.OWNER
    ).exists()


def require_league_owner(*, user, league_id: int) -> None:
    if not is_league_owner(user=user, league_id=league_id):
        raise AccessDeniedError("only the owner of this league may do this")


def leagues_for_organiser(*, user):
    """The leagues a user organises (every league for a superuser)."""
    if user is None or not user.is_authenticated:
        return League.objects.none()
    if user.is_superuser:
        return League.objects.all()
    return League.objects.filter(roles__user=user).distinct()


def league_for_owner(*, user, pk: int) -> League:
    league = League.objects.filter(pk=pk).first()
    if league is None:
        raise NotFoundError("no such league")
    require_league_owner(user=user, league_id=league.pk)
    return league


def player_for_organiser(*, user, pk: int):
    """A roster entry, with its private details (email), for the league's organisers only."""
    from league.models import Player

    player = Player.objects.select_related("league").filter(pk=pk).first()
    if player is None:
        raise NotFoundError("no such player")
    require_league_organiser(user=user, league_id=player.league_id)
    return player


def night_for_organiser(*, user, pk: int):
    from league.models import Night

    night = Night.objects.select_related("season__league").filter(pk=pk).first()
    if night is None:
        raise NotFoundError("no such night")
    require_league_organiser(user=user, league_id=night.season.league_id)
    return night


def season_for_public(*, pk: int) -> Season:
    """A season's public face (its nights, its standings): anyone may read it, unless it is
    archived."""
    season = Season.objects.not_archived().select_related("league").filter(pk=pk).first()
    if season is None:
        raise NotFoundError("no such season")
    return season


def audit_trail_for_organiser(*, user, season_pk: int):
    """A season's audit trail (who changed what, with emails and disputes): its league's
    organisers only."""
    from league.audit import audit_list

    season = season_for_organiser(user=user, pk=season_pk)
    return season, audit_list(league=season.league, season=season)


def invitation_for_invitee(*, token: str):
    """An open invitation by its secret link; a wrong or used link is not found."""
    from league.models import Invitation

    invitation = (
        Invitation.objects.select_related("league").filter(token=token or "", accepted_at=None)
    ).first()
    if invitation is None:
        raise NotFoundError("this invitation link is not valid (it may have been used)")
    return invitation


def client_address(group: str, request) -> str:
    """The rate-limit key of the client's address: django-ratelimit's ``"ip"`` key, without its
    server error when the request names no address (a WSGI caller that sets no ``REMOTE_ADDR``,
    or a proxy that left out the header ``RATELIMIT_IP_META_KEY`` names). Such requests share
    one bucket, ``"unknown"``. An IPv6 address counts by its /64, as django-ratelimit does."""
    header = getattr(settings, "RATELIMIT_IP_META_KEY", None) or "REMOTE_ADDR"
    raw = request.META.get(header, "").split(",")[0].strip()
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return "unknown"
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False).network_address)
    return str(address)


# --- Rate limits (django-ratelimit's fixed windows, counted in the default cache) ---


UNREAD_WINDOW_SECONDS = 60
"""The wait given when a limit's window could not be read (the cache failed, so django-ratelimit
refuses without a count): a minute, the windows' length unless a rate setting says otherwise."""


def retry_after(usage: dict) -> int:
    """The whole seconds until a new window of a django-ratelimit ``get_usage`` answer starts: an
    answer's ``Retry-After``. (``time_left`` counts to the window's last second, which still
    belongs to it: the next one starts a second later.)"""
    left = usage["time_left"]
    return left + 1 if left >= 0 else UNREAD_WINDOW_SECONDS


LOGIN_GROUP = "login-failures"
"""The django-ratelimit group of failed sign-ins (the workspace's and the admin's)."""


def _login_rate(group: str, request) -> str:
    return settings.LOGIN_RATE


def _login_pair(username: str):
    """The rate-limit key of one username from one client address (``client_address``)."""

    def key(group: str, request) -> str:
        return f"{client_address(group, request)} {username}"

    return key


def login_wait(request, *, username: str) -> int | None:
    """Seconds this client address must wait before trying ``username`` again (the answer's
    ``Retry-After``), or ``None`` if it may try now: ``settings.LOGIN_RATE`` failed attempts of a
    username-and-address pair fill a window, and the count starts again when it ends."""
    usage = get_usage(request, group=LOGIN_GROUP, key=_login_pair(username), rate=_login_rate)
    if usage is None or usage["count"] < usage["limit"]:
        return None
    return retry_after(usage)


def login_failed(request, *, username: str) -> None:
    """Count one failed attempt to sign in as ``username`` from this client address."""
    get_usage(
        request, group=LOGIN_GROUP, key=_login_pair(username), rate=_login_rate, increment=True
    )


def api_tokens_of(*, user):
    """A user's own API tokens, newest first: nobody sees another's, a superuser included."""
    from league.models import ApiToken

    if user is None or not user.is_authenticated:
        return ApiToken.objects.none()
    return ApiToken.objects.filter(user=user)


def api_token_for_owner(*, user, pk: int):
    """One of the user's own API tokens; another user's is "no such token" (404), not 403, so
    its existence is not told."""
    token = api_tokens_of(user=user).filter(pk=pk).first()
    if token is None:
        raise NotFoundError("no such token")
    return token


EMAIL_SIGNUP_GROUP = "email-signups"
"""The django-ratelimit group of sign-ups for the league's emails (a public form that sends a
confirmation email: counted per client address so it cannot be used to flood a mailbox)."""


def _email_signup_rate(group: str, request) -> str:
    return settings.EMAIL_SIGNUP_RATE


def email_signup_wait(request) -> int | None:
    """Count one sign-up from this client address; the seconds it must wait (the answer's
    ``Retry-After``) once ``settings.EMAIL_SIGNUP_RATE`` of them fill the window, else ``None``."""
    usage = get_usage(
        request,
        group=EMAIL_SIGNUP_GROUP,
        key=client_address,
        rate=_email_signup_rate,
        increment=True,
    )
    if usage is None or usage["count"] <= usage["limit"]:
        return None
    return retry_after(usage)


def player_for_link(*, token: str):
    """The player whose own link holds ``token`` (the audited door of ``/me/<token>/``): an
    active roster player whose link is on; anyone else is "not known"."""
    from league.models import Player

    player = (
        Player.objects.select_related("league")
        .filter(link_token=(token or "")[:64], is_active=True)
        .exclude(link_token="")
        .first()
    )
    if player is None:
        raise NotFoundError("this player link is not known: ask the organiser for yours")
    return player


PUBLIC_POST_GROUP = "public-post"
"""The django-ratelimit group of the public pages' own POSTs (a player checking in at the door,
answering "I'm coming"): per client address and phone (or player link)."""


def _public_post_rate(group: str, request) -> str:
    return settings.PUBLIC_POST_RATE


def public_post_wait(request, *, key: str) -> int | None:
    """Count one public POST from this client address for ``key`` (a phone's cookie digest or
    a player's link): the seconds to wait (``Retry-After``, answered 429) when past
    ``settings.PUBLIC_POST_RATE`` in the window, else ``None``. A bar's phones share one address,
    so the count is per address and key, not per address alone."""

    def pair(group: str, request) -> str:
        return f"{client_address(group, request)} {key[:64]}"

    usage = get_usage(
        request, group=PUBLIC_POST_GROUP, key=pair, rate=_public_post_rate, increment=True
    )
    if usage is not None and usage["should_limit"]:
        return retry_after(usage)
    return None
