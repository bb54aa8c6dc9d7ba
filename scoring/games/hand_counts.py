"""What one hand adds to its game's counts, as expressions the database evaluates: each hand's
*packed counts*, stored on its row (``Hand.maker_counts_*`` and ``Hand.caller_counts_*``,
generated columns) so that counting a season's shares only adds them up
(``scoring.standings.services.shares``).

- *maker counts*: what the hand counts for the side that made trump (``MAKER_COUNT_NAMES``,
  read as ``HandTotals.from_rows`` reads a hand with no lone defender named);
- *caller counts*: what it counts for the caller alone (``SEAT_COUNT_NAMES``);
- *packed*: four counts to a 64-bit integer, each a 16-bit field (``FIELD_BITS``): a hand's
  field is 0 or 1, and a game has at most 32,767 current hands, so a game's sums never carry.

Evaluating the conditions at every recount of a season cost PostgreSQL over half a second at a
million hands; a hand's row is written once. A change to these definitions changes the generated
columns: it needs a migration (``makemigrations`` notices), which recomputes every hand's.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from django.db.models import BigIntegerField, Case, F, Q, Value, When

from scoring.games.domain.counts import HAND_COUNT_NAMES, MAKER_COUNT_NAMES

FIELD_BITS = 16
PER_SUM = 4

_NOT_ALONE = ("hands", "euchres_inflicted")
SEAT_COUNT_NAMES = tuple(name for name in HAND_COUNT_NAMES if name not in _NOT_ALONE)
"""A caller's own counts in one game (the rest of ``HAND_COUNT_NAMES`` are never theirs alone
when no lone defender is named)."""
_IN_HAND_COUNT_ORDER = itemgetter(
    *(
        SEAT_COUNT_NAMES.index(name) if name in SEAT_COUNT_NAMES else len(SEAT_COUNT_NAMES)
        for name in HAND_COUNT_NAMES
    )
)


def caller_hand_counts(own: Sequence[int]) -> tuple[int, ...]:
    """A caller's own counts (``SEAT_COUNT_NAMES`` order, as unpacked from the packed fields) in
    ``HAND_COUNT_NAMES`` order, 0 at the counts never theirs alone."""
    return _IN_HAND_COUNT_ORDER((*own[: len(SEAT_COUNT_NAMES)], 0))


MAKER_COLUMNS = tuple(
    f"maker_counts_{index}" for index in range(-(-len(MAKER_COUNT_NAMES) // PER_SUM))
)
CALLER_COLUMNS = tuple(
    f"caller_counts_{index}" for index in range(-(-len(SEAT_COUNT_NAMES) // PER_SUM))
)
"""The ``Hand`` columns that hold the packed maker and caller counts, in order (one per
:func:`maker_packs` and :func:`caller_packs` expression)."""


def maker_conditions() -> dict[str, Q]:
    """What each of ``MAKER_COUNT_NAMES`` counts among the hands a side made trump, as a
    condition on the hand."""
    known = Q(renege="", tricks_won__isnull=False)
    march, made = known & Q(tricks_won=5), known & Q(tricks_won__gte=3)
    euchre = known & Q(tricks_won__lte=2)
    lone = Q(caller_alone=True)
    solo = Q(caller_alone=True, caller__isnull=False)  # a lone caller whose partner sat out
    own_renege = Q(renege=F("makers"))
    their_renege = ~Q(renege="") & ~Q(renege=F("makers"))
    return {
        "calls": Q(),
        "made_good": made | their_renege,
        "marches": march,
        "euchres": euchre,
        "outcomes": known,
        "loners_tried": lone,
        "loners_made": lone & made,
        "loners_marched": lone & march,
        "solo_marches": solo & march,
        "solo_euchres": solo & euchre,
        "own_reneges": own_renege,
        "solo_own_reneges": solo & own_renege,
        "their_reneges": their_renege,
    }


def seat_conditions() -> dict[str, Q]:
    """What each of ``SEAT_COUNT_NAMES`` counts for the caller (of any seat)."""
    makers = maker_conditions()
    return {
        "calls": Q(),
        "calls_made": makers["made_good"],
        "marches": makers["loners_marched"],
        "loners_tried": makers["loners_tried"],
        "loners_made": makers["loners_made"],
        "loners_marched": makers["loners_marched"],
        "euchres_suffered": makers["loners_tried"] & makers["euchres"],
        "reneges": makers["loners_tried"] & makers["own_reneges"],
    }


def packed(conditions: list[Q]) -> list[Any]:
    """Row expressions packing ``conditions`` four to a 64-bit integer."""
    packs = []
    for start in range(0, len(conditions), PER_SUM):
        terms = [
            Case(
                When(condition, then=Value(1 << (FIELD_BITS * slot))),
                default=Value(0),
                output_field=BigIntegerField(),
            )
            if condition
            else Value(1 << (FIELD_BITS * slot), output_field=BigIntegerField())
            for slot, condition in enumerate(conditions[start : start + PER_SUM])
        ]
        packs.append(sum(terms[1:], start=terms[0]))
    return packs


def maker_packs() -> list[Any]:
    """The hand's maker counts, packed (four expressions)."""
    conditions = maker_conditions()
    return packed([conditions[name] for name in MAKER_COUNT_NAMES])


def caller_packs() -> list[Any]:
    """The hand's caller counts, packed (two expressions)."""
    conditions = seat_conditions()
    return packed([conditions[name] for name in SEAT_COUNT_NAMES])
