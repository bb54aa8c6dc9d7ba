"""Archiving: taking a season, a night or a bracket away without deleting anything, and bringing
it back exactly as it was.

- *archive*: set the row's ``archived_at`` and ``archived_by`` (see ``league.models``). Nothing
  else changes: the night's attendance, plan, rounds, seats and games, the bracket's entries and
  matches, the season's nights, teams and standings all stay as they were. Out of sight are the
  row and what hangs from it: public pages and lists, the API's lists, the night desk, and (for a
  night) the standings, whose recompute no longer counts the night's games.
- *restore*: clear both fields; everything is back as before, and a night's games count again.
- *kind*: ``season``, ``night`` or ``bracket`` (:data:`KINDS`), as URLs and the trail name them.

Both are audited (``<kind>.archive`` / ``<kind>.restore``) in the transaction that makes the
change, and open to the organisers of the row's league only. Archiving or restoring a night
logs a result change for each of its games that counted (``scoring.games.services``), so the
standings are recomputed through the same door as any other change to results.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from core.errors import ConflictError, NotFoundError
from league.access import require_league_organiser
from league.audit import actor_of, audit_record
from league.models import League, Night, Season
from scoring.games import services as scoring_services
from scoring.games.models import Game
from tournaments.models import Bracket
from tournaments.services.locks import archivable_lock

KINDS: dict[str, type] = {"season": Season, "night": Night, "bracket": Bracket}
"""What can be archived, by the name URLs, the API and the trail use."""


@dataclass(frozen=True)
class Archived:
    """One archived row, as the workspace's list shows it."""

    kind: str
    pk: int
    label: str
    season: str
    archived_at: datetime
    archived_by: str


def archivable_for_organiser(*, user, kind: str, pk: int):
    """The season, night or bracket ``pk`` (archived or not) for an organiser of its league:
    the one door of archiving and restoring."""
    model = KINDS.get(kind)
    if model is None:
        raise NotFoundError("nothing of that kind can be archived")
    rows = model.objects.select_related("league" if model is Season else "season__league")
    row = rows.filter(pk=pk).first()
    if row is None:
        raise NotFoundError(f"no such {kind}")
    require_league_organiser(user=user, league_id=_league_id(row))
    return row


def _league_id(row) -> int:
    return row.league_id if isinstance(row, Season) else row.season.league_id


def _kind(row) -> str:
    return type(row).__name__.lower()


def _picture(row) -> dict:
    return {
        "archived_at": row.archived_at.isoformat() if row.archived_at else None,
        "archived_by": row.archived_by_id,
    }


def archivable_archive(*, row, user, reason: str = ""):
    """Archive a season, a night or a bracket (from an access door). A row archived already is a
    conflict; so is a night or a bracket of an archived season (restore the season instead)."""
    return _set(row=row, user=user, archived=True, reason=reason)


def archivable_restore(*, row, user, reason: str = ""):
    """Bring an archived season, night or bracket back exactly as it was."""
    return _set(row=row, user=user, archived=False, reason=reason)


def _set(*, row, user, archived: bool, reason: str):
    kind = _kind(row)
    require_league_organiser(user=user, league_id=_league_id(row))
    with transaction.atomic():
        locked = archivable_lock(row)
        if (locked.archived_at is not None) == archived:
            state = "archived already" if archived else "not archived"
            raise ConflictError(f"this {kind} is {state}", code=f"{kind}_{state.split()[0]}")
        if not isinstance(locked, Season):
            season = Season.objects.only("archived_at").get(pk=locked.season_id)
            if season.archived_at is not None:
                raise ConflictError(
                    f"this {kind}'s season is archived: restore the season", code="season_archived"
                )
        before = _picture(locked)
        actor = actor_of(user)
        locked.archived_at = timezone.now() if archived else None
        locked.archived_by = actor if archived and not isinstance(actor, str) else None
        locked.save(update_fields=["archived_at", "archived_by"])
        audit_record(
            league=_league_id(row),
            actor=actor,
            action=f"{kind}.{'archive' if archived else 'restore'}",
            target=locked,
            before=before,
            after=_picture(locked),
            reason=reason,
        )
        if isinstance(locked, Night):
            _night_games_changed(locked)
    row.archived_at, row.archived_by = locked.archived_at, locked.archived_by
    return row


def _night_games_changed(night: Night) -> None:
    """The night's counted games enter or leave the standings: a result change each, which the
    recompute folds (it ranks only games of nights in use)."""
    games = Game.objects.filter(
        night=night, status=Game.Status.FINISHED, counts_for_standings=True
    ).only("pk", "season_id")
    for game in games:
        scoring_services.result_change_record(game)


def archived_list(*, league: League) -> list[Archived]:
    """A league's archived seasons, nights and brackets, the latest archived first. (A night or a
    bracket of an archived season is not listed: it comes back with its season.)"""

    def by(row) -> str:
        return row.archived_by.get_username() if row.archived_by else "system"

    found = [
        Archived("season", s.pk, s.name, s.name, s.archived_at, by(s))
        for s in Season.objects.filter(league=league, archived_at__isnull=False).select_related(
            "archived_by"
        )
    ]
    nights = Night.objects.filter(
        season__league=league, season__archived_at__isnull=True, archived_at__isnull=False
    ).select_related("season", "archived_by")
    found += [
        Archived(
            "night",
            n.pk,
            f"Night of {n.date:%a %-d %b %Y}{f' at {n.venue}' if n.venue else ''}",
            n.season.name,
            n.archived_at,
            by(n),
        )
        for n in nights
    ]
    brackets = Bracket.objects.filter(
        season__league=league, season__archived_at__isnull=True, archived_at__isnull=False
    ).select_related("season", "archived_by")
    found += [
        Archived("bracket", b.pk, b.name, b.season.name, b.archived_at, by(b)) for b in brackets
    ]
    return sorted(found, key=lambda item: item.archived_at, reverse=True)
