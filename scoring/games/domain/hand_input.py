"""A hand's facts as a client submits them, declared once, and the parser that reads them.

- *facts*: what happened at the table (makers, caller, alone, tricks, renege, thrown in …), as
  opposed to the points the engine derives from them.
- *input*: the facts as submitted, the caller named by a player id and the sides as ``"A"`` /
  ``"B"`` (:class:`HandInput`); the engine's :class:`~scoring.games.domain.engine.HandFacts` names
  seats.

:data:`FACTS` is the one list of a hand's facts: the API's schema, the captain's and organiser's
forms, exports and the audit read it. :func:`hand_input_parse` validates a JSON object of them
(every entrance of a hand: the API, the captain's card, the organiser's page) and says what is
wrong in words a captain can act on, naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.errors import DomainError

SIDES = ("A", "B")


@dataclass(frozen=True)
class Fact:
    """One fact of a hand as a client sends it: its JSON ``kind`` (``"side"``, ``"bool"`` or
    ``"int"``), whether it may be ``null``, its default, its bounds (an ``int``) and what it
    means (the schema's description)."""

    name: str
    kind: str
    default: Any = None
    nullable: bool = True
    low: int | None = None
    high: int | None = None
    help: str = ""


FACTS: tuple[Fact, ...] = (
    Fact(
        "makers",
        "side",
        help='The side that named trump: "A" (seats 0 and 2) or "B" (seats 1 and 3).',
    ),
    Fact("caller", "int", help="The player who named trump (a player id), if known."),
    Fact("caller_alone", "bool", default=False, nullable=False),
    Fact("defender_alone", "bool", default=False, nullable=False),
    Fact("tricks_won", "int", low=0, high=5, help="Tricks the makers took, 0–5."),
    Fact("renege", "side", help="The side that reneged, if a renege was caught."),
    Fact(
        "thrown_in",
        "bool",
        default=False,
        nullable=False,
        help="All passed twice (stick the dealer off).",
    ),
    Fact(
        "misdeal",
        "bool",
        default=False,
        nullable=False,
        help="A misdeal: redeal by the same dealer, no score.",
    ),
    Fact(
        "ordered_up",
        "bool",
        help="Trump was ordered up in round one (null: not said). Needed by rulebooks where the "
        "dealer's partner who orders up must go alone.",
    ),
    Fact(
        "time_called",
        "bool",
        default=False,
        nullable=False,
        help="Time was called during this hand (a rulebook with a time limit only): the hand "
        "was finished and is the game's last; the higher score wins. Level, the game is a draw "
        "or the next hand decides, as the rulebook says (a bracket game always plays on). "
        "Once a game at most.",
    ),
)
"""A hand's facts, in the order the API documents them."""

NUMBER = Fact(
    "number",
    "int",
    low=1,
    high=2**31 - 1,
    help="The hand number the client is entering; a conflict if it was already entered.",
)
"""The hand's number, sent with its facts by a client that says which hand it is entering."""


@dataclass(frozen=True)
class HandInput:
    """A hand's facts as a client submits them (a player id, sides as "A"/"B")."""

    makers: str | None = None
    caller_id: int | None = None
    caller_alone: bool = False
    defender_alone: bool = False
    tricks_won: int | None = None
    renege: str | None = None
    thrown_in: bool = False
    misdeal: bool = False
    ordered_up: bool | None = None
    time_called: bool = False

    @classmethod
    def from_data(cls, values: Mapping[str, Any]) -> HandInput:
        """The input of facts already checked (by :func:`hand_input_parse` or a form), named as
        in :data:`FACTS`; the missing ones their defaults, a blank side none."""
        given = {fact.name: values.get(fact.name, fact.default) for fact in FACTS}
        for name in ("makers", "renege"):
            given[name] = given[name] or None
        caller = given.pop("caller")
        given["caller_id"] = getattr(caller, "pk", caller)  # a form may give the player itself
        return cls(**given)


TRUE_WORDS = frozenset({"true", "t", "yes", "y", "on", "1"})
FALSE_WORDS = frozenset({"false", "f", "no", "n", "off", "0"})
NULL_WORDS = frozenset({"", "null"})
"""How a form (``application/x-www-form-urlencoded`` or multipart) writes a flag or a null."""


def _checked(fact: Fact, value: Any) -> Any:
    """``value`` of ``fact`` as the body gave it (a JSON value, or a form's text), checked;
    :class:`DomainError` naming the fact."""
    if fact.nullable and isinstance(value, str) and value.strip().lower() in NULL_WORDS:
        value = None
    if value is None:
        if fact.nullable:
            return None
        raise DomainError(f"{fact.name}: This field may not be null.", field=fact.name)
    if fact.kind == "side":
        if value == "" and fact.nullable:
            return None
        if type(value) is not str or value not in SIDES:
            # Echoed only if short and printable: the message is shown and sent as UTF-8, which
            # a lone surrogate has no form in.
            printable = type(value) is str and len(value) <= 20 and value.isprintable()
            shown = value if printable else "that"
            raise DomainError(f'{fact.name}: "{shown}" is not a valid choice.', field=fact.name)
        return value
    if fact.kind == "bool":
        if type(value) is bool:
            return value
        word = value.strip().lower() if isinstance(value, str) else None
        if word in TRUE_WORDS or word in FALSE_WORDS:
            return word in TRUE_WORDS
        raise DomainError(f"{fact.name}: Must be a valid boolean.", field=fact.name)
    number = _whole(value)
    if number is None:
        raise DomainError(f"{fact.name}: A valid integer is required.", field=fact.name)
    if fact.low is not None and number < fact.low:
        raise DomainError(
            f"{fact.name}: Ensure this value is greater than or equal to {fact.low}.",
            field=fact.name,
        )
    if fact.high is not None and number > fact.high:
        raise DomainError(
            f"{fact.name}: Ensure this value is less than or equal to {fact.high}.",
            field=fact.name,
        )
    return number


def _whole(value: Any) -> int | None:
    """A whole number as JSON (an integer, not a boolean) or a form (ASCII digits, at most 20,
    an optional sign) gives it, else ``None``."""
    if type(value) is int:
        return value
    if isinstance(value, str):
        text = value.strip()
        digits = text[1:] if text[:1] in ("-", "+") else text
        if 0 < len(digits) <= 20 and digits.isascii() and digits.isdigit():
            return int(text)
    return None


def hand_input_parse(data: Any, *, with_number: bool = False) -> tuple[HandInput, int | None]:
    """The input of a JSON object (or a form) of a hand's facts and, ``with_number``, its
    ``number``, and that number (``None`` when not sent); :class:`DomainError` naming the first
    field at fault, or the body when it is no object. Other fields are left alone (as a
    serializer leaves them)."""
    if not isinstance(data, Mapping):
        raise DomainError("send the hand's facts as a JSON object", code="parse_error")
    known = [*FACTS, NUMBER] if with_number else FACTS
    values = {fact.name: _checked(fact, data[fact.name]) for fact in known if fact.name in data}
    return HandInput.from_data(values), values.get(NUMBER.name)
