"""The audit trail: every change to results, rules or the roster, with who, when, before, after
and why.

- *actor*: who made the change: a signed-in user, :data:`CAPTAIN` (whoever held a game's captain
  link; captains have no account), :data:`SELF_CHECK_IN` (a player checking in at the night's
  door on their own phone) or :data:`SYSTEM` (a command or job acting on no one's behalf).
- *action*: a stable slug, ``<entity>.<verb>`` (``hand.correct``, ``player.deactivate``).
- *target*: the row changed; the trail keeps its type and id, not a foreign key, so an entry
  outlives the row it is about.
- *before* / *after*: JSON pictures of the row's meaningful fields (``None`` for a creation or a
  deletion).

:func:`audit_record` is called by the services inside their own transaction, so an entry is
written if and only if the change it describes is.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from league.models import AuditEntry, League, Season

CAPTAIN = "captain"
SYSTEM = "system"
SELF_CHECK_IN = "self"
"""The actor of a player's own check-in at the night's door (no account: whoever held the
night's door link and tapped the name)."""


def actor_of(user, *, default: str = CAPTAIN):
    """The actor for a service's ``user`` argument: the user when signed in, else ``default``."""
    if user is not None and getattr(user, "is_authenticated", False):
        return user
    return default


def _season_id_of(target) -> int | None:
    if isinstance(target, Season):
        return target.pk
    season_id = getattr(target, "season_id", None)
    if season_id is not None:
        return season_id
    game = getattr(target, "game", None)
    return getattr(game, "season_id", None)


def audit_record(
    *,
    league: League | int,
    actor,
    action: str,
    target,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    reason: str = "",
    season: Season | int | None = None,
) -> AuditEntry:
    """Write one entry of the trail. Call it inside the transaction that makes the change.

    ``actor`` is a user, :data:`CAPTAIN`, :data:`SYSTEM` or ``None`` (read as :data:`SYSTEM`).
    ``season`` defaults to the target's own season, when it has one.
    """
    if actor is None:
        actor = SYSTEM
    if isinstance(actor, str):
        user, label = None, actor
    else:
        user, label = actor, actor.get_username()
    season_id = _season_id_of(target) if season is None else getattr(season, "pk", season)
    return AuditEntry.objects.create(
        league_id=getattr(league, "pk", league),
        season_id=season_id,
        actor=user,
        actor_label=label[:150],
        action=action,
        target_type=type(target).__name__.lower(),
        target_id=getattr(target, "pk", None),
        before=before,
        after=after,
        reason=(reason or "").strip(),
    )


def audit_list(*, league: League, season: Season | None = None) -> QuerySet[AuditEntry]:
    """A league's trail (or one season's), newest first. Callers get ``league`` or ``season``
    through an access function (``league.access.audit_trail_for_organiser``)."""
    entries = AuditEntry.objects.filter(league=league).select_related("actor")
    if season is not None:
        entries = entries.filter(season=season)
    return entries


def game_picture(game) -> dict[str, Any]:
    """A game's result, as the trail shows it."""
    return {
        "score_a": game.score_a,
        "score_b": game.score_b,
        "status": game.status,
        "winner": game.winner,
        "confirmation": game.confirmation,
        "dispute_reason": game.dispute_reason,
    }


def player_picture(player) -> dict[str, Any]:
    return {"name": player.name, "email": player.email, "is_active": player.is_active}


def team_picture(team) -> dict[str, Any]:
    return {
        "name": team.name,
        "player_one": team.player_one_id,
        "player_two": team.player_two_id,
        "is_withdrawn": team.is_withdrawn,
    }
