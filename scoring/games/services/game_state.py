"""The steps every write of a game shares (each first locks the game: ``scoring.games.locks``):
the rules a game is scored under, storing a hand with its derived points, copying the engine's
game state onto the row, and, after commit, asking for the standings recompute and announcing a
change of the final result (``game_finished``).

- *effects*: what a write changed in the game's life: ``finished``, ``winner_changed``,
  ``reopened`` (the :data:`RESULT_CHANGES`).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from core.metrics import HANDS_STORED
from league.domain.rules import GameLength, TieAtTime
from league.domain.rules import Rulebook as RulebookRules
from league.models import Rulebook
from scoring.games import jobs
from scoring.games.domain.engine import GameState, HandScore, Outcome, Side
from scoring.games.domain.hand_input import HandInput
from scoring.games.models import Game, Hand, ResultChange
from scoring.games.selectors import dealer_after
from scoring.games.signals import game_finished


def rulebook_rules(rulebook: Rulebook) -> RulebookRules:
    """The rules of a rulebook's options, built once per process for each set of options (the
    rules are immutable; every hand of a night is scored under the same few)."""
    options = rulebook.options
    try:  # each value's type is in the key: True == 1, yet only one of them is a valid count
        # (in the options' order: it decides which of several errors from_options names)
        key = tuple((name, type(value), value) for name, value in options.items())
        hash(key)
    except (AttributeError, TypeError):  # not a dict of JSON scalars: from_options says why
        return RulebookRules.from_options(options)
    return _rules_of(key)


@functools.lru_cache(maxsize=256)
def _rules_of(key: tuple) -> RulebookRules:
    return RulebookRules.from_options({name: value for name, _, value in key})


def game_rules(game: Game, rulebook: Rulebook | None = None) -> RulebookRules:
    """The rules a game is scored under: its season's rulebook (or ``rulebook``), with the game's
    own length when a night chose a number of hands. A playoff game (one that does not count for
    the standings: a bracket's) is never drawn at time: level when time is called, it plays on
    until a hand breaks the tie, whatever the rulebook's ``tie_at_time``."""
    rules = rulebook_rules(rulebook or game.season.rulebook)
    if game.hands_per_game:
        rules = dataclasses.replace(
            rules, game_length=GameLength.HANDS, hands_per_game=game.hands_per_game
        )
    if not game.counts_for_standings and rules.tie_at_time is not TieAtTime.NEXT_HAND:
        rules = dataclasses.replace(rules, tie_at_time=TieAtTime.NEXT_HAND)
    return rules


def signed_in(user):
    """The user to record as the author of a change, or ``None`` for a captain or a job."""
    return user if user is not None and user.is_authenticated else None


def hand_create(
    game: Game,
    number: int,
    data: HandInput,
    score: HandScore,
    *,
    dealer_seat: int,
    source: str,
    entered_by,
    client_key: str | None = None,
) -> Hand:
    """Insert one hand row: the facts as entered and the points the engine derived, under the
    rulebook the game is scored by. A taken number or key raises ``IntegrityError``. Counted in
    ``euchre_hands_stored_total`` once the transaction commits."""
    transaction.on_commit(HANDS_STORED.inc, robust=True)
    return Hand.objects.create(
        game=game,
        number=number,
        makers=data.makers or "",
        caller_id=data.caller_id,
        caller_alone=data.caller_alone,
        defender_alone=data.defender_alone,
        tricks_won=data.tricks_won,
        renege=data.renege or "",
        thrown_in=data.thrown_in,
        misdeal=data.misdeal,
        ordered_up=data.ordered_up,
        time_called=data.time_called,
        dealer_seat=dealer_seat,
        rulebook=game.season.rulebook,
        outcome=score.outcome.value,
        points_a=score.points_a,
        points_b=score.points_b,
        client_key=client_key,
        source=source,
        entered_by=entered_by,
    )


def stored_score(hand: Hand) -> HandScore:
    outcome = Outcome(hand.outcome)
    return HandScore(outcome, hand.points_a, hand.points_b, "", hand.time_called)


def running_state(game: Game) -> GameState:
    """The engine's state of a game, from the running state kept on its row."""
    finished = game.status == Game.Status.FINISHED
    return GameState(
        game.score_a,
        game.score_b,
        game.hands_played,
        is_over=finished,
        winner=Side(game.winner) if finished and game.winner else None,
        time_called=game.time_called,
    )


def set_running(game: Game, last_hand_number: int, next_dealer_seat: int | None) -> None:
    """Set the last counting hand's number and the next dealer on the row (saved by
    :func:`apply_state`)."""
    game.last_hand_number = last_hand_number
    game.next_dealer_seat = next_dealer_seat if last_hand_number else None


def replay_running(game: Game, hands: list[Hand]) -> None:
    """The running numbers from a game's counting hands in order (undo and correct replay)."""
    if hands:
        set_running(game, hands[-1].number, dealer_after(hands[-1]))
    else:
        set_running(game, 0, None)


STATE_FIELDS = (
    "score_a",
    "score_b",
    "hands_played",
    "last_hand_number",
    "next_dealer_seat",
    "status",
    "winner",
    "time_called",
    "finished_at",
    "confirmation",
    "dispute_reason",
    "updated_at",
)
"""The columns of a game a write of its state sets (:func:`apply_state`)."""


def apply_state(game: Game, state: GameState, *, has_hands: bool | None = None) -> list[str]:
    """Copy the engine's game state onto the row and save it; say what changed in the game's
    life. ``has_hands``: whether the game has any hand row at all (counting or not), when the
    caller knows; else it is read."""
    effects = []
    was_finished = game.status == Game.Status.FINISHED
    old_winner = game.winner
    game.score_a, game.score_b, game.hands_played = state.score_a, state.score_b, state.hands_played
    game.time_called = state.time_called
    if state.is_over:
        game.status = Game.Status.FINISHED
        game.winner = state.winner.value if state.winner else ""
        if not was_finished:
            game.finished_at = timezone.now()
            game.confirmation = Game.Confirmation.PENDING
            game.dispute_reason = ""
            effects.append("finished")
        elif game.winner != old_winner:
            effects.append("winner_changed")
    else:
        game.status = (
            Game.Status.IN_PROGRESS
            if state.hands_played or (game.hands.exists() if has_hands is None else has_hands)
            else (Game.Status.SCHEDULED)
        )
        game.winner = ""
        game.finished_at = None
        if was_finished:
            game.confirmation = Game.Confirmation.PENDING
            game.dispute_reason = ""
            effects.append("reopened")
    game.updated_at = timezone.now()
    game.save(update_fields=STATE_FIELDS)
    return effects


RESULT_CHANGES = ("finished", "winner_changed", "reopened")
"""Effects that change a game's final result: ``game_finished`` is sent for each of them."""


def result_change_record(game: Game) -> None:
    """Log that the game's results changed (a :class:`~scoring.games.models.ResultChange`, in the
    caller's transaction) and, after commit, ask for the standings recompute that folds it.

    An insert, not an update of the season's row: the tables of one season never queue on a
    shared lock, and the change is pending exactly from the moment it is committed.

    A game that does not count for the standings (a bracket's) is logged too: the season's
    results version tells its pages (cached on it) that a score moved. Its recompute only moves
    the snapshot's version on, with no fold and no race (``season_standings_recompute``)."""
    ResultChange.objects.create(season_id=game.season_id, game_id=game.pk)
    season_id = game.season_id
    transaction.on_commit(lambda: enqueue_standings(season_id), robust=True)


def results_changed(game: Game, effects: Iterable[str]) -> None:
    """Log the change of the game's results (:func:`result_change_record`); after commit,
    recompute standings and announce a change of the game's final result (it ended, its winner
    changed, or it was reopened by an undo).

    The callbacks are robust: the hand is committed whatever they do, and a lost one is made good
    by the periodic sweeps (standings) and the receivers' own reconciliation (brackets)."""
    result_change_record(game)
    game_id = game.pk
    for change in RESULT_CHANGES:
        if change in effects:
            transaction.on_commit(
                lambda change=change: game_finished.send(
                    sender=Game, game_id=game_id, change=change
                ),
                robust=True,
            )


def enqueue_standings(season_id: int) -> None:
    """Ask a worker to recompute a season's standings (coalesced; see
    scoring.standings.services.recompute)."""
    jobs.standings_recompute_soon(season_id)
