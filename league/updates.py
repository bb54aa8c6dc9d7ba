"""Services that rename and reschedule: a league's name and description, a season's name, a
night's date and venue. The only writers of those fields after creation; each change is audited
(``league.update``, ``season.rename``, ``night.reschedule``) with the old and new values, in the
transaction that makes it. A change to nothing writes nothing. Callers get the row through an
access door (``league.access``), which checks the user organises its league.
"""

from __future__ import annotations

import datetime

from django.db import IntegrityError, transaction

from core.errors import ConflictError, DomainError
from league.access import require_league_organiser
from league.audit import actor_of, audit_record
from league.locks import league_lock, night_lock, season_row_lock
from league.models import League, Night, Season

NAME_MAX_LENGTH = 120
"""The longest name of a league, a season or a venue (their columns' ``max_length``; SQLite does
not enforce it, the services do)."""


def _name(value: str, *, what: str, field: str = "name") -> str:
    name = " ".join(value.split())
    if not name:
        raise DomainError(f"a {what} needs a name", field=field)
    if len(name) > NAME_MAX_LENGTH:
        raise DomainError(f"a {what}'s name has at most {NAME_MAX_LENGTH} characters", field=field)
    return name


def _write(row, *, fields: dict, picture, action: str, league_id: int, user) -> bool:
    """Write ``fields`` on the locked ``row`` and audit it; ``False`` when nothing changed."""
    before = picture(row)
    for name, value in fields.items():
        setattr(row, name, value)
    after = picture(row)
    if after == before:
        return False
    row.save(update_fields=list(fields))
    audit_record(
        league=league_id,
        actor=actor_of(user),
        action=action,
        target=row,
        before=before,
        after=after,
    )
    return True


def league_update(*, league: League, user, name: str | None = None, description=None) -> League:
    """Rename a league, or change its description (its address, the slug, stays)."""
    require_league_organiser(user=user, league_id=league.pk)
    fields = {}
    if name is not None:
        fields["name"] = _name(name, what="league")
    if description is not None:
        fields["description"] = description.strip()
    with transaction.atomic():
        locked = league_lock(league.pk)
        _write(
            locked,
            fields=fields,
            picture=lambda row: {"name": row.name, "description": row.description},
            action="league.update",
            league_id=league.pk,
            user=user,
        )
    return locked


def season_rename(*, season: Season, user, name: str) -> Season:
    """Rename a season; a name another season of the league has is a conflict."""
    require_league_organiser(user=user, league_id=season.league_id)
    name = _name(name, what="season")
    try:
        with transaction.atomic():
            locked = season_row_lock(season.pk)
            _write(
                locked,
                fields={"name": name},
                picture=lambda row: {"name": row.name},
                action="season.rename",
                league_id=season.league_id,
                user=user,
            )
    except IntegrityError:
        raise ConflictError(
            f"this league already has a season called {name!r}", field="name"
        ) from None
    return locked


def night_reschedule(
    *, night: Night, user, date: datetime.date | None = None, venue: str | None = None
) -> Night:
    """Move a night to another date (within its season's dates) or venue. Its games, plan and
    attendance stay as they are."""
    season = night.season
    require_league_organiser(user=user, league_id=season.league_id)
    fields: dict = {}
    if date is not None:
        too_early = season.starts_on is not None and date < season.starts_on
        too_late = season.ends_on is not None and date > season.ends_on
        if too_early or too_late:
            raise DomainError("the night must fall within the season's dates", field="date")
        fields["date"] = date
    if venue is not None:
        venue = " ".join(venue.split())
        if len(venue) > NAME_MAX_LENGTH:
            raise DomainError(f"a venue has at most {NAME_MAX_LENGTH} characters", field="venue")
        fields["venue"] = venue
    with transaction.atomic():
        locked = night_lock(night.pk)
        _write(
            locked,
            fields=fields,
            picture=lambda row: {"date": row.date.isoformat(), "venue": row.venue},
            action="night.reschedule",
            league_id=season.league_id,
            user=user,
        )
    locked.season = season
    return locked
