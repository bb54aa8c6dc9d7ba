"""The euchre scoring engine: a rulebook and a hand's facts in, points out.

Words used here (the rulebook module defines the scoring words):

- *side*: ``A`` or ``B``. Seats are numbered 0–3 clockwise; seats 0 and 2 are side A, seats 1
  and 3 are side B, so partners sit opposite.
- *hand facts*: what a captain enters: which side were the makers, whether the caller or a
  defender went alone, how many tricks the makers took, which side reneged, or that the hand was
  thrown in (all passed twice) or misdealt (redeal, no score).
- *outcome*: the name of what happened (march, euchre of a lone caller, …), from which the points
  follow.
- *game state*: the running score of a game, whether it is over and who won.
- *time called*: a fact of the hand during which a timed game's clock ran out (the rulebook's
  time limit): that hand was finished and is the game's last, unless the score is level and the
  rulebook plays on, when the next hand that breaks the tie ends the game. The clock itself is
  kept elsewhere; the engine only reads the captain's "time was called" on a hand.

The engine is pure: it never touches a database. Every rule it enforces raises a
:class:`~core.errors.DomainError` whose message a captain can act on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum

from core.errors import DomainError
from league.domain.rules import DefenderAlone, GameLength, RenegePenalty, Rulebook, TieAtTime


class Side(StrEnum):
    A = "A"
    B = "B"

    @property
    def other(self) -> Side:
        return Side.B if self is Side.A else Side.A


def side_of_seat(seat: int) -> Side:
    """Seats 0 and 2 are side A, seats 1 and 3 side B."""
    return Side.A if seat % 2 == 0 else Side.B


class Outcome(StrEnum):
    MAKE = "make"
    MARCH = "march"
    LONE_MAKE = "lone_make"
    LONE_MARCH = "lone_march"
    EUCHRE = "euchre"
    LONE_CALLER_EUCHRED = "lone_caller_euchred"
    LONE_DEFENDER_EUCHRE = "lone_defender_euchre"
    RENEGE = "renege"
    THROWN_IN = "thrown_in"
    MISDEAL = "misdeal"


TRICKS_PER_HAND = 5
TRICKS_TO_MAKE = 3


@dataclass(frozen=True)
class HandFacts:
    """What happened in one deal, as the captain reports it.

    ``caller_seat``, ``dealer_seat`` and ``ordered_up`` are optional: when known, the engine checks
    the seat rules (the caller sits on the makers' side; the dealer's partner who orders up must go
    alone, where the rulebook says so).
    """

    makers: Side | None = None
    caller_alone: bool = False
    defender_alone: bool = False
    tricks_won: int | None = None
    renege: Side | None = None
    thrown_in: bool = False
    misdeal: bool = False
    caller_seat: int | None = None
    dealer_seat: int | None = None
    ordered_up: bool | None = None
    time_called: bool = False


@dataclass(frozen=True)
class HandScore:
    outcome: Outcome
    points_a: int
    points_b: int
    summary: str
    time_called: bool = False
    """Time was called during this hand (it is the last, unless level and playing on)."""

    @property
    def is_scored(self) -> bool:
        """Whether the hand was played and counts toward the game (not thrown in, not redealt)."""
        return self.outcome not in (Outcome.THROWN_IN, Outcome.MISDEAL)


_OUTCOME_WORDS = {
    Outcome.MAKE: "Made it",
    Outcome.MARCH: "March!",
    Outcome.LONE_MAKE: "Loner made",
    Outcome.LONE_MARCH: "Loner marched!",
    Outcome.EUCHRE: "Euchred",
    Outcome.LONE_CALLER_EUCHRED: "Euchred a loner",
    Outcome.LONE_DEFENDER_EUCHRE: "Euchred by a lone defender",
    Outcome.RENEGE: "Renege",
}


def hand_summary(outcome: Outcome, points_a: int, points_b: int) -> str:
    """The hand in words, as a captain reads it: "March! A +2", "Euchred a loner: B +4"."""
    if outcome is Outcome.THROWN_IN:
        return "Thrown in: no score, the deal passes"
    if outcome is Outcome.MISDEAL:
        return "Misdeal: redeal, no score"
    parts = [f"{side} {points:+d}" for side, points in (("A", points_a), ("B", points_b)) if points]
    words = _OUTCOME_WORDS[outcome]
    separator = " " if words.endswith("!") else ": "
    return f"{words}{separator}{', '.join(parts) if parts else 'no score'}"


def _check_seats(rulebook: Rulebook, facts: HandFacts) -> None:
    for name in ("caller_seat", "dealer_seat"):
        seat = getattr(facts, name)
        if seat is not None and seat not in range(4):
            raise DomainError("seats are numbered 0 to 3", field=name)
    if facts.caller_seat is not None and side_of_seat(facts.caller_seat) != facts.makers:
        raise DomainError("the caller must sit on the makers' side", field="caller")
    if (
        rulebook.dealer_partner_must_go_alone
        and facts.ordered_up
        and facts.caller_seat is not None
        and facts.dealer_seat is not None
        and facts.caller_seat == (facts.dealer_seat + 2) % 4
        and not facts.caller_alone
    ):
        raise DomainError(
            "under this rulebook the dealer's partner who orders up must go alone",
            field="caller_alone",
        )


def score_hand(rulebook: Rulebook, facts: HandFacts) -> HandScore:
    """Points for each side from one hand's facts, or a :class:`DomainError` saying why not."""
    score = _score_points(rulebook, facts)
    if not facts.time_called:
        return score
    if not rulebook.is_timed:
        raise DomainError(
            "this rulebook has no time limit, so time cannot be called", field="time_called"
        )
    if facts.misdeal:
        raise DomainError(
            "a misdealt hand is dealt again: say time was called on the hand that is played",
            field="time_called",
        )
    return replace(score, time_called=True)


def _score_points(rulebook: Rulebook, facts: HandFacts) -> HandScore:
    if facts.misdeal or facts.thrown_in:
        if facts.misdeal and facts.thrown_in:
            raise DomainError("a hand is either thrown in or misdealt, not both", field="misdeal")
        if any((facts.makers, facts.caller_alone, facts.defender_alone, facts.renege)) or (
            facts.tricks_won is not None
        ):
            word = "misdealt" if facts.misdeal else "thrown-in"
            raise DomainError(
                f"a {word} hand has no makers, loners, tricks or renege", field="thrown_in"
            )
        if facts.thrown_in and rulebook.stick_the_dealer:
            raise DomainError(
                "a thrown-in hand is not allowed when stick the dealer is on: "
                "the dealer must name trump",
                field="thrown_in",
            )
        outcome = Outcome.MISDEAL if facts.misdeal else Outcome.THROWN_IN
        return HandScore(outcome, 0, 0, hand_summary(outcome, 0, 0))

    if facts.makers is None:
        raise DomainError("say which side made trump", field="makers")
    makers = Side(facts.makers)
    facts_makers = HandFacts(**{**facts.__dict__, "makers": makers})
    _check_seats(rulebook, facts_makers)

    if facts.defender_alone:
        if rulebook.defender_alone is DefenderAlone.NEVER:
            raise DomainError(
                "this rulebook does not allow a defender to go alone", field="defender_alone"
            )
        if rulebook.defender_alone is DefenderAlone.AGAINST_LONE_CALLER and not facts.caller_alone:
            raise DomainError(
                "under this rulebook a defender may go alone only against a lone caller",
                field="defender_alone",
            )

    if facts.renege is not None:
        return _score_renege(rulebook, facts, Side(facts.renege))

    if facts.tricks_won is None:
        raise DomainError("say how many tricks the makers took", field="tricks_won")
    if isinstance(facts.tricks_won, bool) or not isinstance(facts.tricks_won, int):
        raise DomainError("tricks must be a whole number from 0 to 5", field="tricks_won")
    if facts.tricks_won < 0:
        raise DomainError("tricks cannot be negative", field="tricks_won")
    if facts.tricks_won > TRICKS_PER_HAND:
        raise DomainError("5 tricks is the most a side can take", field="tricks_won")

    if facts.tricks_won >= TRICKS_TO_MAKE:
        march = facts.tricks_won == TRICKS_PER_HAND
        if facts.caller_alone:
            outcome = Outcome.LONE_MARCH if march else Outcome.LONE_MAKE
            points = rulebook.lone_march_points if march else rulebook.lone_make_points
        else:
            outcome = Outcome.MARCH if march else Outcome.MAKE
            points = rulebook.march_points if march else rulebook.make_points
        scorer = makers
    else:
        if facts.defender_alone:
            # The lone defender's euchre is their own feat, so it takes precedence when the caller
            # was alone too (in CSL both are 4).
            outcome, points = Outcome.LONE_DEFENDER_EUCHRE, rulebook.lone_defender_euchre_points
        elif facts.caller_alone:
            outcome, points = Outcome.LONE_CALLER_EUCHRED, rulebook.lone_caller_euchred_points
        else:
            outcome, points = Outcome.EUCHRE, rulebook.euchre_points
        scorer = makers.other
    points_a, points_b = (points, 0) if scorer is Side.A else (0, points)
    return HandScore(outcome, points_a, points_b, hand_summary(outcome, points_a, points_b))


def _score_renege(rulebook: Rulebook, facts: HandFacts, guilty: Side) -> HandScore:
    played_alone = facts.caller_alone or facts.defender_alone
    penalty = rulebook.renege_points_alone if played_alone else rulebook.renege_points
    if rulebook.renege_penalty is RenegePenalty.HAND_ENDS:
        if facts.tricks_won is not None:
            raise DomainError(
                "under this rulebook the hand ends at a renege: leave tricks empty",
                field="tricks_won",
            )
    elif facts.tricks_won is not None and not 0 <= facts.tricks_won <= TRICKS_PER_HAND:
        raise DomainError("tricks must be a whole number from 0 to 5", field="tricks_won")
    if rulebook.renege_penalty is RenegePenalty.DEDUCT_GUILTY:
        points_a, points_b = (-penalty, 0) if guilty is Side.A else (0, -penalty)
    else:
        points_a, points_b = (0, penalty) if guilty is Side.A else (penalty, 0)
    return HandScore(
        Outcome.RENEGE, points_a, points_b, hand_summary(Outcome.RENEGE, points_a, points_b)
    )


class TimeResult(StrEnum):
    """A timed game's result once time is called (:attr:`GameState.time_result`)."""

    WON = "won"
    """Over at time: the higher score won."""
    DRAW = "draw"
    """Over at time, level: a draw (the rulebook says so)."""
    PLAYING_ON = "playing_on"
    """Level at time and playing on: the next hand that breaks the tie ends the game."""


@dataclass(frozen=True)
class GameState:
    score_a: int
    score_b: int
    hands_played: int
    is_over: bool
    winner: Side | None
    """The winning side once the game is over; ``None`` while it runs, or for a drawn game."""
    time_called: bool = False
    """Time was called on one of the game's hands (once at most)."""

    @property
    def time_result(self) -> TimeResult | None:
        """What time called made of the game (``None`` when time was not called)."""
        if not self.time_called:
            return None
        if not self.is_over:
            return TimeResult.PLAYING_ON
        return TimeResult.DRAW if self.winner is None else TimeResult.WON

    @property
    def summary(self) -> str:
        if self.time_result is TimeResult.PLAYING_ON:
            return f"Tied at time {self.score_a}–{self.score_b}: the next hand decides"
        if not self.is_over:
            return f"A {self.score_a} – B {self.score_b} after {self.hands_played} hands"
        at_time = "Time called: " if self.time_called else ""
        if self.winner is None:
            return f"{at_time}Drawn {self.score_a}–{self.score_b}"
        high, low = max(self.score_a, self.score_b), min(self.score_a, self.score_b)
        return f"{at_time}Side {self.winner} wins {high}–{low}"


GAME_START = GameState(0, 0, 0, is_over=False, winner=None)
"""The state of a game before its first hand (a game over before any hand is not a game)."""


def game_state(rulebook: Rulebook, hands: Iterable[HandScore]) -> GameState:
    """The running score of a game from its hands in order, and whether (and by whom) it is won.

    A game to a target ends at the first hand that takes a side to the target; a game of a fixed
    number of hands ends after that many scored hands (thrown-in and misdealt hands do not count).
    A timed game also ends at the hand time was called on (the higher score wins); level there,
    it is a draw or plays on until a hand breaks the tie, as the rulebook's ``tie_at_time`` says.
    Whichever end comes first counts: a game of N hands level after its last hand is a draw.
    """
    state = GAME_START
    for hand in hands:
        state = game_state_after(rulebook, state, hand)
    return state


def game_state_after(rulebook: Rulebook, state: GameState, hand: HandScore) -> GameState:
    """One step of :func:`game_state`: the state after ``hand`` is played from ``state``.

    Folding it over a game's hands from :data:`GAME_START` is :func:`game_state`, so a write can
    keep the running state and add only the new hand. A hand after the game is over is refused.
    """
    if state.is_over or _is_over(rulebook, state.score_a, state.score_b, state.hands_played):
        raise DomainError("the game was already over", code="game_over")
    if hand.time_called and state.time_called:
        raise DomainError(
            "time was already called in this game; the next hand that breaks the tie ends it",
            field="time_called",
            code="time_already_called",
        )
    score_a = state.score_a + hand.points_a
    score_b = state.score_b + hand.points_b
    hands_played = state.hands_played + hand.is_scored
    time_called = state.time_called or hand.time_called
    is_over = _is_over(rulebook, score_a, score_b, hands_played) or (
        time_called and (score_a != score_b or rulebook.tie_at_time is TieAtTime.DRAW)
    )
    winner = None
    if is_over and score_a != score_b:
        winner = Side.A if score_a > score_b else Side.B
    return GameState(score_a, score_b, hands_played, is_over, winner, time_called)


def _is_over(rulebook: Rulebook, score_a: int, score_b: int, hands_played: int) -> bool:
    if rulebook.game_length is GameLength.HANDS:
        return hands_played >= rulebook.hands_per_game
    if rulebook.game_length is GameLength.TIME:
        return False  # only time called ends it
    return max(score_a, score_b) >= rulebook.target_score


def next_dealer(dealer_seat: int, last_hand: HandScore | None = None) -> int:
    """The seat that deals next: the deal passes clockwise, except after a misdeal (same dealer)."""
    if last_hand is not None and last_hand.outcome is Outcome.MISDEAL:
        return dealer_seat
    return (dealer_seat + 1) % 4


def final_score_check(rulebook: Rulebook, score_a: int, score_b: int) -> Side | None:
    """Check a game recorded by its final score alone and return the winner (``None``: a draw).

    Leagues that keep no hand detail enter only the final score; it must be a score the rulebook
    can end a game on. Under a time limit a game may end below the target (time was called), and
    level only where the rulebook lets a game be drawn.
    """
    for name, score in (("score_a", score_a), ("score_b", score_b)):
        if isinstance(score, bool) or not isinstance(score, int) or score < 0:
            raise DomainError("a final score is a whole number of points, 0 or more", field=name)
    reached = max(score_a, score_b) >= rulebook.target_score
    if rulebook.game_length is GameLength.TARGET and (reached or not rulebook.is_timed):
        if not reached:
            raise DomainError(
                f"a finished game needs one side on {rulebook.target_score} or more",
                field="score_a",
            )
        # The last hand is worth at most the largest award, so the loser stayed below the target
        # and the winner overshot by less than that award.
        top = max(
            rulebook.make_points,
            rulebook.lone_make_points,
            rulebook.march_points,
            rulebook.lone_march_points,
            rulebook.euchre_points,
            rulebook.lone_caller_euchred_points,
            rulebook.lone_defender_euchre_points,
            rulebook.renege_points,
            rulebook.renege_points_alone,
        )
        if min(score_a, score_b) >= rulebook.target_score:
            raise DomainError("only one side can reach the target score", field="score_b")
        if max(score_a, score_b) >= rulebook.target_score + top:
            raise DomainError(
                f"no single hand takes a side from below {rulebook.target_score} to "
                f"{max(score_a, score_b)}",
                field="score_a",
            )
    if score_a == score_b:
        if rulebook.is_timed and not rulebook.draws_possible:
            raise DomainError(
                "under this rulebook a game level at time plays on until a hand breaks the tie, "
                "so a final score cannot be level",
                field="score_b",
            )
        return None
    return Side.A if score_a > score_b else Side.B
