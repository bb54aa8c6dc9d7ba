"""Reads for games and hands (services write; selectors read)."""

from scoring.domain.engine import HandScore, Outcome, next_dealer
from scoring.models import Game, Hand


def game_counting_hands(*, game: Game) -> list[Hand]:
    return list(game.hands.filter(status=Hand.Status.ACTIVE).order_by("number"))


def game_next_dealer_seat(*, game: Game, hands: list[Hand] | None = None) -> int | None:
    """The seat that deals the next hand, or ``None`` once the game is over."""
    if game.status == Game.Status.FINISHED:
        return None
    if hands is None:
        last = game.hands.filter(status=Hand.Status.ACTIVE).order_by("-number").first()
    else:
        last = hands[-1] if hands else None
    if last is None:
        return game.first_dealer_seat
    return next_dealer(last.dealer_seat, HandScore(Outcome(last.outcome), 0, 0, ""))
