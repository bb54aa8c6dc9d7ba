"""A season's rulebook changes: a new rulebook version (never an edit in place), then every hand
of the season re-derived under it by a background job, game by game (idempotent).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models import F

from core.errors import ConflictError, DomainError
from league.audit import SYSTEM, actor_of, audit_record
from league.domain.rules import Rulebook as RulebookRules
from league.locks import season_row_lock
from league.models import Rulebook, Season
from scoring.games import jobs
from scoring.games.domain.engine import GameState, HandScore, Side, game_state, score_hand
from scoring.games.locks import game_lock
from scoring.games.models import Game, Hand
from scoring.games.services.game_state import (
    apply_state,
    game_rules,
    replay_running,
    results_changed,
    rulebook_rules,
    signed_in,
    stored_score,
)
from scoring.games.services.hand_facts import engine_facts, hand_input_of

logger = logging.getLogger(__name__)


def season_rederive_points(*, season_id: int) -> int:
    """Re-derive the points of every hand of a season under its current rulebook.

    Idempotent: only hands derived under another rulebook version are touched, so a second run
    (or a retry after a worker died mid-way) finds nothing left to do. Each game is its own
    transaction. A finished game stays finished (the hands were really played), with its winner
    taken from the new totals; a game in progress may end under the new rules. Returns the number
    of hands whose derivation was refreshed.
    """
    season = Season.objects.select_related("rulebook").get(pk=season_id)
    stale_games = (
        Hand.objects.filter(game__season_id=season_id)
        .exclude(rulebook_id=season.rulebook_id)
        .values_list("game_id", flat=True)
        .distinct()
    )
    refreshed = 0
    for game_id in sorted(set(stale_games)):
        with transaction.atomic():
            game = game_lock(game_id)
            rules = game_rules(game, season.rulebook)
            hands = list(game.hands.order_by("number", "created_at"))
            for hand in hands:
                if hand.rulebook_id == season.rulebook_id:
                    continue
                facts = engine_facts(game, hand_input_of(hand), hand.dealer_seat)
                try:
                    score = score_hand(rules, facts)
                except DomainError as error:
                    # Undone or replaced hands need not be legal under the new rules, and a hand
                    # entered while the rules changed was legal when it was played: either way it
                    # keeps the points it was given, and the re-derivation moves on.
                    logger.warning("hand %s kept its points under new rules: %s", hand.pk, error)
                    score = stored_score(hand)
                hand.outcome, hand.points_a, hand.points_b = (
                    score.outcome.value,
                    score.points_a,
                    score.points_b,
                )
                hand.rulebook_id = season.rulebook_id
                hand.save(update_fields=["outcome", "points_a", "points_b", "rulebook"])
                refreshed += 1
            active = [hand for hand in hands if hand.status == Hand.Status.ACTIVE]
            counting = [stored_score(hand) for hand in active]
            replay_running(game, active)
            state = _lenient_state(
                rules, counting, was_finished=game.status == Game.Status.FINISHED
            )
            effects = apply_state(game, state)
            results_changed(game, effects)
    return refreshed


def _lenient_state(
    rules: RulebookRules, scores: list[HandScore], *, was_finished: bool
) -> GameState:
    try:
        state = game_state(rules, scores)
    except DomainError:
        state = None
    if state is not None and (state.is_over or not was_finished):
        return state
    score_a = sum(score.points_a for score in scores)
    score_b = sum(score.points_b for score in scores)
    winner = None if score_a == score_b else (Side.A if score_a > score_b else Side.B)
    hands_played = sum(score.is_scored for score in scores)
    time_called = any(score.time_called for score in scores)
    return GameState(score_a, score_b, hands_played, True, winner, time_called)


def season_change_rules(*, season: Season, options: dict[str, Any], user=None) -> Rulebook:
    """Change a season's rules: a new rulebook version, never an edit in place. Every hand of the
    season is then re-derived under it by a Celery job (enqueued after commit).

    Refused, with nothing written, when a hand already recorded is impossible under the new rules
    (a thrown-in hand when stick the dealer is turned on, a lone defender no longer allowed).
    """
    current = season.rulebook
    rules = RulebookRules.from_options({**current.options, **options})
    if rules == rulebook_rules(current):
        raise DomainError("these are already the season's rules", field="options")
    with transaction.atomic():
        locked = season_row_lock(season.pk)
        if locked.rulebook_id != current.pk:
            raise ConflictError("the season's rules were changed meanwhile; reload and retry")
        hands = Hand.objects.filter(game__season=season, status=Hand.Status.ACTIVE)
        for hand in hands.select_related("game").iterator(chunk_size=2000):
            try:
                score_hand(rules, engine_facts(hand.game, hand_input_of(hand), hand.dealer_seat))
            except DomainError as error:
                raise DomainError(
                    f"hand {hand.number} of game {hand.game_id} is not allowed under the new "
                    f"rules ({error.message}); correct it first",
                    field="options",
                ) from None
        latest_version = (
            Rulebook.objects.filter(league=season.league, name=current.name)
            .order_by("-version")
            .values_list("version", flat=True)
            .first()
        ) or current.version
        new = Rulebook.objects.create(
            league=season.league,
            name=current.name,
            preset=current.preset,
            options=rules.to_options(),
            version=latest_version + 1,
            previous=current,
            created_by=signed_in(user),
        )
        Season.objects.filter(pk=season.pk).update(
            rulebook=new, results_version=F("results_version") + 1
        )
        season_id = season.pk
        audit_record(
            league=season.league_id,
            actor=actor_of(user, default=SYSTEM),
            action="rulebook.change",
            target=season,
            before={"rulebook": current.pk, "version": current.version, "options": current.options},
            after={"rulebook": new.pk, "version": new.version, "options": new.options},
        )
        transaction.on_commit(lambda: jobs.send_points_rederive(season_id))
    season.refresh_from_db()
    return new
