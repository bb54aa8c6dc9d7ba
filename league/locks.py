"""Every row lock the league app takes, and the order it takes them in.

Lock order: a transaction that needs more than one of these rows locks them from the top of this
list down, never back up, so two transactions never wait for each other in a circle.

1. a season (:func:`season_lock`, :func:`season_row_lock`): its teams, a series of nights, its
   options and its name;
2. a night (:func:`night_lock`): its date and venue;
3. a league's roster (:func:`roster_lock`: the league's row, ``FOR NO KEY UPDATE``, so players
   are added or renamed one after the other while rows pointing at the league are still
   written); the league's own fields (:func:`league_lock`, ``FOR UPDATE``) in a transaction that
   locks nothing else;
4. a player (:func:`player_lock`, :func:`player_consent_lock`);
5. an invitation (:func:`invitation_lock`), alone.

Inside this app only a player's rename takes two (the roster, then the player). The roster's
lock comes after a season and a night although the league is their parent: a walk-in checked in
at the desk (``tournaments.services.nights``) holds the night's lock, which also locks its
season (``tournaments.services.locks.night_lock``), when ``player_create`` takes the roster's.

The other apps lock a season's row too, each in its own transaction: ``scoring.games`` (a rules
change) and ``scoring.standings`` (the fold lock, then the season ``FOR NO KEY UPDATE``; a
standing-rules change) take it first or alone; ``tournaments`` takes it before its night, plan
and bracket rows, and a game last (see each app's ``locks`` module).

Each lock is ``select_for_update()``; where related rows are read in the same query, ``of=``
names the locked row alone. On SQLite it does nothing (its write transactions are
immediate and take the whole database), so the constraints carry correctness there.
"""

from __future__ import annotations

from league.models import Invitation, League, Night, Player, Season


def season_lock(season_id: int) -> None:
    """Lock the season's row (nothing is read): two organisers adding overlapping teams, or
    series of nights, take turns."""
    Season.objects.select_for_update().filter(pk=season_id).exists()


def season_row_lock(season_id: int, *fields: str) -> Season:
    """The season, its row locked; only ``fields`` (and its id) loaded when any are named."""
    seasons = Season.objects.select_for_update()
    if fields:
        seasons = seasons.only("pk", *fields)
    return seasons.get(pk=season_id)


def night_lock(night_id: int) -> Night:
    """The night, its row alone locked."""
    return Night.objects.select_for_update().get(pk=night_id)


def roster_lock(league_id: int) -> None:
    """Lock the league's row so that two players are added or renamed one after the other (a
    no-key lock: rows pointing at the league can still be written meanwhile)."""
    League.objects.select_for_update(no_key=True).filter(pk=league_id).values_list(
        "pk", flat=True
    ).first()


def league_lock(league_id: int) -> League:
    """The league, its row locked (its name and description change)."""
    return League.objects.select_for_update().get(pk=league_id)


def player_lock(player_id: int) -> Player:
    """The player, their row locked."""
    return Player.objects.select_for_update().get(pk=player_id)


def player_consent_lock(player_id: int) -> Player:
    """The player with their league, the player's row alone locked, for a change of their email
    consents: they change one after the other. (The league's row is read, not locked: locked in
    the same statement, after the player's, it went against this order.)"""
    return Player.objects.select_for_update(of=("self",)).select_related("league").get(pk=player_id)


def invitation_lock(invitation_id: int) -> Invitation:
    """The invitation, its row locked: a link works once."""
    return Invitation.objects.select_for_update().get(pk=invitation_id)
