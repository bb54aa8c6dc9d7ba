"""Storing what reconciling a bracket changed: the one writer behind every advance, publish,
correction and withdrawal (``tournaments.services.brackets.advance``), and the one rule that
marks a bracket finished.

Words: *changes* (:class:`Changes`) are what a reconcile decided in memory: the match rows whose
fields changed, the matches forfeited by a withdrawn team, a new Swiss round's matches, the ready
matches (each gets its next game unless one is in play) and whether any loaded match is still to
play."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import connections, router
from django.db.models import Field
from django.utils import timezone

from scoring.games.models import Game
from tournaments.models import Bracket, BracketMatch
from tournaments.services.brackets.loaded import (
    MATCH_ATTNAMES,
    MATCH_FIELDS,
    LinkRow,
    LoadedBracket,
)
from tournaments.services.brackets.match_games import (
    counting_links,
    links_void,
    next_games_create,
    stray_games_void,
)

OPEN = (BracketMatch.Status.WAITING, BracketMatch.Status.READY)
"""A match still to play: its teams not known yet, or ready."""


@dataclass
class Changes:
    """What one reconcile of a loaded bracket decided, to be stored by :func:`changes_store`."""

    changed: list[BracketMatch]
    ready: list[BracketMatch]
    is_open: bool
    """A loaded match is still to play (waiting or ready)."""
    forfeited: list[BracketMatch] = field(default_factory=list)
    created: list[BracketMatch] = field(default_factory=list)


def changes_store(
    loaded: LoadedBracket, changes: Changes, links: list[LinkRow] | None = None, user=None
) -> None:
    """Write the changed matches, call off the unplayed games of forfeited matches and the stray
    games of decided ones, give every ready match without a game in play its next game, and
    mark the bracket finished (or no longer finished). ``links``: the game links of the loaded
    matches as read with them (``None``: read where needed)."""
    matches_write(loaded, changes.changed)
    if changes.forfeited:
        names = ", ".join(sorted(entry.team.name for entry in loaded.entries if entry.is_withdrawn))
        unplayed = [
            link
            for link in counting_links(changes.forfeited)
            if link.game.status != Game.Status.FINISHED
        ]
        links_void(unplayed, f"forfeited: {names} withdrew", user=user)
    if loaded.bracket.status == Bracket.Status.DRAFT:
        return
    if changes.created:
        BracketMatch.objects.bulk_create(changes.created)
        for match in changes.created:
            loaded.matches[match.code] = match
    stray_games_void(loaded, links, user=user)
    next_games_create(loaded, changes.ready, links)
    bracket_finished_store(loaded, is_open=changes.is_open)


MATCHES_PER_UPDATE = 50
"""The most matches :func:`matches_write` writes in one statement (a whole bracket's replay may
change thousands): at most 17 parameters a match keep it under the 999 of SQLite's older
builds, and each row looks its values up in a ``CASE`` of at most that many branches."""


def matches_write(loaded: LoadedBracket, matches: Sequence[BracketMatch]) -> None:
    """Store what changed in ``matches`` since ``loaded`` read them (their ``MATCH_FIELDS``
    that differ from ``loaded.stored``), in one UPDATE (for up to :data:`MATCHES_PER_UPDATE`
    matches): each column changed is set by a ``CASE`` on the id over the matches whose value
    changed in it, ``ELSE`` itself (which also gives the ``CASE`` the column's type on
    PostgreSQL). The values are prepared for the database as the ORM prepares them
    (``Field.get_db_prep_save``).

    Written out because an advance changes two or three matches, and the ORM's one statement for
    them (``bulk_update``'s ``Case``/``When``) took 2.2 ms of Python to compose, three single-row
    ``QuerySet.update`` calls 0.26 ms, this statement 0.06 ms (SQLite; on PostgreSQL 3.5, 0.85
    and 0.3 ms, the round trips included). Only what changed is sent: an advance's statement
    keeps under psycopg's 50 parameters of a query whose conversion it caches."""
    fields = [BracketMatch._meta.get_field(name) for name in MATCH_FIELDS]
    connection = connections[router.db_for_write(BracketMatch)]
    table, key = BracketMatch._meta.db_table, BracketMatch._meta.pk.column
    for start in range(0, len(matches), MATCHES_PER_UPDATE):
        batch = matches[start : start + MATCHES_PER_UPDATE]
        changed: dict[Field, list[tuple[int, object]]] = {}
        for match in batch:
            now = tuple(getattr(match, name) for name in MATCH_ATTNAMES)
            before = loaded.stored.get(match.pk)  # None: not read through ``loaded``
            for index, model_field in enumerate(fields):
                if before is None or before[index] != now[index]:
                    changed.setdefault(model_field, []).append((match.pk, now[index]))
            loaded.stored[match.pk] = now
        if not changed:
            continue
        ids = sorted({pk for values in changed.values() for pk, _ in values})
        columns = ", ".join(
            f"{model_field.column} = CASE {key} {' '.join(['WHEN %s THEN %s'] * len(values))} "
            f"ELSE {model_field.column} END"
            for model_field, values in changed.items()
        )
        params = [
            param
            for model_field, values in changed.items()
            for pk, value in values
            for param in (pk, model_field.get_db_prep_save(value, connection))
        ]
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET {columns} WHERE {key} IN ({', '.join(['%s'] * len(ids))})",
                [*params, *ids],
            )


def bracket_finished_store(loaded: LoadedBracket, *, is_open: bool) -> None:
    """The bracket is finished when no match is still to play (``is_open``: a loaded one is; the
    others are asked when only some were loaded); a finished one that has a match to play again
    (after a correction) is published again."""
    bracket = loaded.bracket
    if bracket.status == Bracket.Status.DRAFT:
        return
    is_complete = not is_open and (
        loaded.is_whole or not bracket.matches.filter(status__in=OPEN).exists()
    )
    if is_complete and bracket.status == Bracket.Status.PUBLISHED:
        bracket.status, bracket.finished_at = Bracket.Status.FINISHED, timezone.now()
        bracket.save(update_fields=["status", "finished_at"])
    elif not is_complete and bracket.status == Bracket.Status.FINISHED:
        bracket.status, bracket.finished_at = Bracket.Status.PUBLISHED, None
        bracket.save(update_fields=["status", "finished_at"])
