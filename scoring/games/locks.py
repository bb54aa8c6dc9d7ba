"""Every row lock the games app takes, and the order it takes them in.

Lock order: a transaction that needs more than one of these rows locks them from the top of this
list down, never back up, so two transactions never wait for each other in a circle.

1. a season (``league.locks.season_row_lock``, the league's own lock of the row): a change of
   its rules, in a transaction that locks nothing else (the hands are re-derived afterwards by
   a job, one game per transaction);
2. a game: every write of a game (a hand, an undo, a correction, a final score, a confirmation,
   a call-off, a re-derivation) takes it first. Taken by the door,
   ``scoring.games.access.game_to_score`` with ``lock=True`` (``FOR UPDATE OF g`` in the door's
   one statement, which reads the game with its season's rulebook): through
   :func:`game_lock`, or ``GameDoor.locked`` for a hand entered through a request.

A write that changes a game's result logs a ``ResultChange`` row while it holds the game's lock:
the insert takes a key-share lock on the season's row, so it waits for a season locked ``FOR
UPDATE`` (1), never the other way round. The other apps lock a game last: ``tournaments`` locks
a night or a bracket before it calls a game off (``tournaments.services.locks``), and
``scoring.standings`` never locks a game (``scoring.standings.locks``).

On SQLite ``select_for_update()`` and ``FOR UPDATE`` do nothing (its write transactions are
immediate and take the whole database), so the constraints carry correctness there.
"""

from __future__ import annotations

from scoring.games.access import game_to_score
from scoring.games.models import Game


def game_lock(game_id: int) -> Game:
    """Lock the game row for the rest of the transaction (a no-op on SQLite, whose IMMEDIATE
    transactions already serialise writers), read with its season and rulebook: every write of
    a game (a hand, an undo, a correction, a final score, a confirmation) takes it first, so two
    captains of one table are decided one after the other on what the first one wrote. The
    door's statement (``game_to_score`` with ``lock=True``)."""
    game, _ = game_to_score("id", game_id, lock=True)
    if game is None:
        raise Game.DoesNotExist(game_id)
    return game
