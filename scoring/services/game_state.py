"""The steps every write of a game shares: the rules a game is scored under, locking its row,
storing a hand with its derived points, copying the engine's game state onto the row, and, after
commit, asking for the standings recompute and announcing a change of the final result
(``game_finished``).

- *effects*: what a write changed in the game's life: ``finished``, ``winner_changed``,
  ``reopened`` (the :data:`RESULT_CHANGES`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from league.domain.rules import GameLength
from league.domain.rules import Rulebook as RulebookRules
from league.models import Rulebook, Season
from scoring.domain.engine import GameState, HandScore, Outcome
from scoring.models import Game, Hand
from scoring.services.hand_facts import HandInput
from scoring.signals import game_finished
from scoring.standings import standings_recompute_soon


def rulebook_rules(rulebook: Rulebook) -> RulebookRules:
    return RulebookRules.from_options(rulebook.options)


def game_rules(game: Game, rulebook: Rulebook | None = None) -> RulebookRules:
    """The rules a game is scored under: its season's rulebook (or ``rulebook``), with the game's
    own length when a night chose a number of hands."""
    rules = rulebook_rules(rulebook or game.season.rulebook)
    if game.hands_per_game:
        rules = dataclasses.replace(
            rules, game_length=GameLength.HANDS, hands_per_game=game.hands_per_game
        )
    return rules


def _signed_in(user):
    """The user to record as the author of a change, or ``None`` for a captain or a job."""
    return user if user is not None and user.is_authenticated else None


def _create_hand(
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
    """One hand row: the facts as entered and the points the engine derived from them."""
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
        dealer_seat=dealer_seat,
        rulebook=game.season.rulebook,
        outcome=score.outcome.value,
        points_a=score.points_a,
        points_b=score.points_b,
        client_key=client_key,
        source=source,
        entered_by=entered_by,
    )


def _stored_score(hand: Hand) -> HandScore:
    outcome = Outcome(hand.outcome)
    return HandScore(outcome, hand.points_a, hand.points_b, "")


def _lock_game(game_id: int) -> Game:
    """Lock the game row for the rest of the transaction (a no-op on SQLite, whose IMMEDIATE
    transactions already serialise writers)."""
    return (
        Game.objects.select_for_update(of=("self",))
        .select_related("season__rulebook", "seat_0", "seat_1", "seat_2", "seat_3")
        .get(pk=game_id)
    )


def _apply_state(game: Game, state: GameState) -> list[str]:
    """Copy the engine's game state onto the row; say what changed in the game's life."""
    effects = []
    was_finished = game.status == Game.Status.FINISHED
    old_winner = game.winner
    game.score_a, game.score_b, game.hands_played = state.score_a, state.score_b, state.hands_played
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
            if state.hands_played or game.hands.exists()
            else (Game.Status.SCHEDULED)
        )
        game.winner = ""
        game.finished_at = None
        if was_finished:
            game.confirmation = Game.Confirmation.PENDING
            game.dispute_reason = ""
            effects.append("reopened")
    game.save(
        update_fields=[
            "score_a",
            "score_b",
            "hands_played",
            "status",
            "winner",
            "finished_at",
            "confirmation",
            "dispute_reason",
            "updated_at",
        ]
    )
    return effects


RESULT_CHANGES = ("finished", "winner_changed", "reopened")
"""Effects that change a game's final result: ``game_finished`` is sent for each of them."""


def _results_changed(game: Game, effects: Iterable[str]) -> None:
    """Mark the season's results newer; after commit, recompute standings and announce a change of
    the game's final result (it ended, its winner changed, or it was reopened by an undo).

    The callbacks are robust: the hand is committed whatever they do, and a lost one is made good
    by the periodic sweeps (standings) and the receivers' own reconciliation (brackets)."""
    Season.objects.filter(pk=game.season_id).update(results_version=F("results_version") + 1)
    season_id, game_id = game.season_id, game.pk
    transaction.on_commit(lambda: enqueue_standings(season_id), robust=True)
    for change in RESULT_CHANGES:
        if change in effects:
            transaction.on_commit(
                lambda change=change: game_finished.send(
                    sender=Game, game_id=game_id, change=change
                ),
                robust=True,
            )


def enqueue_standings(season_id: int) -> None:
    """Ask a worker to recompute a season's standings (coalesced; see scoring.standings)."""
    standings_recompute_soon(season_id)
