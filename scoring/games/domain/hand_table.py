"""Every hand a captain's card can submit, scored by the engine ahead of time: a lookup table.

The captain's card keeps hands on the phone while the network is down and shows the score, the
dealer and the end of the game *as they will be* once those hands are sent. The page must not
score a hand itself (one implementation of the rules: :mod:`scoring.games.domain.engine`), so the
server gives it this table with the card, and the page only looks hands up in it.

Words used here:

- *axis*: one fact the card submits and the values it can take, in the order the table nests
  them (:data:`AXES`): the dealer's seat, the caller's seat (whose side are the makers, as the
  card's form says), caller alone, defender alone, ordered up (``None`` when not said), tricks
  the makers took (``None`` when not played out) and the side that reneged (``None``: nobody).
- *result*: what the engine says of one combination: the points of each side, whether the hand
  counts toward a game of N hands (``scored``), how many seats the deal moves on after it
  (``deal_moves``: 1, or 0 after a misdeal), and the hand in words; or the engine's ``error``,
  the message a captain would get from the server. Results are listed once and the table holds
  their indexes, so the page downloads a few kilobytes.
- *code*: a result's index written in base 36 with a fixed number of digits (``width``); the
  table of played hands is one string of codes, in the order of :data:`AXES` (the last axis
  varies fastest), so that a hand's code sits at ``sum(position on axis × stride of axis)``.
- *special*: a hand that was not played (thrown in, misdeal), submitted by a button of its own.

The game's length rule (a target score, a number of hands, or time alone, and what a tie at time
becomes) goes with the table as data; the page compares the projected score or count of scored
hands with it, and ends the game at a hand sent with "time called" as the engine does.
"""

from __future__ import annotations

import functools
import json
import string
from itertools import product
from typing import Any

from core.errors import DomainError
from league.domain.rules import GameLength, Rulebook
from scoring.games.domain.engine import HandFacts, Side, next_dealer, score_hand, side_of_seat

SEATS = (0, 1, 2, 3)
AXES: tuple[tuple[str, tuple[Any, ...]], ...] = (
    ("dealer_seat", SEATS),
    ("caller_seat", SEATS),
    ("caller_alone", (False, True)),
    ("defender_alone", (False, True)),
    ("ordered_up", (None, True)),
    ("tricks_won", (None, 0, 1, 2, 3, 4, 5)),
    ("renege", (None, "A", "B")),
)
"""The facts of a played hand as the card submits them, outermost first, with their values."""

SPECIALS = ("thrown_in", "misdeal")
"""The hands that were not played, each its own button on the card."""

DIGITS = string.digits + string.ascii_lowercase
"""The digits of a code, base 36 (JavaScript's ``parseInt(code, 36)`` reads them)."""


def code_width(count: int) -> int:
    """The digits a code needs for ``count`` results."""
    width = 1
    while len(DIGITS) ** width < count:
        width += 1
    return width


def encode(index: int, width: int) -> str:
    digits = []
    for _ in range(width):
        index, digit = divmod(index, len(DIGITS))
        digits.append(DIGITS[digit])
    return "".join(reversed(digits))


def hand_code_position(values: dict[str, Any]) -> int:
    """Where the code of a played hand with these facts (named as in :data:`AXES`) sits."""
    position = 0
    for name, choices in AXES:
        position = position * len(choices) + choices.index(values[name])
    return position


def played_facts(
    *,
    dealer_seat: int,
    caller_seat: int,
    caller_alone: bool,
    defender_alone: bool,
    ordered_up: bool | None,
    tricks_won: int | None,
    renege: str | None,
) -> HandFacts:
    """The engine's facts of a played hand as the card enters it: the makers are the caller's
    side."""
    return HandFacts(
        makers=side_of_seat(caller_seat),
        caller_alone=caller_alone,
        defender_alone=defender_alone,
        tricks_won=tricks_won,
        renege=Side(renege) if renege else None,
        ordered_up=ordered_up,
        caller_seat=caller_seat,
        dealer_seat=dealer_seat,
    )


def special_facts(special: str, *, dealer_seat: int) -> HandFacts:
    """The engine's facts of a hand thrown in or misdealt."""
    return HandFacts(
        thrown_in=special == "thrown_in", misdeal=special == "misdeal", dealer_seat=dealer_seat
    )


def hand_result(rules: Rulebook, facts: HandFacts) -> dict[str, Any]:
    """The engine's result of one hand, as the table lists it."""
    try:
        score = score_hand(rules, facts)
    except DomainError as error:
        return {"error": error.message}
    dealer = facts.dealer_seat or 0
    return {
        "points": [score.points_a, score.points_b],
        "scored": score.is_scored,
        "deal_moves": (next_dealer(dealer, score) - dealer) % len(SEATS),
        "summary": score.summary,
    }


def game_length_rule(rules: Rulebook) -> dict[str, Any]:
    """The game's length rule as the page reads it: ``length`` (``target``, ``hands`` or
    ``time``) with the target score or number of hands, and, for a timed rulebook, what a tie
    at time becomes (``tie_at_time``): the page ends the game at a hand sent with "time called"
    as the engine does (:func:`scoring.games.domain.engine.game_state_after`)."""
    if rules.game_length is GameLength.HANDS:
        game: dict[str, Any] = {"length": "hands", "hands_per_game": rules.hands_per_game}
    elif rules.game_length is GameLength.TIME:
        game = {"length": "time"}
    else:
        game = {"length": "target", "target_score": rules.target_score}
    if rules.is_timed:
        game["tie_at_time"] = rules.tie_at_time.value
    return game


@functools.lru_cache(maxsize=64)
def hand_outcome_table(rules: Rulebook) -> dict[str, Any]:
    """The lookup table of ``rules`` (JSON-able; built once per rulebook in a process).

    ``hands`` is the string of the codes of every played hand (see :func:`hand_code_position`),
    each ``width`` digits; ``special`` maps each of :data:`SPECIALS` to a result's index at each
    dealer seat; ``results`` lists the results; ``game`` is the game's length rule.
    """
    results: list[dict[str, Any]] = []
    indexes: dict[str, int] = {}

    def index_of(facts: HandFacts) -> int:
        result = hand_result(rules, facts)
        key = json.dumps(result, sort_keys=True)
        if key not in indexes:
            indexes[key] = len(results)
            results.append(result)
        return indexes[key]

    special = {
        name: [index_of(special_facts(name, dealer_seat=seat)) for seat in SEATS]
        for name in SPECIALS
    }
    names = [name for name, _ in AXES]
    played = [
        index_of(played_facts(**dict(zip(names, values, strict=True))))
        for values in product(*(choices for _, choices in AXES))
    ]
    width = code_width(len(results))

    game = game_length_rule(rules)
    return {
        "axes": [[name, list(values)] for name, values in AXES],
        "width": width,
        "hands": "".join(encode(index, width) for index in played),
        "special": special,
        "results": results,
        "game": game,
    }
