"""Hand entry at the table: record the next hand, undo the last one, correct an earlier one.

Idempotent by the client's submission key; a race between two captains of one table ends in a
clear conflict, never a second hand (the database's uniqueness decides).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models.base import ModelState
from django.utils import timezone

from league.audit import actor_of, audit_record, hand_picture
from league.errors import ConflictError, DomainError
from scoring.domain.engine import (
    GameState,
    HandScore,
    Outcome,
    game_state,
    game_state_after,
    hand_summary,
    next_dealer,
    score_hand,
)
from scoring.models import Game, Hand
from scoring.selectors import game_counting_hands, game_next_dealer_seat
from scoring.services.game_state import (
    StaleGameError,
    _apply_running,
    _apply_state,
    _create_hand,
    _lock_game,
    _lock_game_row,
    _new_hand,
    _one_write,
    _replayed_running,
    _results_changed,
    _running_fields,
    _signed_in,
    _store_hand,
    _stored_score,
    game_rules,
    running_state,
)
from scoring.services.hand_facts import HandInput, HandResult, _engine_facts


def _replay(existing: Hand, game: Game, data: HandInput) -> HandResult:
    if existing.game_id != game.pk or not data.matches(existing):
        raise ConflictError(
            "this submission key was already used for a different hand", code="key_reused"
        )
    return HandResult(
        existing,
        game,
        False,
        hand_summary(Outcome(existing.outcome), existing.points_a, existing.points_b),
    )


def hand_record(
    *,
    game: Game,
    data: HandInput,
    client_key: str | None = None,
    expected_number: int | None = None,
    source: str = Hand.Source.API,
    user=None,
) -> HandResult:
    """Record the next hand of a game.

    Idempotent by ``client_key``: the same key with the same facts returns the hand already
    recorded (``created`` false); with other facts it is a conflict. ``expected_number`` is the
    hand number the client believes it is entering: if another captain got there first, the
    answer is a conflict saying so, never a second hand.

    The new hand is folded into the running state kept on the game row; no hand is read. First
    on ``game`` as the caller read it (the door's read, unlocked): the hand is inserted and the
    row updated only if it still holds the state the hand was folded into. If that read does not
    plainly allow the hand (a conflict, a refusal, a retried key), or the row or the database
    says otherwise, everything is decided again on the row read under lock. The key is looked up
    only then (a key is unique, so the INSERT refuses a retry of a recorded hand). On PostgreSQL
    the write on the read is one statement (``_store_hand``), in no transaction of its own.
    """
    if client_key is not None and not 1 <= len(client_key) <= 100:
        raise DomainError("the submission key must be 1 to 100 characters", field="client_key")
    planned = _plan_on_read(game, data, expected_number)
    if planned is not None:
        try:
            with _one_write():
                return _write(game, data, client_key, source, user, planned)
        except (IntegrityError, StaleGameError):
            pass  # the row moved since it was read, or the key or number is taken: under lock
    try:
        with transaction.atomic():
            return _hand_record(game, data, client_key, expected_number, source, user)
    except IntegrityError:
        # Lost a race with an identical retry (same client key) or another captain (same number).
        existing = Hand.objects.filter(client_key=client_key).first() if client_key else None
        if existing is not None:
            return _replay(existing, Game.objects.get(pk=game.pk), data)
        current = Game.objects.get(pk=game.pk)
        raise ConflictError(
            f"hand {expected_number or current.last_hand_number} was "
            f"already entered; the score is A {current.score_a} – B {current.score_b}",
            code="hand_exists",
        ) from None


def _takes_next(game: Game, expected_number: int | None) -> bool:
    """Whether the game plainly takes its next hand as hand ``expected_number`` (any, if
    ``None``): a game scored hand by hand, not over, whose next number it is."""
    return (
        not game.is_final_score_only
        and game.status != Game.Status.FINISHED
        and expected_number in (None, game.last_hand_number + 1)
    )


def _plan_on_read(game: Game, data: HandInput, expected_number: int | None):
    """``(number, dealer seat, score, state)`` of the next hand on the game as read, or ``None``
    when that read does not plainly allow it (decided again under lock)."""
    if not _takes_next(game, expected_number):
        return None
    try:
        return (game.last_hand_number + 1, *_scored_next(game, data))
    except DomainError:
        return None


def _scored_next(game: Game, data: HandInput) -> tuple[int, HandScore, GameState]:
    """The next hand's dealer seat, its score under the game's rules and the game's state after
    it; :class:`DomainError` if the rules refuse the hand."""
    rules = game_rules(game)
    dealer_seat = game_next_dealer_seat(game=game)
    score = score_hand(rules, _engine_facts(game, data, dealer_seat))
    return dealer_seat, score, game_state_after(rules, running_state(game), score)


def _write(game, data, client_key, source, user, planned) -> HandResult:
    """Fold the planned hand into the game's row and insert it (:func:`_store_hand`), only if
    the row still holds what ``game`` was read with (else :class:`StaleGameError`: nothing is
    written). Under the row's lock that is a given; on the door's unlocked read it is the
    check."""
    number, dealer_seat, score, state = planned
    game = _copied(game)  # the caller's object is left as it was read
    read = _running_fields(game)
    _apply_running(game, number, next_dealer(dealer_seat, score))
    effects = _apply_state(game, state, has_hands=True, save=False)
    hand = _new_hand(
        game,
        number,
        data,
        score,
        dealer_seat=dealer_seat,
        source=source,
        entered_by=_signed_in(user),
        client_key=client_key or None,
    )
    _store_hand(game, hand, read)
    _results_changed(game, effects, logged=True)
    return HandResult(hand, game, True, score.summary, effects)


def _copied(game: Game) -> Game:
    """``copy.copy(game)`` as Django's pickling hooks make it (``Model.__getstate__``): the
    attributes copied, a new ``_state`` with a fields cache of its own; made directly, without
    the generic copy protocol and the app-registry lookup of ``model_unpickle``. (A game has no
    binary field, the one kind ``__getstate__`` treats apart.)"""
    clone = Game.__new__(Game)
    clone.__dict__.update(game.__dict__)
    state = ModelState.__new__(ModelState)
    state.__dict__.update(game._state.__dict__)
    state.fields_cache = game._state.fields_cache.copy()
    clone._state = state
    return clone


def _hand_record(game, data, client_key, expected_number, source, user) -> HandResult:
    game = _lock_game_row(game)

    def replayed() -> HandResult | None:
        """A retry of a hand already recorded under this key, answered as it was."""
        existing = Hand.objects.filter(client_key=client_key).first() if client_key else None
        return None if existing is None else _replay(existing, game, data)

    number = game.last_hand_number + 1
    if not _takes_next(game, expected_number):
        answer = replayed()
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
    try:
        dealer_seat, score, state = _scored_next(game, data)
    except DomainError:
        # A retry without a number is scored as the next hand (another dealer): answer it as
        # the hand it repeats, if it does.
        answer = replayed()
        if answer is not None:
            return answer
        raise
    return _write(game, data, client_key, source, user, (number, dealer_seat, score, state))


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
        game = _lock_game(game.pk)
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
        last.changed_by = _signed_in(user)
        last.changed_at = timezone.now()
        last.change_reason = reason.strip() or "undone"
        last.save(update_fields=["status", "changed_by", "changed_at", "change_reason"])
        rules = game_rules(game)
        _replayed_running(game, hands[:-1])
        effects = _apply_state(
            game, game_state(rules, map(_stored_score, hands[:-1])), has_hands=True
        )
        _results_changed(game, effects)
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
        game = _lock_game(game.pk)
        _check_captain_may_change(game, source)
        hands = game_counting_hands(game=game)
        old = next((hand for hand in hands if hand.number == number), None)
        if old is None:
            raise DomainError(f"there is no hand {number} in this game", field="number")
        if data.matches(old):
            raise DomainError("the correction is the same as the hand recorded", field="number")
        rules = game_rules(game)
        score = score_hand(rules, _engine_facts(game, data, old.dealer_seat))
        scores = [score if hand.number == number else _stored_score(hand) for hand in hands]
        try:
            state = game_state(rules, scores)
        except DomainError:
            raise DomainError(
                "with this correction the game would have ended before the last hand recorded; "
                "undo the later hands first",
                field="number",
                code="game_over",
            ) from None
        before = hand_picture(old)
        old.status = Hand.Status.SUPERSEDED
        old.changed_by = _signed_in(user)
        old.changed_at = timezone.now()
        old.change_reason = reason.strip()
        old.save(update_fields=["status", "changed_by", "changed_at", "change_reason"])
        new = _create_hand(
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
        _replayed_running(game, [new if hand.number == number else hand for hand in hands])
        effects = _apply_state(game, state, has_hands=True)
        _results_changed(game, effects)
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
