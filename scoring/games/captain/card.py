"""What the captain's score card shows, as plain data for the templates (reads only).

Words used here:

- *score card*: the captain's page for one game: the running score per side, the hand being
  entered, who deals it, the rulebook's length of game, the hands so far, and the form for the
  next hand (or, once the game is over, the result to confirm or dispute).
- *side*: ``A`` (seats 0 and 2) or ``B`` (seats 1 and 3), shown with its team or player names.
- *client key*: a fresh random key rendered into each hand form; the service records a hand once
  per key, so a double tap or a browser retry never records it twice.
- *projection*: the score, the dealer and the end of the game as they will be once the hands
  waiting on the phone are sent. The page reads each waiting hand's points in the engine's
  lookup table (``card_rules``: :func:`scoring.games.domain.hand_table.hand_outcome_table` and the
  four seats), starting from the server's state the card carries (``data-*`` of ``#card``).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from itertools import accumulate

from core.links import link_by_pk
from league.domain.rules import DefenderAlone, GameLength, RenegePenalty
from scoring.games.domain.engine import Outcome, hand_summary, side_of_seat
from scoring.games.domain.hand_table import hand_outcome_table
from scoring.games.models import Game, Hand
from scoring.games.selectors import (
    game_card_hands,
    game_next_dealer_seat,
    hand_callers_and_dealers,
)
from scoring.games.services import game_rules


def new_client_key() -> str:
    return str(uuid.uuid4())


@dataclass(frozen=True)
class Seat:
    seat: int
    player_id: int
    name: str
    side: str


@dataclass(frozen=True)
class SideView:
    letter: str
    name: str
    score: int
    is_winner: bool


@dataclass(frozen=True)
class HandRow:
    number: int
    summary: str
    caller: str
    dealer: str
    score_a: int
    score_b: int
    correct_url: str
    time_called: bool = False


def card_context(
    game: Game,
    *,
    values: dict | None = None,
    flash: list[tuple[str, str]] | None = None,
    client_key: str | None = None,
) -> dict:
    """The template context of a game's score card.

    ``values`` re-fills the hand form after a refused submission (the captain's taps are kept);
    ``flash`` is a list of ``(kind, text)`` messages, kind ``"ok"`` or ``"error"``.
    """
    rules = game_rules(game)
    hands = game_card_hands(game=game)
    correct_url = link_by_pk("captain:hand-correct", game.captain_token)
    seats = [
        Seat(seat, player.pk, player.name, side_of_seat(seat).value)
        for seat, player in enumerate(game.seats)
    ]
    people = hand_callers_and_dealers(game=game, hands=hands)
    dealer_seat = game_next_dealer_seat(game=game, hands=hands)
    is_over = game.status == Game.Status.FINISHED
    running = list(accumulate(((h.points_a, h.points_b) for h in hands), _add, initial=(0, 0)))
    rows = [
        HandRow(
            number=hand.number,
            summary=hand_summary(Outcome(hand.outcome), hand.points_a, hand.points_b),
            caller=people[index][0],
            dealer=people[index][1],
            score_a=running[index + 1][0],
            score_b=running[index + 1][1],
            correct_url=correct_url(hand.number),
            time_called=hand.time_called,
        )
        for index, hand in enumerate(hands)
    ]
    rows.reverse()  # the latest hand first: it is the one a captain checks
    length = rules.length_words
    progress = ""
    if rules.game_length is GameLength.HANDS and not is_over:
        progress = f"{max(rules.hands_per_game - game.hands_played, 0)} to play"
    if game.time_called and not is_over:
        progress = f"tied at time {game.score_a}–{game.score_b}: the next hand decides"
    return {
        "game": game,
        "token": game.captain_token,
        "sides": [_side(game, "A"), _side(game, "B")],
        "seats": seats,
        "next_number": len(hands) + 1,
        "dealer": seats[dealer_seat].name if dealer_seat is not None else "",
        "dealer_seat": dealer_seat,
        "length": length,
        "progress": progress,
        "is_over": is_over,
        "is_final_score_only": game.is_final_score_only,
        "result": _result(game) if is_over else "",
        "rows": rows,
        "last_number": hands[-1].number if hands else None,
        "allows_lone_defender": rules.defender_alone is not DefenderAlone.NEVER,
        "lone_defender_only_against_loner": (
            rules.defender_alone is DefenderAlone.AGAINST_LONE_CALLER
        ),
        "allows_thrown_in": not rules.stick_the_dealer,
        "asks_ordered_up": rules.dealer_partner_must_go_alone,
        "allows_no_tricks": rules.renege_penalty is RenegePenalty.HAND_ENDS,
        "is_timed": rules.is_timed,
        "time_called": game.time_called,
        "tie_at_time": rules.tie_at_time_words,
        "values": values or {},
        "flash": flash or [],
        "client_key": client_key or new_client_key(),
        "tricks": range(6),
        "is_confirmed": game.confirmation == Game.Confirmation.CONFIRMED,
        "is_disputed": game.confirmation == Game.Confirmation.DISPUTED,
        "hands_played": game.hands_played,
        "card_rules": {
            "seats": [{"id": seat.player_id, "name": seat.name} for seat in seats],
            **hand_outcome_table(rules),
        },
    }


def _add(total: tuple[int, int], points: tuple[int, int]) -> tuple[int, int]:
    return (total[0] + points[0], total[1] + points[1])


def _side(game: Game, letter: str) -> SideView:
    return SideView(
        letter=letter,
        name=game.side_name(letter),
        score=game.score_a if letter == "A" else game.score_b,
        is_winner=game.winner == letter,
    )


def _result(game: Game) -> str:
    """The game's result in words. A side's name may be a team's ("Stick the Dealer") or two
    players' ("Alice & Carol"), so it is never used as a plural subject: "… won the game"."""
    high, low = max(game.score_a, game.score_b), min(game.score_a, game.score_b)
    if game.time_called:
        if not game.winner:
            return f"Time called: a draw, {high}–{low}"
        return f"Time called: {game.side_name(game.winner)} won, {high}–{low}"
    if not game.winner:
        return f"A draw, {high}–{low}"
    return f"{game.side_name(game.winner)} won the game, {high}–{low}"


def hand_label(hand: Hand) -> str:
    """A hand in words for a message: "Hand 5: March! A +2"."""
    return (
        f"Hand {hand.number}: {hand_summary(Outcome(hand.outcome), hand.points_a, hand.points_b)}"
    )
