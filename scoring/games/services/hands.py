"""Hand entry at the table: record the next hand, undo the last one, correct an earlier one.

Every write of a hand runs in one transaction that first locks the game row
(:func:`~scoring.games.locks.game_lock`) and decides on what it reads there, so two
captains of one table, or a phone that retries, are answered one after the other. Idempotent by
the client's submission key; a race the lock cannot see (the same key sent to a game that another
transaction is creating a hand for) ends in the database's uniqueness, never a second hand.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from core.errors import ConflictError, DomainError
from league.audit import actor_of, audit_record
from scoring.games.access import GameDoor
from scoring.games.domain.engine import (
    Outcome,
    game_state,
    game_state_after,
    hand_summary,
    next_dealer,
    score_hand,
)
from scoring.games.domain.hand_input import HandInput
from scoring.games.locks import game_lock
from scoring.games.models import Game, Hand
from scoring.games.selectors import game_counting_hands, game_next_dealer_seat
from scoring.games.services.game_state import (
    apply_state,
    game_rules,
    hand_create,
    replay_running,
    results_changed,
    running_state,
    set_running,
    signed_in,
    stored_score,
)
from scoring.games.services.hand_facts import HandResult, engine_facts, hand_matches, hand_picture


def _replay(existing: Hand, game: Game, data: HandInput) -> HandResult:
    if existing.game_id != game.pk or not hand_matches(data, existing):
        raise ConflictError(
            "this submission key was already used for a different hand", code="key_reused"
        )
    return HandResult(
        existing,
        game,
        False,
        hand_summary(Outcome(existing.outcome), existing.points_a, existing.points_b),
    )


def _replayed(game: Game, data: HandInput, client_key: str | None) -> HandResult | None:
    """A retry of a hand already recorded under ``client_key``, answered as it was."""
    existing = Hand.objects.filter(client_key=client_key).first() if client_key else None
    return None if existing is None else _replay(existing, game, data)


def hand_record(
    *,
    game: Game | GameDoor,
    data: HandInput,
    client_key: str | None = None,
    expected_number: int | None = None,
    source: str = Hand.Source.API,
    user=None,
) -> HandResult:
    """Record the next hand of a game.

    ``game``: the game, or the door a request scores it by (the game is then found and its
    access checked by the read that locks it: one read instead of two).

    Idempotent by ``client_key``: the same key with the same facts returns the hand already
    recorded (``created`` false); with other facts it is a conflict. ``expected_number`` is the
    hand number the client believes it is entering: if another captain got there first, the
    answer is a conflict saying so, never a second hand.

    The new hand is folded into the running state kept on the game row (read under its lock);
    no hand is read. The key is looked up only when the hand is not plainly the next one (a key
    is unique, so the INSERT refuses a retry of a recorded hand).
    """
    if client_key is not None and not 1 <= len(client_key) <= 100:
        raise DomainError("the submission key must be 1 to 100 characters", field="client_key")
    try:
        with transaction.atomic():
            return _hand_record(game, data, client_key, expected_number, source, user)
    except IntegrityError:
        # A retry under the same key that the lock did not order (it named no number).
        existing = Hand.objects.filter(client_key=client_key).first() if client_key else None
        if existing is not None:
            return _replay(existing, Game.objects.get(pk=game.pk), data)
        current = Game.objects.get(pk=game.pk)
        raise ConflictError(
            f"hand {expected_number or current.last_hand_number} was "
            f"already entered; the score is A {current.score_a} – B {current.score_b}",
            code="hand_exists",
        ) from None


def _hand_record(game, data, client_key, expected_number, source, user) -> HandResult:
    game = game.locked() if isinstance(game, GameDoor) else game_lock(game.pk)
    number = game.last_hand_number + 1
    takes_next = (
        not game.is_final_score_only
        and game.status != Game.Status.FINISHED
        and expected_number in (None, number)
    )
    if not takes_next:
        answer = _replayed(game, data, client_key)
        if answer is not None:
            return answer
    if game.is_final_score_only:
        raise ConflictError("this game was recorded by its final score alone", code="game_over")
    if expected_number is not None and expected_number != number:
        if expected_number < number:
            message = (
                f"hand {expected_number} was already entered; the score is "
                f"A {game.score_a} – B {game.score_b} and hand {number} is next"
            )
        else:
            message = f"hand {number} is next, not hand {expected_number}"
        raise ConflictError(message, code="hand_exists")
    if game.status == Game.Status.FINISHED:
        raise ConflictError(
            f"the game is over ({game.score_a}–{game.score_b}); no more hands can be entered",
            code="game_over",
        )
    rules = game_rules(game)
    dealer_seat = game_next_dealer_seat(game=game)
    try:
        score = score_hand(rules, engine_facts(game, data, dealer_seat))
        state = game_state_after(rules, running_state(game), score)
    except DomainError:
        # A retry without a number is scored as the next hand (another dealer): answer it as
        # the hand it repeats, if it does.
        answer = _replayed(game, data, client_key)
        if answer is not None:
            return answer
        raise
    set_running(game, number, next_dealer(dealer_seat, score))
    effects = apply_state(game, state, has_hands=True)
    hand = hand_create(
        game,
        number,
        data,
        score,
        dealer_seat=dealer_seat,
        source=source,
        entered_by=signed_in(user),
        client_key=client_key or None,
    )
    results_changed(game, effects)
    return HandResult(hand, game, True, score.summary, effects)


def _check_captain_may_change(game: Game, source: str) -> None:
    """Once the other side confirmed the final score, only an organiser may change the game."""
    if source == Hand.Source.CAPTAIN and game.confirmation == Game.Confirmation.CONFIRMED:
        raise ConflictError(
            "the final score was confirmed; ask an organiser to change it", code="confirmed"
        )


def hand_undo(
    *, game: Game, number: int, user=None, reason: str = "", source: str = Hand.Source.API
) -> HandResult:
    """Undo the last counting hand. ``number`` must be that hand's number, so a double tap or a
    retried request never undoes two hands."""
    with transaction.atomic():
        game = game_lock(game.pk)
        _check_captain_may_change(game, source)
        hands = game_counting_hands(game=game)
        if not hands:
            raise ConflictError("there is no hand to undo", code="nothing_to_undo")
        last = hands[-1]
        if number != last.number:
            raise ConflictError(
                f"hand {number} is not the last hand (the last is hand {last.number}); "
                "only the last hand can be undone",
                code="not_last_hand",
            )
        if game.is_final_score_only:
            raise ConflictError("this game was recorded by its final score alone")
        before = hand_picture(last)
        last.status = Hand.Status.VOIDED
        last.changed_by = signed_in(user)
        last.changed_at = timezone.now()
        last.change_reason = reason.strip() or "undone"
        last.save(update_fields=["status", "changed_by", "changed_at", "change_reason"])
        rules = game_rules(game)
        replay_running(game, hands[:-1])
        effects = apply_state(
            game, game_state(rules, map(stored_score, hands[:-1])), has_hands=True
        )
        results_changed(game, effects)
        audit_record(
            league=game.season.league_id,
            actor=actor_of(user),
            action="hand.undo",
            target=last,
            before=before,
            after=hand_picture(last),
            reason=last.change_reason,
        )
        return HandResult(last, game, True, f"Hand {last.number} undone", effects)


def hand_correct(
    *, game: Game, number: int, data: HandInput, reason: str, user=None, source=Hand.Source.API
) -> HandResult:
    """Correct an earlier hand: the old row is kept (superseded, with who, when and why) and a new
    row takes its number. Refused if the corrected score would have ended the game before hands
    that were since recorded."""
    if not reason or not reason.strip():
        raise DomainError("say why the hand is corrected", field="reason")
    with transaction.atomic():
        game = game_lock(game.pk)
        _check_captain_may_change(game, source)
        hands = game_counting_hands(game=game)
        old = next((hand for hand in hands if hand.number == number), None)
        if old is None:
            raise DomainError(f"there is no hand {number} in this game", field="number")
        if hand_matches(data, old):
            raise DomainError("the correction is the same as the hand recorded", field="number")
        rules = game_rules(game)
        score = score_hand(rules, engine_facts(game, data, old.dealer_seat))
        scores = [score if hand.number == number else stored_score(hand) for hand in hands]
        try:
            state = game_state(rules, scores)
        except DomainError as error:
            if error.code == "time_already_called":
                raise DomainError(
                    "time was called on another hand of this game; correct that hand first",
                    field="time_called",
                    code=error.code,
                ) from None
            raise DomainError(
                "with this correction the game would have ended before the last hand recorded; "
                "undo the later hands first",
                field="number",
                code="game_over",
            ) from None
        before = hand_picture(old)
        old.status = Hand.Status.SUPERSEDED
        old.changed_by = signed_in(user)
        old.changed_at = timezone.now()
        old.change_reason = reason.strip()
        old.save(update_fields=["status", "changed_by", "changed_at", "change_reason"])
        new = hand_create(
            game,
            number,
            data,
            score,
            dealer_seat=old.dealer_seat,
            source=source,
            entered_by=old.changed_by,
        )
        old.replaced_by = new
        old.save(update_fields=["replaced_by"])
        replay_running(game, [new if hand.number == number else hand for hand in hands])
        effects = apply_state(game, state, has_hands=True)
        results_changed(game, effects)
        audit_record(
            league=game.season.league_id,
            actor=actor_of(user),
            action="hand.correct",
            target=new,
            before=before,
            after=hand_picture(new),
            reason=reason,
        )
        return HandResult(new, game, True, f"Hand {number} corrected: {score.summary}", effects)
