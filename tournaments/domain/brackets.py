"""Bracket structures, and playing results through them.

Words used here (see also ``seeding.py``):

- **structure**: everything about a competition that is known before a ball is dealt: its
  matches, in an order in which they can be played (every match comes after its feeders).
  Builders live beside this module: ``elimination.py`` (single and double elimination),
  ``round_robin.py`` (round robin, pools then a knockout). Swiss rounds are paired one at a time
  by ``swiss.py`` and have no structure.
- **match**: one meeting of two teams, with a stable **code**: ``W2-3`` is the third match of the
  winners' bracket's second round, ``L4-1`` the first of the losers' bracket's fourth round,
  ``GF1``/``GF2`` the grand final and its reset, ``3P`` the third-place match, ``R3-2`` a
  round-robin match and ``B2-1`` a match of pool B. A match is played as one game or best of N:
  the engine only cares who won.
- **bracket** (of a match): the part of the structure it belongs to: winners, losers, final (the
  grand final of a double elimination), third place, round robin or pool.
- **round**: a match's round within its bracket, from 1. No team plays twice in a round.
- **slot**: one of a match's two places. It holds a **seed**, a **bye**, the **winner of** or
  **loser of** an earlier match (that match is the slot's **feeder**), or a pool placeholder such
  as "2nd in pool A", known once pool A has finished and has been ranked.
- **bye**: an empty slot. A team facing a bye goes through without playing; the bye is the
  "loser". Whether a slot ends up a bye is known from the structure alone, so bye matches are
  marked (``Match.is_bye``) and resolved automatically: they are never played and never counted.
- **result**: the seed of a match's winner. Results are passed around as a mapping from match
  code to the winning seed, for real (non-bye) matches only.
- **placings**: the finishing places, 1st, 2nd, 3rd … Teams knocked out at the same stage share a
  place (two semi-final losers both finish 3rd when there is no third-place match). Places count
  teams, not bracket lines: with 12 teams the first-round losers finish 9th.
- **reset**: the second grand final (``GF2``) of a double elimination. It exists in the structure
  but is played only when the losers' bracket champion (``GF1``'s second slot) wins ``GF1``;
  otherwise it is **void**.

Pure Python: no Django import here. Everything is plain, frozen data; ``play`` is a pure function
from a structure and results to the state of every match.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from core.errors import DomainError
from league.domain.words import ordinal


class SlotKind(enum.StrEnum):
    """What a slot holds before the competition is played."""

    SEED = "seed"
    BYE = "bye"
    WINNER = "winner"
    LOSER = "loser"
    POOL_PLACE = "pool_place"


class BracketPart(enum.StrEnum):
    """The part of a structure a match belongs to."""

    WINNERS = "winners"
    LOSERS = "losers"
    FINAL = "final"
    THIRD_PLACE = "third_place"
    ROUND_ROBIN = "round_robin"
    POOL = "pool"


class StructureKind(enum.StrEnum):
    """The format of a competition."""

    SINGLE = "single"
    DOUBLE = "double"
    ROUND_ROBIN = "round_robin"
    POOLS = "pools"


class MatchStatus(enum.StrEnum):
    """Where a match stands, given the results so far.

    ``waiting``: a slot's team is not known yet. ``ready``: both teams are known, to be played.
    ``decided``: it has a result. ``bye``: resolved automatically, never played. ``void``: a grand
    final reset that turned out not to be needed.
    """

    WAITING = "waiting"
    READY = "ready"
    DECIDED = "decided"
    BYE = "bye"
    VOID = "void"


@dataclass(frozen=True)
class Slot:
    """One of a match's two places; build one with the functions below, not by hand."""

    kind: SlotKind
    seed: int | None = None
    match: str | None = None
    pool: str | None = None
    place: int | None = None

    @property
    def label(self) -> str:
        """How an organiser's blank sheet shows the slot: ``Seed 3``, ``Winner of W1-2`` …"""
        if self.kind is SlotKind.SEED:
            return f"Seed {self.seed}"
        if self.kind is SlotKind.BYE:
            return "Bye"
        if self.kind is SlotKind.WINNER:
            return f"Winner of {self.match}"
        if self.kind is SlotKind.LOSER:
            return f"Loser of {self.match}"
        return f"{ordinal(self.place or 0)} in pool {self.pool}"


def seed_slot(seed: int) -> Slot:
    """A slot holding seed ``seed``."""
    return Slot(SlotKind.SEED, seed=seed)


BYE_SLOT = Slot(SlotKind.BYE)
"""The empty slot."""


def winner_of(code: str) -> Slot:
    """A slot for the winner of match ``code``."""
    return Slot(SlotKind.WINNER, match=code)


def loser_of(code: str) -> Slot:
    """A slot for the loser of match ``code``."""
    return Slot(SlotKind.LOSER, match=code)


def pool_place(pool: str, place: int) -> Slot:
    """A slot for the team that finishes ``place`` in ``pool`` ("2nd in pool A")."""
    return Slot(SlotKind.POOL_PLACE, pool=pool, place=place)


@dataclass(frozen=True)
class Match:
    """A match of a structure.

    ``winner_place``/``loser_place`` are the place a team finishes when it wins/loses this match
    and plays no further match (``None``: it plays on, or places are not this engine's business,
    as in a round robin). ``reset_of`` is set on a grand final reset: the code of the first grand
    final, whose second slot must win for this match to be played. ``is_bye``: one slot (or both)
    will be a bye whatever happens, so the match is resolved without being played.
    """

    code: str
    bracket: BracketPart
    round: int
    first: Slot
    second: Slot
    pool: str | None = None
    winner_place: int | None = None
    loser_place: int | None = None
    reset_of: str | None = None
    is_bye: bool = False

    @property
    def slots(self) -> tuple[Slot, Slot]:
        return (self.first, self.second)


@dataclass(frozen=True)
class Pool:
    """A pool of a pools-then-knockout structure: its name and its seeds, best first."""

    name: str
    seeds: tuple[int, ...]


@dataclass(frozen=True)
class Structure:
    """A competition's matches in a playable order (every feeder before the matches it feeds).

    ``team_count`` seeds ``1..team_count`` take part. ``pools`` is empty unless ``kind`` is
    ``pools``.
    """

    kind: StructureKind
    team_count: int
    matches: tuple[Match, ...]
    third_place: bool = False
    grand_final_reset: bool = False
    cycles: int = 1
    pools: tuple[Pool, ...] = field(default=())

    def __post_init__(self) -> None:
        codes = [match.code for match in self.matches]
        if len(set(codes)) != len(codes):
            raise ValueError("match codes must be unique within a structure")

    @cached_property
    def by_code(self) -> dict[str, Match]:
        """Each match by its code."""
        return {match.code: match for match in self.matches}

    @cached_property
    def position(self) -> dict[str, int]:
        """Each match's code → its place in the playable order (``matches``)."""
        return {match.code: index for index, match in enumerate(self.matches)}

    def match(self, code: str) -> Match:
        """The match with ``code``; a ``DomainError`` if there is none."""
        try:
            return self.by_code[code]
        except KeyError:
            raise DomainError(f"There is no match {code} in this bracket.", field="match") from None

    @cached_property
    def real_matches(self) -> tuple[Match, ...]:
        """The matches that are played (or, for a reset, may be): all but the bye matches."""
        return tuple(match for match in self.matches if not match.is_bye)

    @cached_property
    def sure_byes(self) -> dict[str, tuple[bool, bool]]:
        """Each match's code → whether each of its slots is a bye whatever the results."""
        empty: dict[str, tuple[bool, bool]] = {}
        for match in self.matches:
            empty[match.code] = (
                _is_sure_bye(match.first, empty),
                _is_sure_bye(match.second, empty),
            )
        return empty

    @cached_property
    def downstream(self) -> dict[str, tuple[str, ...]]:
        """Each match's code → the codes of the matches whose state may change when it gets a
        result (structure order): those it feeds, those they feed when they are bye matches
        (resolved without being played), and its reset."""
        fed: dict[str, list[str]] = {match.code: [] for match in self.matches}
        for match in self.matches:
            for slot in match.slots:
                if slot.kind in (SlotKind.WINNER, SlotKind.LOSER):
                    fed[slot.match].append(match.code)
            if match.reset_of is not None:
                fed[match.reset_of].append(match.code)
        found: dict[str, tuple[str, ...]] = {}
        for match in reversed(self.matches):  # a match's dependents come after it
            codes = set()
            for code in fed[match.code]:
                codes.add(code)
                if self.by_code[code].is_bye:
                    codes.update(found[code])
            found[match.code] = tuple(sorted(codes, key=self.position.__getitem__))
        return found

    def pool_named(self, name: str) -> Pool:
        for pool in self.pools:
            if pool.name == name:
                return pool
        raise DomainError(f"There is no pool {name} in this bracket.", field="pool")


class Bye(enum.Enum):
    """The type of ``BYE``, the occupant of an empty slot."""

    BYE = "bye"

    def __repr__(self) -> str:
        return "BYE"


BYE = Bye.BYE
Occupant = int | Bye | None
"""Who is in a slot once results are known: a seed, ``BYE``, or ``None`` (not known yet)."""


@dataclass(frozen=True)
class MatchState:
    """A match given the results so far: its status, its two occupants, its winner and loser."""

    code: str
    status: MatchStatus
    first: Occupant
    second: Occupant
    winner: Occupant = None
    loser: Occupant = None

    @property
    def teams(self) -> tuple[int, ...]:
        """The real teams known to be in this match."""
        return tuple(side for side in (self.first, self.second) if isinstance(side, int))


@dataclass(frozen=True)
class Placing:
    """A team's finishing place; teams knocked out at the same stage share a place."""

    place: int
    seed: int


@dataclass(frozen=True)
class BracketState:
    """A structure with the results so far played through it."""

    matches: Mapping[str, MatchState]
    ready: tuple[str, ...]
    placings: tuple[Placing, ...]
    is_complete: bool

    @property
    def champion(self) -> int | None:
        """The seed placed 1st, once known."""
        for placing in self.placings:
            if placing.place == 1:
                return placing.seed
        return None

    @property
    def played(self) -> tuple[str, ...]:
        """The codes of the decided matches, in structure order."""
        return tuple(
            code for code, state in self.matches.items() if state.status is MatchStatus.DECIDED
        )


@dataclass(frozen=True)
class Correction:
    """What correcting a finished match does: ``reset`` lists the later matches whose results
    are thrown away (in structure order), and ``results`` is the whole set of results after the
    correction, ready to be stored once the organiser agrees."""

    code: str
    winner: int
    reset: tuple[str, ...]
    results: dict[str, int]


def play(
    structure: Structure,
    results: Mapping[str, int],
    *,
    pool_rankings: Mapping[str, Sequence[int]] | None = None,
) -> BracketState:
    """Play ``results`` (match code → winning seed) through ``structure``.

    ``pool_rankings`` gives, for each finished pool, its seeds in finishing order (from the
    standings engine, tie-breaks applied); the knockout's "2nd in pool A" slots are filled from it.

    Raises ``DomainError`` when a result names a bye or void match, a match whose teams are not
    known yet, or a winner who is not in the match, and when a ranking is given for a pool that
    has not finished or does not list exactly that pool's teams.
    """
    states, _ = _resolve(structure, results, pool_rankings or {}, keep=None)
    return _state(structure, states)


def advance(
    structure: Structure, states: Mapping[str, MatchState], *, code: str, winner: int
) -> dict[str, MatchState]:
    """The states that change when ready match ``code`` is won by ``winner``: that match's and
    those of ``structure.downstream[code]``, given their current ``states`` (the other matches
    are not needed: a slot not fed by a changed match keeps its occupant). The same states as
    ``play`` with the result added, at the cost of the matches it touches, for a knockout match
    (a pool's last match also fills the knockout from the pool's ranking: replay with ``play``).

    Raises ``DomainError`` when ``code`` is not ready, ``winner`` is not in it, or a match
    downstream already has a result (the states are not those of ``play``: replay instead).
    """
    current = states[code]
    if current.status is not MatchStatus.READY:
        raise DomainError(f"{code} is not ready to be won.", field="match")
    if winner not in (current.first, current.second):
        raise DomainError(f"Seed {winner} is not in match {code}.", field="winner")
    loser = current.second if winner == current.first else current.first
    new = {code: replace(current, status=MatchStatus.DECIDED, winner=winner, loser=loser)}
    for other in structure.downstream[code]:
        match, before = structure.by_code[other], states[other]
        if before.status is MatchStatus.DECIDED:
            raise DomainError(f"{other} already has a result.", field="match")
        byes = structure.sure_byes[other]
        first, second = (
            _advanced_occupant(slot, held, is_bye, new)
            for slot, held, is_bye in zip(
                match.slots, (before.first, before.second), byes, strict=True
            )
        )
        if match.is_bye:
            new[other] = _bye_state(other, first, second)
            continue
        final = new.get(match.reset_of) if match.reset_of is not None else None
        if final is not None and final.winner == final.first:
            new[other] = MatchState(other, MatchStatus.VOID, first, second)
        elif isinstance(first, int) and isinstance(second, int):
            new[other] = MatchState(other, MatchStatus.READY, first, second)
        else:
            new[other] = MatchState(other, MatchStatus.WAITING, first, second)
    return new


def _advanced_occupant(
    slot: Slot, held: Occupant, is_bye: bool, new: Mapping[str, MatchState]
) -> Occupant:
    if is_bye:
        return BYE
    if slot.kind in (SlotKind.WINNER, SlotKind.LOSER) and slot.match in new:
        feeder = new[slot.match]
        return feeder.winner if slot.kind is SlotKind.WINNER else feeder.loser
    return held


def correct_result(
    structure: Structure,
    results: Mapping[str, int],
    *,
    code: str,
    winner: int,
    pool_rankings: Mapping[str, Sequence[int]] | None = None,
    pool_rankings_after: Mapping[str, Sequence[int]] | None = None,
) -> Correction:
    """Preview changing the winner of finished match ``code`` to ``winner``.

    Returns the later matches whose results must be reset: a decided match is reset when one of
    its occupants changes (because the corrected match fed it, directly or through another reset
    match), or when it is a grand final reset that is no longer needed. Matches whose teams stay
    the same keep their results. When the correction changes a pool's ranking, pass the rankings
    before (``pool_rankings``) and after (``pool_rankings_after``) and the knockout matches that
    change are reset too; ``code`` may then be a pool match.
    """
    before = play(structure, results, pool_rankings=pool_rankings)
    match_state = before.matches[structure.match(code).code]
    if match_state.status is not MatchStatus.DECIDED:
        raise DomainError(f"Match {code} has no result to correct.", field="match")
    if winner not in match_state.teams:
        raise DomainError(f"Seed {winner} did not play in match {code}.", field="winner")
    corrected = dict(results)
    corrected[code] = winner
    occupants = {
        other: (state.first, state.second)
        for other, state in before.matches.items()
        if state.status is MatchStatus.DECIDED and other != code
    }
    after_rankings = pool_rankings if pool_rankings_after is None else pool_rankings_after
    _, reset = _resolve(structure, corrected, after_rankings or {}, keep=occupants)
    for reset_code in reset:
        del corrected[reset_code]
    return Correction(code=code, winner=winner, reset=reset, results=corrected)


def _resolve(
    structure: Structure,
    results: Mapping[str, int],
    pool_rankings: Mapping[str, Sequence[int]],
    *,
    keep: Mapping[str, tuple[Occupant, Occupant]] | None,
) -> tuple[dict[str, MatchState], tuple[str, ...]]:
    """Compute every match's state in structure order.

    Strict when ``keep`` is ``None``: an impossible result is a ``DomainError``. Otherwise
    (previewing a correction) a result is dropped, and reported as reset, when the match's
    occupants differ from ``keep[code]`` or the match no longer needs playing.
    """
    for code in results:
        structure.match(code)
    filled = _pool_places(structure, results, pool_rankings) if pool_rankings else {}
    states: dict[str, MatchState] = {}
    reset: list[str] = []
    for match in structure.matches:
        first = _occupant(match.first, states, filled)
        second = _occupant(match.second, states, filled)
        result = results.get(match.code)
        if match.is_bye:
            if result is not None:
                raise DomainError(f"{match.code} is a bye: it has no result.", field="match")
            states[match.code] = _bye_state(match.code, first, second)
            continue
        final = states[match.reset_of] if match.reset_of is not None else None
        is_void = (
            final is not None
            and final.status is MatchStatus.DECIDED
            and final.winner == final.first
        )
        is_stale = keep is not None and match.code in keep and result is not None
        if is_stale and (is_void or keep[match.code] != (first, second)):
            reset.append(match.code)
            result = None
        if is_void:
            if result is not None:
                raise DomainError(
                    f"{match.code} was not needed: the winners' bracket champion won "
                    f"{match.reset_of}.",
                    field="match",
                )
            states[match.code] = MatchState(match.code, MatchStatus.VOID, first, second)
            continue
        if not (isinstance(first, int) and isinstance(second, int)):
            if result is not None:
                raise DomainError(
                    f"{match.code} cannot have a result yet: its teams are not known.",
                    field="match",
                )
            states[match.code] = MatchState(match.code, MatchStatus.WAITING, first, second)
        elif result is None:
            states[match.code] = MatchState(match.code, MatchStatus.READY, first, second)
        elif result in (first, second):
            loser = second if result == first else first
            states[match.code] = MatchState(
                match.code, MatchStatus.DECIDED, first, second, winner=result, loser=loser
            )
        else:
            raise DomainError(
                f"Seed {result} is not in match {match.code} (seeds {first} and {second}).",
                field="winner",
            )
    return states, tuple(reset)


def _bye_state(code: str, first: Occupant, second: Occupant) -> MatchState:
    """A bye match: the team (if any) goes through, the bye is the loser."""
    if first is BYE:
        return MatchState(code, MatchStatus.BYE, first, second, winner=second, loser=BYE)
    return MatchState(code, MatchStatus.BYE, first, second, winner=first, loser=BYE)


def _occupant(slot: Slot, states: Mapping[str, MatchState], filled: Mapping[Slot, int]) -> Occupant:
    if slot.kind is SlotKind.SEED:
        return slot.seed
    if slot.kind is SlotKind.BYE:
        return BYE
    if slot.kind is SlotKind.WINNER:
        return states[slot.match].winner
    if slot.kind is SlotKind.LOSER:
        return states[slot.match].loser
    return filled.get(slot)


def _pool_places(
    structure: Structure, results: Mapping[str, int], pool_rankings: Mapping[str, Sequence[int]]
) -> dict[Slot, int]:
    """Check each given pool ranking and turn it into the seeds of "nth in pool X" slots."""
    filled: dict[Slot, int] = {}
    for name, ranking in pool_rankings.items():
        pool = structure.pool_named(name)
        if sorted(ranking) != sorted(pool.seeds) or len(set(ranking)) != len(ranking):
            raise DomainError(
                f"The ranking of pool {name} must list each of its teams once: "
                f"seeds {', '.join(map(str, pool.seeds))}.",
                field="pool_rankings",
            )
        unplayed = [
            match.code
            for match in structure.real_matches
            if match.pool == name and match.code not in results
        ]
        if unplayed:
            raise DomainError(
                f"Pool {name} has not finished: {', '.join(unplayed)} still to play.",
                field="pool_rankings",
            )
        for place, seed in enumerate(ranking, start=1):
            filled[pool_place(name, place)] = seed
    return filled


def _state(structure: Structure, states: dict[str, MatchState]) -> BracketState:
    """Derive the ready matches and the placings from the match states."""
    ready = tuple(code for code, state in states.items() if state.status is MatchStatus.READY)
    still_in: set[int] = set()
    last_place: dict[int, int | None] = {}
    for match in structure.matches:
        state = states[match.code]
        if state.status in (MatchStatus.WAITING, MatchStatus.READY):
            still_in.update(state.teams)
        elif state.status is MatchStatus.DECIDED:
            last_place[state.winner] = match.winner_place
            last_place[state.loser] = match.loser_place
    placings = [
        Placing(place=place, seed=seed)
        for seed, place in last_place.items()
        if place is not None and seed not in still_in
    ]
    is_complete = all(
        state.status not in (MatchStatus.WAITING, MatchStatus.READY) for state in states.values()
    )
    return BracketState(
        matches=states,
        ready=ready,
        placings=tuple(sorted(placings, key=lambda placing: (placing.place, placing.seed))),
        is_complete=is_complete,
    )


def structure_as_dict(structure: Structure) -> dict:
    """A JSON-ready description of ``structure``: what a blank bracket sheet shows."""
    return {
        "kind": str(structure.kind),
        "teams": structure.team_count,
        "third_place": structure.third_place,
        "grand_final_reset": structure.grand_final_reset,
        "cycles": structure.cycles,
        "pools": [{"name": pool.name, "seeds": list(pool.seeds)} for pool in structure.pools],
        "matches": [
            {
                "code": match.code,
                "bracket": str(match.bracket),
                "round": match.round,
                "pool": match.pool,
                "slots": [_slot_as_dict(slot) for slot in match.slots],
                "is_bye": match.is_bye,
                "reset_of": match.reset_of,
                "winner_place": match.winner_place,
                "loser_place": match.loser_place,
            }
            for match in structure.matches
        ],
    }


def _slot_as_dict(slot: Slot) -> dict:
    described: dict = {"kind": str(slot.kind), "label": slot.label}
    if slot.kind is SlotKind.SEED:
        described["seed"] = slot.seed
    elif slot.kind in (SlotKind.WINNER, SlotKind.LOSER):
        described["match"] = slot.match
    elif slot.kind is SlotKind.POOL_PLACE:
        described["pool"] = slot.pool
        described["place"] = slot.place
    return described


def bye_flags(matches: Sequence[Match]) -> tuple[Match, ...]:
    """Return ``matches`` with ``is_bye`` set wherever a slot is a bye whatever the results.

    A slot is sure to be a bye when it is the bye slot, the winner of a match between two byes, or
    the loser of a match with a bye in it. Seeds and pool places are never byes.
    """
    empty: dict[str, tuple[bool, bool]] = {}
    flagged = []
    for match in matches:
        sides = tuple(_is_sure_bye(slot, empty) for slot in match.slots)
        empty[match.code] = sides
        flagged.append(replace(match, is_bye=any(sides)))
    return tuple(flagged)


def _is_sure_bye(slot: Slot, empty: Mapping[str, tuple[bool, bool]]) -> bool:
    if slot.kind is SlotKind.BYE:
        return True
    if slot.kind is SlotKind.WINNER:
        return all(empty[slot.match])
    if slot.kind is SlotKind.LOSER:
        return any(empty[slot.match])
    return False
