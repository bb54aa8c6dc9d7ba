"""A season's hands as CSV: the counting hands (the corrected and undone ones are on the audit
trail), one column per fact of :data:`~scoring.games.domain.hand_input.FACTS`, in their order."""

from __future__ import annotations

from scoring.games.domain.hand_input import FACTS
from scoring.games.services.hand_facts import hand_facts_of

HAND_COLUMNS = [
    "game",
    "hand",
    "dealer_seat",
    *(fact.name for fact in FACTS),
    "outcome",
    "points_a",
    "points_b",
]


def _cell(fact_kind: str, value):
    """A fact as a spreadsheet reads it: a flag as 0 or 1, a missing value as an empty cell."""
    if value is None:
        return ""
    return int(value) if fact_kind == "bool" else value


def hand_rows(hands) -> list[dict]:
    """The CSV rows of ``hands`` (with their callers read: the caller is shown by name)."""
    kinds = {fact.name: fact.kind for fact in FACTS}
    rows = []
    for hand in hands:
        facts = {name: _cell(kinds[name], value) for name, value in hand_facts_of(hand).items()}
        facts["caller"] = hand.caller.name if hand.caller_id else ""
        rows.append(
            {
                "game": hand.game_id,
                "hand": hand.number,
                "dealer_seat": hand.dealer_seat,
                **facts,
                "outcome": hand.outcome,
                "points_a": hand.points_a,
                "points_b": hand.points_b,
            }
        )
    return rows
