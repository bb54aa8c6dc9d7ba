"""Why a row ranks where it does, in words: the decision that separated two neighbouring rows
and the reason shown for it ("behind Rosie's Aces on points for (40 to 45)").

- *decision*: the measure that split an entrant from the one directly above it, both values as
  shown, the size of the tied group and the notes of measures that could not split it.
- *note*: why a measure left a group level ("head-to-head is a cycle among …").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scoring.standings.domain.standings.rules import GROUP_MEASURES, MEASURE_LABELS, PRECISION

_DASH = "\N{EN DASH}"
"""Between the numbers of a record: wins, losses, then draws if any."""
_NAMES_IN_A_LIST = 4
"""How many names a reason lists before it says "and N others"."""


@dataclass
class Decision:
    """How an entrant was separated from the entrant directly above it."""

    measure: str
    above: int
    own_value: str
    above_value: str
    group_size: int
    notes: list[str]


def _number(value: float) -> str:
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _signed(value: float) -> str:
    return f"+{_number(value)}" if value > 0 else _number(value)


def shown_pair(measure: str, own: Any, above: Any) -> tuple[str, str]:
    """Two values as shown in a reason, with enough decimals that they differ."""
    if measure == "win_pct":
        for places in range(3, PRECISION + 1):
            shown = f"{own:.{places}f}", f"{above:.{places}f}"
            if shown[0] != shown[1]:
                return shown
        return shown
    if measure in ("point_diff", "head_to_head_diff"):
        return _signed(own), _signed(above)
    if isinstance(own, str):
        return own, above
    return _number(own), _number(above)


def name_list(names: list[str]) -> str:
    if len(names) > _NAMES_IN_A_LIST:
        rest = len(names) - (_NAMES_IN_A_LIST - 1)
        return f"{', '.join(names[: _NAMES_IN_A_LIST - 1])} and {rest} others"
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} and {names[-1]}"


def record_shown(wins: int, losses: int, draws: int) -> str:
    """A record as shown: wins, losses, then draws if any, joined by en dashes."""
    shown = f"{wins}{_DASH}{losses}"
    if draws:
        shown += f"{_DASH}{draws}"
    return shown


def reason(
    decision: Decision,
    *,
    name: Callable[[int], str],
    coin_flip_seed: int,
    ahead_of: int | None = None,
) -> str:
    """The decision in words: "behind X on …", or "ahead of Y on …" for the first row."""
    prefix = "".join(f"{note}; " for note in decision.notes)
    if ahead_of is not None:
        other, word = ahead_of, "ahead of"
        own, theirs = decision.above_value, decision.own_value
    else:
        other, word = decision.above, "behind"
        own, theirs = decision.own_value, decision.above_value
    if decision.measure == "coin_flip":
        side = "ahead by" if ahead_of is not None else "separated by"
        return (
            f"{prefix}level with {name(other)} on everything; {side} a recorded coin flip "
            f"(seed {coin_flip_seed})"
        )
    label = MEASURE_LABELS[decision.measure]
    whom = f"{prefix}{word} {name(other)}"
    if decision.measure == "head_to_head" and decision.group_size > 2:
        return f"{whom} on head-to-head among {decision.group_size} tied ({own} to {theirs})"
    if decision.measure == "head_to_head":
        return f"{whom} on head-to-head ({own})"
    if decision.measure in GROUP_MEASURES and decision.group_size > 2:
        return f"{whom} on {label} among {decision.group_size} tied ({own} to {theirs})"
    return f"{whom} on {label} ({own} to {theirs})"
