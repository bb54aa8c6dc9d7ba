"""A hand's facts as a client submits them (``scoring.games.domain.hand_input.HandInput``), as the
engine reads them, and the answer every hand write gives (:class:`HandResult`).

- *facts*: what happened at the table (makers, caller, alone, tricks, renege, thrown in …), as
  opposed to the points the engine derives from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.errors import DomainError
from scoring.games.domain.engine import HandFacts, Side
from scoring.games.domain.hand_input import FACTS, HandInput
from scoring.games.models import Game, Hand

FACT_FIELDS = tuple("caller_id" if fact.name == "caller" else fact.name for fact in FACTS)
"""The attributes of a hand that hold its facts (:data:`~scoring.games.domain.hand_input.FACTS`),
in their order."""


def hand_facts_of(hand: Hand) -> dict[str, Any]:
    """A stored hand's facts by their names in :data:`~scoring.games.domain.hand_input.FACTS` (the
    caller by id)."""
    return {fact.name: getattr(hand, name) for fact, name in zip(FACTS, FACT_FIELDS, strict=True)}


def hand_picture(hand: Hand) -> dict[str, Any]:
    """A hand's facts and points, as the audit trail shows them."""
    return {
        "game": hand.game_id,
        "number": hand.number,
        **hand_facts_of(hand),
        "outcome": hand.outcome,
        "points_a": hand.points_a,
        "points_b": hand.points_b,
        "status": hand.status,
    }


def hand_input_of(hand: Hand) -> HandInput:
    """The facts of a stored hand, as a client would have submitted them."""
    values = {name: getattr(hand, name) for name in FACT_FIELDS}
    values["makers"], values["renege"] = hand.makers or None, hand.renege or None
    return HandInput(**values)


def hand_matches(data: HandInput, hand: Hand) -> bool:
    """Whether a stored hand has exactly these facts (an idempotent replay)."""
    return data == hand_input_of(hand)


@dataclass
class HandResult:
    hand: Hand
    game: Game
    created: bool
    summary: str
    effects: list[str] = field(default_factory=list)


def engine_facts_without_table(data: HandInput) -> HandFacts:
    """The engine's facts for a hand scored away from any table (a rules preview)."""
    return engine_facts(None, data, None)


def engine_facts(game: Game | None, data: HandInput, dealer_seat: int | None) -> HandFacts:
    """The engine's facts of ``data`` entered at ``game`` (the caller's seat found among its
    players) with the dealer in ``dealer_seat``."""
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
        time_called=data.time_called,
        caller_seat=caller_seat,
        dealer_seat=dealer_seat,
    )
