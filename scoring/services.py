"""Services that write games and hands. They own the transactions; nothing else writes these rows.

Every write follows the same pattern: lock the game row, read its counting hands, ask the scoring
engine, write facts and derived points together, raise the season's ``results_version`` with
``F()``, and after commit enqueue the standings recompute (and send ``game_finished`` when the game
ended). Uniqueness lives in the database (one counting hand number per game, one client key per
hand), so two captains at one table or a phone that retries can never record a hand twice.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from league.audit import SYSTEM, actor_of, audit_record, game_picture, hand_picture
from league.domain.rules import GameLength
from league.domain.rules import Rulebook as RulebookRules
from league.errors import ConflictError, DomainError
from league.models import Player, Rulebook, Season, Team
from scoring.domain.engine import (
    GameState,
    HandFacts,
    HandScore,
    Outcome,
    Side,
    final_score_check,
    game_state,
    hand_summary,
    score_hand,
)
from scoring.models import Game, Hand
from scoring.selectors import game_counting_hands, game_next_dealer_seat
from scoring.signals import game_finished

logger = logging.getLogger(__name__)

FACT_FIELDS = (
    "makers",
    "caller_id",
    "caller_alone",
    "defender_alone",
    "tricks_won",
    "renege",
    "thrown_in",
    "misdeal",
    "ordered_up",
)


@dataclass(frozen=True)
class HandInput:
    """A hand's facts as a client submits them (player ids, sides as "A"/"B")."""

    makers: str | None = None
    caller_id: int | None = None
    caller_alone: bool = False
    defender_alone: bool = False
    tricks_won: int | None = None
    renege: str | None = None
    thrown_in: bool = False
    misdeal: bool = False
    ordered_up: bool | None = None

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> HandInput:
        caller = data.get("caller")
        return cls(
            makers=data.get("makers") or None,
            caller_id=getattr(caller, "pk", caller),
            caller_alone=bool(data.get("caller_alone", False)),
            defender_alone=bool(data.get("defender_alone", False)),
            tricks_won=data.get("tricks_won"),
            renege=data.get("renege") or None,
            thrown_in=bool(data.get("thrown_in", False)),
            misdeal=bool(data.get("misdeal", False)),
            ordered_up=data.get("ordered_up"),
        )

    def matches(self, hand: Hand) -> bool:
        """Whether a stored hand has exactly these facts (an idempotent replay)."""
        return self == hand_input_of(hand)


def hand_input_of(hand: Hand) -> HandInput:
    return HandInput(
        makers=hand.makers or None,
        caller_id=hand.caller_id,
        caller_alone=hand.caller_alone,
        defender_alone=hand.defender_alone,
        tricks_won=hand.tricks_won,
        renege=hand.renege or None,
        thrown_in=hand.thrown_in,
        misdeal=hand.misdeal,
        ordered_up=hand.ordered_up,
    )


@dataclass
class HandResult:
    hand: Hand
    game: Game
    created: bool
    summary: str
    effects: list[str] = field(default_factory=list)


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


def engine_facts_without_table(data: HandInput) -> HandFacts:
    """The engine's facts for a hand scored away from any table (a rules preview)."""
    return _engine_facts(None, data, None)


def _engine_facts(game: Game | None, data: HandInput, dealer_seat: int | None) -> HandFacts:
    caller_seat = None
    if data.caller_id is not None and game is not None:
        if data.caller_id not in game.seat_player_ids:
            raise DomainError(
                "the caller must be one of the four players at this table", field="caller"
            )
        caller_seat = game.seat_player_ids.index(data.caller_id)
    for name in ("makers", "renege"):
        value = getattr(data, name)
        if value is not None and value not in ("A", "B"):
            raise DomainError(f"{name} must be side A or side B", field=name)
    return HandFacts(
        makers=Side(data.makers) if data.makers else None,
        caller_alone=data.caller_alone,
        defender_alone=data.defender_alone,
        tricks_won=data.tricks_won,
        renege=Side(data.renege) if data.renege else None,
        thrown_in=data.thrown_in,
        misdeal=data.misdeal,
        ordered_up=data.ordered_up,
        caller_seat=caller_seat,
        dealer_seat=dealer_seat,
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
    from scoring.standings import standings_recompute_soon

    standings_recompute_soon(season_id)


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
    """
    if client_key is not None and not 1 <= len(client_key) <= 100:
        raise DomainError("the submission key must be 1 to 100 characters", field="client_key")
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
            f"hand {expected_number or current.hands.filter(status='active').count()} was "
            f"already entered; the score is A {current.score_a} – B {current.score_b}",
            code="hand_exists",
        ) from None


def _hand_record(game, data, client_key, expected_number, source, user) -> HandResult:
    game = _lock_game(game.pk)
    if client_key:
        existing = Hand.objects.filter(client_key=client_key).first()
        if existing is not None:
            return _replay(existing, game, data)
    if game.is_final_score_only:
        raise ConflictError("this game was recorded by its final score alone", code="game_over")
    hands = game_counting_hands(game=game)
    number = len(hands) + 1
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
    dealer_seat = game_next_dealer_seat(game=game, hands=hands)
    score = score_hand(rules, _engine_facts(game, data, dealer_seat))
    state = game_state(rules, [*map(_stored_score, hands), score])
    hand = _create_hand(
        game,
        number,
        data,
        score,
        dealer_seat=dealer_seat,
        source=source,
        entered_by=_signed_in(user),
        client_key=client_key or None,
    )
    effects = _apply_state(game, state)
    _results_changed(game, effects)
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
        effects = _apply_state(game, game_state(rules, map(_stored_score, hands[:-1])))
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
        effects = _apply_state(game, state)
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


def game_create(
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
    """A new game at a table. Seats are clockwise; seats 0 and 2 are side A. ``hands_per_game``
    makes it a game of that many hands whatever the rulebook's length (a night's choice)."""
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
    return Game.objects.create(
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
        game = _lock_game(game.pk)
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
        effects = _apply_state(
            game,
            GameState(score_a, score_b, 0, is_over=True, winner=winner),
        )
        _results_changed(game, effects)
        audit_record(
            league=game.season.league_id,
            actor=actor_of(user),
            action="game.final-score",
            target=game,
            before=before,
            after=game_picture(game),
        )
        return game


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
            game = _lock_game(game_id)
            rules = game_rules(game, season.rulebook)
            hands = list(game.hands.order_by("number", "created_at"))
            for hand in hands:
                if hand.rulebook_id == season.rulebook_id:
                    continue
                facts = _engine_facts(game, hand_input_of(hand), hand.dealer_seat)
                try:
                    score = score_hand(rules, facts)
                except DomainError as error:
                    # Undone or replaced hands need not be legal under the new rules, and a hand
                    # entered while the rules changed was legal when it was played: either way it
                    # keeps the points it was given, and the re-derivation moves on.
                    logger.warning("hand %s kept its points under new rules: %s", hand.pk, error)
                    score = _stored_score(hand)
                hand.outcome, hand.points_a, hand.points_b = (
                    score.outcome.value,
                    score.points_a,
                    score.points_b,
                )
                hand.rulebook_id = season.rulebook_id
                hand.save(update_fields=["outcome", "points_a", "points_b", "rulebook"])
                refreshed += 1
            counting = [_stored_score(hand) for hand in hands if hand.status == Hand.Status.ACTIVE]
            state = _lenient_state(
                rules, counting, was_finished=game.status == Game.Status.FINISHED
            )
            effects = _apply_state(game, state)
            _results_changed(game, effects)
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
    return GameState(score_a, score_b, hands_played, is_over=True, winner=winner)


def season_change_rules(*, season: Season, options: dict[str, Any], user=None) -> Rulebook:
    """Change a season's rules: a new rulebook version, never an edit in place. Every hand of the
    season is then re-derived under it by a Celery job (enqueued after commit).

    Refused, with nothing written, when a hand already recorded is impossible under the new rules
    (a thrown-in hand when stick the dealer is turned on, a lone defender no longer allowed).
    """
    from scoring.enqueue import enqueue_safely
    from scoring.tasks import rederive_season_points

    current = season.rulebook
    rules = RulebookRules.from_options({**current.options, **options})
    if rules == rulebook_rules(current):
        raise DomainError("these are already the season's rules", field="options")
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        if locked.rulebook_id != current.pk:
            raise ConflictError("the season's rules were changed meanwhile; reload and retry")
        hands = Hand.objects.filter(game__season=season, status=Hand.Status.ACTIVE)
        for hand in hands.select_related("game").iterator(chunk_size=2000):
            try:
                score_hand(rules, _engine_facts(hand.game, hand_input_of(hand), hand.dealer_seat))
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
            created_by=_signed_in(user),
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
        transaction.on_commit(lambda: enqueue_safely(rederive_season_points, season_id))
    season.refresh_from_db()
    return new


def game_confirm(*, game: Game, user=None) -> Game:
    """The other side confirms the final score of a finished game (one tap at the table)."""
    with transaction.atomic():
        game = _lock_game(game.pk)
        if game.status != Game.Status.FINISHED:
            raise ConflictError("only a finished game's score can be confirmed", code="not_over")
        if game.confirmation == Game.Confirmation.CONFIRMED:
            return game  # a double tap confirms once
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
        game = _lock_game(game.pk)
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
    from scoring.models import new_captain_token

    with transaction.atomic():
        game = _lock_game(game.pk)
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
        game = _lock_game(game.pk)
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
    from scoring.models import new_captain_token

    reason = " ".join((reason or "").split())
    if not reason:
        raise DomainError("say why the game is called off", field="reason")
    with transaction.atomic():
        game = _lock_game(game.pk)
        if game.status == Game.Status.VOIDED:
            return game
        if game.status == Game.Status.FINISHED:
            raise ConflictError("a finished game cannot be called off", code="game_over")
        game.status = Game.Status.VOIDED
        game.void_reason = reason[:300]
        game.captain_token = new_captain_token()
        game.save(update_fields=["status", "void_reason", "captain_token", "updated_at"])
        Season.objects.filter(pk=game.season_id).update(results_version=F("results_version") + 1)
        return game
