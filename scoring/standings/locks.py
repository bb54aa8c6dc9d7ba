"""Every lock the standings app takes, and the order it takes them in.

Lock order: a transaction that needs more than one of these locks takes them from the top of this
list down, never back up, so two transactions never wait for each other in a circle.

1. a season's fold lock (:func:`fold_lock`): on PostgreSQL a transaction-level advisory lock
   named :func:`fold_lock_key`, taken by a recompute before it reads anything, so one fold of a
   season runs at a time; nothing else waits on it (hand writes and reads never take it);
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


def fold_lock(season_id: int) -> None:
    """Wait until no other recompute of the season is in its transaction, and keep the next
    waiting until this transaction ends: on PostgreSQL, a transaction-level advisory lock on the
    season (hand writes never take it, and reads never wait on it). A fold reads back the shares
    it stored (the played order, the ratings' replay): no other fold may rewrite them meanwhile.
    (SQLite has one writer at a time: its transactions wait on each other already.)"""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [fold_lock_key(season_id)]
            )


def fold_lock_key(season_id: int) -> str:
    """The name of the season's fold lock (:func:`fold_lock`)."""
    return f"standings:fold:{season_id}"


def season_fold_lock(season_id: int) -> Season:
    """The season's folded counter (``results_version``), its row locked ``FOR NO KEY UPDATE``
    against other folds: rows that only reference the season (a hand's ``ResultChange``) are
    still written meanwhile."""
    return Season.objects.select_for_update(no_key=True).only("results_version").get(pk=season_id)
