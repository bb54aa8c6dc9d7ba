"""Hand entry under real concurrency on PostgreSQL: a hand written on the game as the door read
it and one written under the game's row lock take their locks in the same order."""

import threading
import time

import pytest
from django.db import connection, transaction

from league.errors import ConflictError
from scoring import services
from scoring.models import Game, Hand
from tests.conftest import require

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_a_hand_on_the_read_and_one_under_lock_never_deadlock(make_game, settings):
    """Another writer holds the game's row (as the locked path does) and then records hand 1;
    meanwhile a hand 1 written on the game as read waits for the row. It must not have taken
    hand 1's number first (each would wait for the other: PostgreSQL kills one as a deadlock):
    it waits, finds the row moved, and is answered that hand 1 was entered."""
    require(settings.DATABASES["default"]["ENGINE"].endswith("postgresql"), "needs PostgreSQL")
    game = make_game("standard")
    holding, finished = threading.Event(), threading.Event()
    errors = []

    def locked_writer():
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=game.pk)
                holding.set()
                time.sleep(0.5)  # the other writer is now waiting for the row
                services.hand_record(
                    game=Game.objects.get(pk=game.pk),
                    data=services.HandInput(makers="B", tricks_won=3),
                    expected_number=1,
                )
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()
            finished.set()

    thread = threading.Thread(target=locked_writer)
    thread.start()
    assert holding.wait(10)
    with pytest.raises(ConflictError, match="hand 1 was already entered"):
        services.hand_record(
            game=game, data=services.HandInput(makers="A", tricks_won=3), expected_number=1
        )
    assert finished.wait(10)
    thread.join()
    assert not errors, errors
    assert list(Hand.objects.filter(game=game).values_list("number", "makers")) == [(1, "B")]
    game.refresh_from_db()
    assert (game.last_hand_number, game.score_b) == (1, 1)
