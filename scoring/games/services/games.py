"""A game's life beyond its hands: create it at a table, record it by its final score alone,
confirm or dispute the final score, settle a dispute, reissue its captain link, call it off.
"""

from __future__ import annotations

from django.db import transaction

from core.errors import ConflictError, DomainError
from league.audit import SYSTEM, actor_of, audit_record, game_picture
from league.models import Player, Season, Team
from scoring.games import jobs
from scoring.games.domain.engine import GameState, final_score_check
from scoring.games.domain.hand_input import HandInput
from scoring.games.locks import game_lock
from scoring.games.models import Game, Hand, new_captain_token
from scoring.games.services.game_state import (
    apply_state,
    game_rules,
    result_change_record,
    results_changed,
)
from scoring.games.services.hands import hand_correct


def game_create(**details) -> Game:
    """A new game at a table, stored (:func:`game_new` says what ``details`` are). A game that
    counts for the standings is one more game still to play: after commit, the season's playoff
    race is asked for again (coalesced; ``scoring.standings.services.race_games`` says how it knows
    it is due)."""
    game = game_new(**details)
    game.save(force_insert=True)
    if game.counts_for_standings:
        season_id = game.season_id
        transaction.on_commit(lambda: jobs.race_compute_soon(season_id), robust=True)
    return game


def game_new(
    *,
    season: Season,
    seats: tuple[Player, Player, Player, Player],
    team_a: Team | None = None,
    team_b: Team | None = None,
    night=None,
    round_number: int | None = None,
    table_number: int | None = None,
    first_dealer_seat: int = 0,
    hands_per_game: int | None = None,
    counts_for_standings: bool = True,
) -> Game:
    """A new game at a table, checked and not yet stored (:func:`game_create` stores one; a
    bracket stores those of an advance together). Seats are clockwise; seats 0 and 2 are side
    A. ``hands_per_game`` makes it a game of that many hands whatever the rulebook's length (a
    night's choice)."""
    if len({player.pk for player in seats}) != 4:
        raise DomainError("a game needs four different players", field="seats")
    if any(player.league_id != season.league_id for player in seats):
        raise DomainError("every player must be on this league's roster", field="seats")
    if not 0 <= first_dealer_seat <= 3:
        raise DomainError("the first dealer's seat is 0 to 3", field="first_dealer_seat")
    if hands_per_game is not None and not 1 <= hands_per_game <= 100:
        raise DomainError("hands per game must be between 1 and 100", field="hands_per_game")
    for team, pair, name in (
        (team_a, (seats[0], seats[2]), "team_a"),
        (team_b, (seats[1], seats[3]), "team_b"),
    ):
        if team is None:
            continue
        if team.season_id != season.pk:
            raise DomainError(f"{team} is not a team of this season", field=name)
        if set(team.player_ids) != {pair[0].pk, pair[1].pk}:
            raise DomainError(f"{team}'s players must sit on its side of the table", field=name)
    return Game(
        season=season,
        night=night,
        round_number=round_number,
        table_number=table_number,
        team_a=team_a,
        team_b=team_b,
        seat_0=seats[0],
        seat_1=seats[1],
        seat_2=seats[2],
        seat_3=seats[3],
        first_dealer_seat=first_dealer_seat,
        hands_per_game=hands_per_game,
        counts_for_standings=counts_for_standings,
    )


def game_record_final_score(*, game: Game, score_a: int, score_b: int, user=None) -> Game:
    """Record a game by its final score alone, for leagues that keep no hand detail."""
    with transaction.atomic():
        game = game_lock(game.pk)
        if game.hands.exists():
            raise ConflictError(
                "this game already has hands; its score comes from them", code="has_hands"
            )
        if game.status == Game.Status.FINISHED:
            raise ConflictError("this game already has a final score", code="game_over")
        winner = final_score_check(game_rules(game), score_a, score_b)
        before = game_picture(game)
        game.is_final_score_only = True
        game.save(update_fields=["is_final_score_only"])
        effects = apply_state(
            game,
            GameState(score_a, score_b, 0, is_over=True, winner=winner),
        )
        results_changed(game, effects)
        audit_record(
            league=game.season.league_id,
            actor=actor_of(user),
            action="game.final-score",
            target=game,
            before=before,
            after=game_picture(game),
        )
        return game


def game_confirm(*, game: Game, user=None) -> Game:
    """The other side confirms the final score of a finished game (one tap at the table). A
    disputed score is an organiser's to settle (:func:`game_settle_dispute`, with a reason): a
    tap on the table's link, which either side holds, never wipes the dispute out."""
    with transaction.atomic():
        game = game_lock(game.pk)
        if game.status != Game.Status.FINISHED:
            raise ConflictError("only a finished game's score can be confirmed", code="not_over")
        if game.confirmation == Game.Confirmation.CONFIRMED:
            return game  # a double tap confirms once
        if game.confirmation == Game.Confirmation.DISPUTED:
            raise ConflictError(
                "this score is disputed: an organiser will settle it", code="disputed"
            )
        game.confirmation = Game.Confirmation.CONFIRMED
        game.dispute_reason = ""
        game.save(update_fields=["confirmation", "dispute_reason", "updated_at"])
        return game


def game_dispute(*, game: Game, reason: str, user=None) -> Game:
    """The other side disputes the final score, with a short reason, for an organiser to settle."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise DomainError("say briefly what is wrong with the score", field="reason")
    if len(reason) > 500:
        raise DomainError("keep the reason under 500 characters", field="reason")
    with transaction.atomic():
        game = game_lock(game.pk)
        if game.status != Game.Status.FINISHED:
            raise ConflictError("only a finished game's score can be disputed", code="not_over")
        if game.confirmation == Game.Confirmation.CONFIRMED:
            raise ConflictError(
                "this score was already confirmed; ask an organiser", code="confirmed"
            )
        game.confirmation = Game.Confirmation.DISPUTED
        game.dispute_reason = reason
        game.save(update_fields=["confirmation", "dispute_reason", "updated_at"])
        return game


def game_reissue_captain_token(*, game: Game, user=None) -> Game:
    """Revoke a game's captain link and QR code and issue new ones (the old link stops working)."""
    with transaction.atomic():
        game = game_lock(game.pk)
        game.captain_token = new_captain_token()
        game.save(update_fields=["captain_token", "updated_at"])
        return game


def game_settle_dispute(
    *,
    game: Game,
    user,
    decision: str,
    reason: str,
    number: int | None = None,
    data: HandInput | None = None,
) -> Game:
    """An organiser settles a disputed (or unconfirmed) finished game: ``confirm`` the score as
    recorded, or ``correct`` hand ``number`` with ``data`` (through :func:`hand_correct`, which
    keeps the old hand). Either way the reason goes on the audit trail; a game the correction
    leaves finished is then confirmed, one it reopens goes back to its table."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise DomainError("say why the dispute is settled this way", field="reason")
    if decision not in ("confirm", "correct"):
        raise DomainError("the decision is confirm or correct", field="decision")
    with transaction.atomic():
        game = game_lock(game.pk)
        if game.status != Game.Status.FINISHED:
            raise ConflictError("only a finished game can be settled", code="not_over")
        if game.confirmation == Game.Confirmation.CONFIRMED:
            raise ConflictError("this game's score is already confirmed", code="confirmed")
        before = game_picture(game)
        if decision == "correct":
            if number is None or data is None:
                raise DomainError("say which hand is corrected, and how", field="number")
            if game.is_final_score_only:
                raise DomainError("this game has no hands to correct", field="number")
            game = hand_correct(
                game=game,
                number=number,
                data=data,
                reason=reason,
                user=user,
                source=Hand.Source.ORGANISER,
            ).game
        if game.status == Game.Status.FINISHED:
            game.confirmation = Game.Confirmation.CONFIRMED
            game.dispute_reason = ""
            game.save(update_fields=["confirmation", "dispute_reason", "updated_at"])
        audit_record(
            league=game.season.league_id,
            actor=actor_of(user, default=SYSTEM),
            action=f"game.settle-{decision}",
            target=game,
            before=before,
            after=game_picture(game),
            reason=reason,
        )
        return game


def game_void(*, game: Game, reason: str, user=None) -> Game:
    """Call off a game that will not be played (or not be counted): e.g. a bracket match whose
    teams changed after a correction. Its hands are kept as they were; its captain link stops
    working; it no longer counts anywhere. A finished game cannot be voided."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise DomainError("say why the game is called off", field="reason")
    with transaction.atomic():
        game = game_lock(game.pk)
        if game.status == Game.Status.VOIDED:
            return game
        if game.status == Game.Status.FINISHED:
            raise ConflictError("a finished game cannot be called off", code="game_over")
        game.status = Game.Status.VOIDED
        game.void_reason = reason[:300]
        game.captain_token = new_captain_token()
        game.save(update_fields=["status", "void_reason", "captain_token", "updated_at"])
        result_change_record(game)
        return game
