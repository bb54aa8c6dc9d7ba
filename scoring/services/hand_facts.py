"""A hand's facts as a client submits them (:class:`HandInput`), as the engine reads them, and
the answer every hand write gives (:class:`HandResult`).

- *facts*: what happened at the table (makers, caller, alone, tricks, renege, thrown in …), as
  opposed to the points the engine derives from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from league.errors import DomainError
from scoring.domain.engine import HandFacts, Side
from scoring.models import Game, Hand

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
