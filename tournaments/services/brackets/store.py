"""Storing what reconciling a bracket changed: the one writer behind every advance, publish,
correction and withdrawal (``tournaments.services.brackets.advance``), and the one rule that
marks a bracket finished.

Words: *changes* (:class:`Changes`) are what a reconcile decided in memory: the match rows whose
fields changed, the matches forfeited by a withdrawn team, a new Swiss round's matches, the ready
matches (each gets its next game unless one is in play) and whether any loaded match is still to
play."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils import timezone

from scoring.models import Game
from tournaments.models import Bracket, BracketMatch
from tournaments.services.brackets.loaded import MATCH_FIELDS, LinkRow, LoadedBracket
from tournaments.services.brackets.match_games import (
    counting_links,
    links_void,
    next_games_create,
    stray_games_void,
)

MATCH_ATTNAMES = {name: BracketMatch._meta.get_field(name).attname for name in MATCH_FIELDS}
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
    for match in changes.changed:  # an UPDATE each: a few rows, cheaper than bulk_update's CASE
        BracketMatch.objects.filter(pk=match.pk).update(
            **{name: getattr(match, MATCH_ATTNAMES[name]) for name in MATCH_FIELDS}
        )
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
