"""The running state a game keeps on its row (score, scored hands, last hand number, next dealer,
status and winner) is what a replay of its counting hands gives, after any sequence of records
(by callers holding the game as just read, or as read long before), undos and corrections; the
backfill migration computes it for games recorded before it existed; and one hand POST costs a
fixed number of queries, however many hands the game has."""

import importlib

import pytest
from django.apps import apps
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import DomainError
from scoring.games import services
from scoring.games.api import serializers as s
from scoring.games.domain.engine import game_state, next_dealer
from scoring.games.models import Game, Hand
from scoring.games.services.game_state import stored_score
from tests.factories import GameFactory, SeasonFactory

pytestmark = pytest.mark.django_db

hand_facts = st.one_of(
    st.builds(
        services.HandInput,
        makers=st.sampled_from("AB"),
        tricks_won=st.integers(0, 5),
        caller_alone=st.booleans(),
    ),
    st.just(services.HandInput(misdeal=True)),
    st.just(services.HandInput(thrown_in=True)),
)
steps = st.lists(
    st.one_of(
        st.tuples(st.just("record"), hand_facts, st.booleans()),
        st.tuples(st.just("record-stale"), hand_facts, st.booleans()),
        st.tuples(st.just("read")),
        st.tuples(st.just("undo"), st.integers(0, 1)),
        st.tuples(st.just("correct"), st.integers(1, 12), hand_facts),
    ),
    max_size=30,
)


def replayed(game: Game) -> dict:
    """The running state from the game's counting hands, by replaying them all."""
    hands = list(game.hands.filter(status=Hand.Status.ACTIVE).order_by("number"))
    assert [hand.number for hand in hands] == list(range(1, len(hands) + 1))
    state = game_state(services.game_rules(game), map(stored_score, hands))
    last = hands[-1] if hands else None
    return {
        "score": (state.score_a, state.score_b),
        "hands_played": state.hands_played,
        "finished": state.is_over,
        "winner": state.winner.value if state.winner else "",
        "last_hand_number": len(hands),
        "next_dealer_seat": None
        if last is None
        else next_dealer(last.dealer_seat, stored_score(last)),
    }


def stored(game: Game) -> dict:
    game.refresh_from_db()
    return {
        "score": (game.score_a, game.score_b),
        "hands_played": game.hands_played,
        "finished": game.status == Game.Status.FINISHED,
        "winner": game.winner,
        "last_hand_number": game.last_hand_number,
        "next_dealer_seat": game.next_dealer_seat,
    }


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    slug=st.sampled_from(["standard", "progressive", "csl"]),
    first_dealer=st.integers(0, 3),
    plan=steps,
)
def test_stored_running_state_equals_a_replay(league, slug, first_dealer, plan):
    """Each example runs in a savepoint rolled back at its end."""
    with transaction.atomic():
        season = SeasonFactory(league=league, rulebook__slug=slug)
        game = GameFactory(season=season, first_dealer_seat=first_dealer)
        read_earlier = Game.objects.get(pk=game.pk)
        for step in plan:
            game.refresh_from_db()
            try:
                if step[0] == "read":
                    read_earlier = Game.objects.get(pk=game.pk)
                elif step[0].startswith("record"):
                    _, data, numbered = step
                    number = game.last_hand_number + 1 if numbered else None
                    # A caller may hold the game as read before the last writes.
                    held = read_earlier if step[0] == "record-stale" else game
                    services.hand_record(game=held, data=data, expected_number=number)
                elif step[0] == "undo":
                    services.hand_undo(game=game, number=game.last_hand_number - step[1])
                else:
                    services.hand_correct(game=game, number=step[1], data=step[2], reason="fix")
            except DomainError:
                pass  # refused (game over, not the last hand, no such hand …): nothing written
            assert stored(game) == replayed(game)
        transaction.set_rollback(True)


@pytest.mark.parametrize("meanwhile", ["correct", "undo", "record"])
def test_a_hand_recorded_on_a_game_read_before_another_write(make_game, meanwhile):
    """The caller's game was read before another write changed the row (a correction of an
    earlier hand, an undo, another hand): the hand is folded into the row as it is now."""
    game = make_game("standard")
    for _ in range(2):
        services.hand_record(game=game, data=services.HandInput(makers="A", tricks_won=3))
    held = Game.objects.get(pk=game.pk)
    if meanwhile == "correct":
        services.hand_correct(
            game=game, number=1, data=services.HandInput(makers="B", tricks_won=5), reason="fix"
        )
    elif meanwhile == "undo":
        services.hand_undo(game=game, number=2)
    else:
        services.hand_record(game=game, data=services.HandInput(misdeal=True))
    result = services.hand_record(game=held, data=services.HandInput(makers="B", tricks_won=4))
    assert result.created
    assert stored(game) == replayed(game)
    assert (held.last_hand_number, held.score_a) == (2, 2)  # the caller's object is left alone


def test_a_retry_without_number_is_answered_as_the_hand_it_repeats(make_game):
    """The retry is scored as if it were the next hand (the next dealer): where that is refused
    (the dealer's partner ordering up must go alone), the key still finds the recorded hand."""
    game = make_game("csl")
    data = services.HandInput(makers="B", caller_id=game.seat_3_id, ordered_up=True, tricks_won=3)
    first = services.hand_record(game=game, data=data, client_key="retry")
    again = services.hand_record(game=game, data=data, client_key="retry")
    assert first.created and not again.created and again.hand.pk == first.hand.pk
    assert stored(game)["last_hand_number"] == 1


def test_backfill_migration_computes_the_running_state(make_game):
    """Games recorded before the running state was kept get it from their hands."""
    games = [make_game("standard", first_dealer_seat=seat) for seat in (0, 3, 2)]
    services.hand_record(game=games[0], data=services.HandInput(makers="A", tricks_won=3))
    services.hand_record(game=games[0], data=services.HandInput(misdeal=True))
    for _ in range(3):
        services.hand_record(game=games[1], data=services.HandInput(makers="B", tricks_won=4))
    services.hand_undo(game=games[1], number=3)
    expected = [replayed(game) for game in games]
    Game.objects.update(last_hand_number=0, next_dealer_seat=None)
    migration = importlib.import_module("scoring.games.migrations.0009_game_running_state")
    migration.backfill_running_state(apps, None)
    assert [stored(game) for game in games] == expected
    assert [game.next_dealer_seat for game in games] == [1, 1, None]


def test_one_hand_post_runs_a_fixed_number_of_queries(organiser_api, make_game):
    """The token and its user (one statement); then, in one transaction, the game read with its
    season, rulebook and whether the token's user is an organiser of its league, its row locked
    (one), updated, the hand inserted and the season's results marked (three). The same with 3
    hands or 60: nothing reads the game's hands."""
    game = make_game("standard", hands_per_game=100)

    def post(number):
        return organiser_api.post(
            f"/api/v1/games/{game.pk}/hands/",
            {"makers": "AB"[number % 2], "tricks_won": 3, "number": number},
            format="json",
            HTTP_IDEMPOTENCY_KEY=f"key-{number}",
        )

    counts = []
    for number in range(1, 61):
        with CaptureQueriesContext(connection) as queries:
            response = post(number)
        assert response.status_code == 201, response.json()
        if number in (3, 60):
            counts.append(len(queries.captured_queries))
    # The statements, plus the savepoint and its release (the test's transaction around them).
    assert counts == [5 + 2] * 2, queries.captured_queries
    assert [query["sql"] for query in queries.captured_queries].count(None) == 0


def test_a_hand_answer_is_what_the_serializers_give(organiser_api, make_game):
    game = make_game("standard")
    body = organiser_api.post(
        f"/api/v1/games/{game.pk}/hands/", {"makers": "A", "tricks_won": 5}, format="json"
    ).json()
    hand = Hand.objects.get(pk=body["id"])
    expected = {**s.HandSerializer(hand).data, "game": s.GameSerializer(hand.game).data}
    assert body == expected
    assert body["game"]["next_dealer_seat"] == 1 and body["game"]["score_a"] == 2
