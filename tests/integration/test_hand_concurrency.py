"""Hand entry under real concurrency on PostgreSQL: a hand written on the game as the door read
it and one written under the game's row lock take their locks in the same order."""

import re
import threading
import time

import pytest
from django.db import connection, transaction

from core.errors import ConflictError
from scoring.games import services
from scoring.games.models import Game, Hand
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


def test_the_score_card_is_read_at_one_moment(make_game, settings, client, monkeypatch):
    """A hand committed between the card's read of the game's row and of its hands: the card
    shows the game as it was before that hand (hand 2 to enter, 2–0), never the next number with
    the old score (hand 3 to enter, 2–0), which a phone would keep and show offline."""
    require(settings.DATABASES["default"]["ENGINE"].endswith("postgresql"), "needs PostgreSQL")
    from scoring.games.captain import card

    game = make_game("standard")
    services.hand_record(game=game, data=services.HandInput(makers="A", tricks_won=5))
    read_hands = card.game_card_hands

    def another_captain_records_first(*, game):
        def record():
            try:
                services.hand_record(
                    game=Game.objects.get(pk=game.pk),
                    data=services.HandInput(makers="B", tricks_won=3),
                )
            finally:
                connection.close()

        thread = threading.Thread(target=record)
        thread.start()
        thread.join(10)
        return read_hands(game=game)

    monkeypatch.setattr(card, "game_card_hands", another_captain_records_first)
    page = client.get(f"/t/{game.captain_token}/").content.decode()
    assert Hand.objects.filter(game=game).count() == 2  # the other captain's hand went in
    assert re.findall(r"Hand (\d+) ·", page) == ["2"]  # the next hand to enter
    assert re.findall(r'<b>(\d+)<span class="sr"> points', page) == ["2", "0"]
