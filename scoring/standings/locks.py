"""Every lock the standings app takes, and the order it takes them in.

Lock order: a transaction that needs more than one of these locks takes them from the top of this
list down, never back up, so two transactions never wait for each other in a circle.

1. a season's fold lock (:func:`fold_lock`): on PostgreSQL a transaction-level advisory lock
   named :func:`fold_lock_key`, taken by a recompute before it reads anything, so one fold of a
   season runs at a time; a recompute that finds it held does not wait (it asks the holder to
   run once more, ``scoring.standings.services.recompute``), a forced one waits; nothing else
   takes it (hand writes and reads never do);
2. the season's row: ``FOR NO KEY UPDATE`` (:func:`season_fold_lock`) at the end of a fold,
   before it moves the season's folded counter (hand writes, which only reference the row with
   their ``ResultChange``, never wait on it); ``FOR UPDATE`` (``league.locks.season_row_lock``,
   the league's own lock of the row) for a change of the standing rules, in a transaction that
   takes nothing else.

The standings lock no game and no row of another app but the season: ``scoring.games`` locks a
season (a rules change) or a game, never after one of these; ``league`` and ``tournaments``
lock a season's row in their own transactions, before their nights, plans, brackets and games
(``league.locks``, ``tournaments.services.locks``). A fold deletes the ``ResultChange`` rows it
read (hand writes only add new ones) and, outside these, waits on nothing but another fold.

On SQLite there is no advisory lock and ``select_for_update()`` does nothing: its write
transactions are immediate and take the whole database, so they wait on each other already.
"""

from __future__ import annotations

from django.db import connection

from league.models import Season


def fold_lock(season_id: int, *, wait: bool = False) -> bool:
    """Take the season's fold lock for the rest of this transaction, unless another recompute of
    the season holds it (``wait``: wait until it ends); say whether it was taken. On PostgreSQL a
    transaction-level advisory lock on the season (hand writes never take it, and reads never
    wait on it). A fold reads back the shares it stored (the played order, the ratings' replay):
    no other fold may rewrite them meanwhile. (SQLite has one writer at a time: its
    transactions wait on each other already, so it is always taken.)"""
    if connection.vendor != "postgresql":
        return True
    take = "pg_advisory_xact_lock" if wait else "pg_try_advisory_xact_lock"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {take}(hashtextextended(%s, 0))", [fold_lock_key(season_id)])
        taken = cursor.fetchone()[0]
    return wait or bool(taken)


def fold_lock_key(season_id: int) -> str:
    """The name of the season's fold lock (:func:`fold_lock`)."""
    return f"standings:fold:{season_id}"


def season_fold_lock(season_id: int) -> Season:
    """The season's folded counter (``results_version``), its row locked ``FOR NO KEY UPDATE``
    against other folds: rows that only reference the season (a hand's ``ResultChange``) are
    still written meanwhile."""
    return Season.objects.select_for_update(no_key=True).only("results_version").get(pk=season_id)
