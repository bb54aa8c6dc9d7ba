"""The league's lock order (``league.locks``) on PostgreSQL, where rows are locked: a change of a
player's email consents locks the player's row alone, not their league's. Locked in the same
statement, the league's row came after the player's, against the order a rename takes them in
(the roster's lock on the league, then the player): the two could wait for each other."""

import pytest
from django.db import connection, transaction

from league.locks import player_consent_lock
from league.models import League, Player
from tests.conftest import require


@pytest.mark.services  # PostgreSQL
@pytest.mark.django_db(transaction=True)
def test_a_consent_change_locks_the_player_not_the_league(league):
    import psycopg

    require(connection.vendor == "postgresql", "row locks are PostgreSQL's")
    player = Player.objects.create(league=league, name="Ann Lee")
    settings_dict = connection.settings_dict
    other = psycopg.connect(
        dbname=settings_dict["NAME"],
        user=settings_dict["USER"],
        host=settings_dict["HOST"],
        port=settings_dict["PORT"] or 5432,
        password=settings_dict["PASSWORD"] or None,
    )
    lock = "SELECT id FROM {} WHERE id = %s FOR {} NOWAIT"
    try:
        with transaction.atomic():
            locked = player_consent_lock(player.pk)
            assert locked.league.name == league.name  # read with the player
            with pytest.raises(psycopg.errors.LockNotAvailable):
                other.execute(lock.format(Player._meta.db_table, "UPDATE"), [player.pk])
            other.rollback()
            # the roster's lock (``roster_lock``) is not held up by it
            roster = other.execute(
                lock.format(League._meta.db_table, "NO KEY UPDATE"), [league.pk]
            ).fetchall()
            assert roster == [(league.pk,)]
            other.rollback()
    finally:
        other.close()
