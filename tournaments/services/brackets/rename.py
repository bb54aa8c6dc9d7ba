"""Renaming a bracket: the only change to a bracket's name after it is built (audited as
``bracket.rename``). A name another bracket of the season has is a conflict."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from core.errors import ConflictError, DomainError
from league.access import require_league_organiser
from league.audit import actor_of, audit_record
from tournaments.models import Bracket
from tournaments.services.locks import bracket_row_lock

NAME_MAX_LENGTH: int = Bracket._meta.get_field("name").max_length


def bracket_rename(*, bracket: Bracket, user, name: str) -> Bracket:
    require_league_organiser(user=user, league_id=bracket.season.league_id)
    name = " ".join(name.split())
    if not name:
        raise DomainError("a bracket needs a name", field="name")
    if len(name) > NAME_MAX_LENGTH:
        raise DomainError(
            f"a bracket's name has at most {NAME_MAX_LENGTH} characters", field="name"
        )
    try:
        with transaction.atomic():
            locked = bracket_row_lock(bracket.pk)
            before = {"name": locked.name}
            if locked.name != name:
                locked.name = name
                locked.save(update_fields=["name"])
                audit_record(
                    league=bracket.season.league_id,
                    actor=actor_of(user),
                    action="bracket.rename",
                    target=locked,
                    before=before,
                    after={"name": name},
                )
    except IntegrityError:
        raise ConflictError(
            f"this season already has a bracket called {name!r}", field="name"
        ) from None
    bracket.name = name
    return bracket
