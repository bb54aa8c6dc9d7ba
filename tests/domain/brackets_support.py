"""Helpers for the bracket tests: play a structure through, and read what happened.

Kept independent of the engine's internals: they only use ``play`` and the structure's public
data, so the properties they check are checked from the outside.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from tournaments.domain.brackets import (
    BracketState,
    MatchStatus,
    SlotKind,
    Structure,
    play,
)


@dataclass(frozen=True)
class PlayedThrough:
    """A structure played to the end: the results, the final state, and each wave's matches."""

    results: dict[str, int]
    state: BracketState
    waves: list[tuple[str, ...]]

    @property
    def losses(self) -> Counter:
        """How many real matches each seed lost."""
        return Counter(
            self.state.matches[code].loser
            for code in self.results
            if self.state.matches[code].status is MatchStatus.DECIDED
        )


def play_through(
    structure: Structure,
    rng: random.Random,
    *,
    choose: Callable[[str, tuple[int, ...]], int] | None = None,
    one_match_at_a_time: bool = True,
) -> PlayedThrough:
    """Decide every ready match, wave after wave, until none is left.

    ``choose(code, teams)`` picks the winner (default: at random). In a knockout each wave checks
    that no team is in two ready matches at once (in a round robin, every match is ready at once).
    """
    results: dict[str, int] = {}
    waves = []
    state = play(structure, results)
    while state.ready:
        seen: Counter = Counter()
        for code in state.ready:
            teams = state.matches[code].teams
            seen.update(teams)
            results[code] = choose(code, teams) if choose else rng.choice(teams)
        if one_match_at_a_time:
            assert max(seen.values()) == 1, "a team is in two ready matches at once"
        waves.append(state.ready)
        state = play(structure, results)
    return PlayedThrough(results=results, state=state, waves=waves)


def favourites(code: str, teams: tuple[int, ...]) -> int:
    """The better seed wins."""
    return min(teams)


def underdogs(code: str, teams: tuple[int, ...]) -> int:
    """The worse seed wins."""
    return max(teams)


def teams_by_round(structure: Structure, state: BracketState) -> dict[tuple[str, int], list[int]]:
    """The teams that played (real matches) in each (bracket, round)."""
    played: dict[tuple[str, int], list[int]] = {}
    for match in structure.matches:
        match_state = state.matches[match.code]
        if match_state.status is MatchStatus.DECIDED:
            played.setdefault((str(match.bracket), match.round), []).extend(match_state.teams)
    return played


def first_round_lines(structure: Structure) -> list[int | None]:
    """The ``W1`` lines, in order: a seed, or ``None`` for a bye."""
    lines = []
    for match in structure.matches:
        if match.code.startswith("W1-"):
            for slot in match.slots:
                lines.append(slot.seed if slot.kind is SlotKind.SEED else None)
    return lines


def feeders(structure: Structure) -> dict[str, set[str]]:
    """For each match, the matches that feed it directly (through a winner or loser slot)."""
    fed: dict[str, set[str]] = {match.code: set() for match in structure.matches}
    for match in structure.matches:
        for slot in match.slots:
            if slot.kind in (SlotKind.WINNER, SlotKind.LOSER):
                fed[match.code].add(slot.match)
    return fed


def downstream(structure: Structure, code: str) -> set[str]:
    """Every match that ``code`` feeds, directly or through other matches."""
    fed = feeders(structure)
    reached: set[str] = set()
    frontier = {code}
    while frontier:
        frontier = {
            later for later, sources in fed.items() if sources & frontier and later not in reached
        }
        reached |= frontier
    return reached
