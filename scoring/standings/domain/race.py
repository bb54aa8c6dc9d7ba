"""The playoff race: who has clinched a place, who is eliminated, and the odds for the rest.

Pure Python, no Django. A service gives the standing of every entrant on the season's first
ranking measure and the games still to play; this module proves what is already certain and
estimates the rest.

Words used here
---------------
units
    What an entrant has on the first measure, in whole numbers: one unit a won game when games
    cannot be drawn, or two units a win and one a draw when they can (so a draw's half win stays a
    whole number). Known future results that do not depend on play (a bye that counts as a win)
    are added by the caller.
games
    For ``win_pct``, how many games the entrant will have played when the season ends (played,
    still to play, and counted byes). Win percentage is ``units / games``; with no games it is 0.
spots
    How many entrants make the playoffs (the cut line). First place is the race with one spot.
clinched
    Certain to finish within the spots whatever happens in the remaining games *and whatever the
    later tie-breaks say*: in every outcome at most ``spots - 1`` other entrants end level with or
    ahead of it on the first measure.
eliminated
    Certain to finish outside the spots whatever happens: in every outcome at least ``spots``
    other entrants end strictly ahead of it on the first measure, so no tie-break can save it.
not yet decided
    Neither of the above could be proven within the search budget. Where the proof is cheap it is
    always found (one spot is a single max-flow); the budget only limits how many sets of
    rivals the search tries for several spots, and running out is reported, never guessed.

How it is proven
----------------
The classic sports-elimination network (Schwartz 1966; Wayne's max-flow form): every remaining
game is a source of units, each game can hand its units to either of its two entrants, and each
entrant is a sink with a capacity. An entrant is *not* eliminated when, after it wins every game it
has left, the other games can be shared out so that at most ``spots - 1`` rivals pass it: the
rivals allowed to pass get no cap, the rest are capped at what keeps them level or below. It has
*not* clinched when, after it loses every game it has left, some ``spots`` rivals can each be
brought level or ahead, which is a flow whose demands must all be met. Winning one's own games is
always best for the entrant (and losing them worst), so those two outcomes are the only ones to
check for it; the choice of rivals is searched, smallest sets of demands first.

The clinch search is kept short by *cores* (Hall's condition): a set of rivals whose remaining
games, and the subject's losses to them, hand out fewer units than they need between them can
never all be brought level, so no set holding them is tried. Every pair is checked by counting
before the search, and each failed flow names a core in its minimum cut. The flows are Dinic's on
small integer networks (one node per pair of rivals that still meet), not a general graph library.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Literal

from core.errors import DomainError
from scoring.standings.domain.race_flow import (
    SINK,
    SOURCE,
    covering_sets,
    greedy_fits,
    greedy_meets,
    max_flow,
)

Measure = Literal["wins", "win_pct"]
MEASURES: tuple[Measure, ...] = ("wins", "win_pct")

DEFAULT_NEEDS_SETS = 1_000
"""The sets of rivals the search for the fewest wins that clinch may try for the whole report,
shared out among the entrants still in the race (it asks the clinch question once per candidate
count of wins); past it a sentence claims only what was proven."""

DEFAULT_RIVAL_SETS = 5_000
"""How many sets of rivals the exact search may try for one entrant and one cut line before it
says "not yet decided". Tens of teams with a handful of spots stay far below it in practice."""


@dataclass(frozen=True)
class RaceEntrant:
    """One entrant's standing on the first measure: ``units`` so far (plus certain byes) and, for
    win percentage, ``games`` at the end of the season."""

    id: int
    units: int
    games: int = 0


@dataclass(frozen=True)
class RaceInput:
    """The race as it stands: the entrants, the games still to play (pairs of entrant ids, once
    per game), whether a game can be drawn, the first measure and the number of playoff spots."""

    entrants: tuple[RaceEntrant, ...]
    remaining: tuple[tuple[int, int], ...]
    measure: Measure = "wins"
    spots: int = 1
    draws_possible: bool = False

    def __post_init__(self) -> None:
        if self.measure not in MEASURES:
            raise DomainError(f"The race is decided on wins or win percentage, not {self.measure}.")
        ids = [entrant.id for entrant in self.entrants]
        if len(set(ids)) != len(ids):
            raise DomainError("Each entrant can be in the race once.")
        known = set(ids)
        for first, second in self.remaining:
            if first == second or first not in known or second not in known:
                raise DomainError(
                    f"A remaining game must be between two entrants: {first, second}."
                )
        if self.spots < 1:
            raise DomainError("A race has at least one spot.")

    @property
    def unit(self) -> int:
        """Units one game hands out: 1, or 2 when a draw splits them."""
        return 2 if self.draws_possible else 1


@dataclass(frozen=True)
class Certainty:
    """What is proven for one entrant and one cut line: ``clinched`` or ``eliminated`` (both
    False while the race is open); ``decided`` is False when the search ran out of budget before
    it could prove either way."""

    clinched: bool
    eliminated: bool
    decided: bool = True


def _pair(first: int, second: int) -> tuple[int, int]:
    """Two entrants in a fixed order, to count the games between them."""
    return (first, second) if first < second else (second, first)


class _Race:
    """The race seen from one entrant: its best and worst final units and each rival's line."""

    def __init__(self, race: RaceInput):
        self.race = race
        self.by_id = {entrant.id: entrant for entrant in race.entrants}
        self.left = Counter()
        self.meetings = Counter(_pair(first, second) for first, second in race.remaining)
        for first, second in race.remaining:
            self.left[first] += 1
            self.left[second] += 1

    def most(self, entrant: int) -> int:
        return self.by_id[entrant].units + self.race.unit * self.left[entrant]

    def _ahead_cap(self, rival: int, subject: int, subject_units: int) -> int:
        """The most units ``rival`` can end with and still not be strictly ahead of ``subject``."""
        if self.race.measure == "wins":
            return subject_units
        own, theirs = self.by_id[subject].games, self.by_id[rival].games
        if own == 0:
            return 0
        return subject_units * theirs // own

    def _level_need(self, rival: int, subject: int, subject_units: int) -> float:
        """The fewest units ``rival`` must end with to be level with or ahead of ``subject``
        (infinite when no number will do: a rival with no games stays at 0 %)."""
        if self.race.measure == "wins":
            return subject_units
        own, theirs = self.by_id[subject].games, self.by_id[rival].games
        if own == 0 or subject_units == 0:
            return 0
        if theirs == 0:
            return math.inf
        return -(-subject_units * theirs // own)

    def _others_games(self, subject: int) -> list[tuple[int, int]]:
        return [game for game in self.race.remaining if subject not in game]

    def _flow(self, games: Sequence[tuple[int, int]], capacities: Mapping[int, int | None]) -> int:
        """The most units the ``games`` can hand out with each entrant taking at most its
        capacity (an entrant absent from ``capacities`` takes any number)."""
        unit = self.race.unit
        total = unit * len(games)
        if greedy_fits(games, capacities, unit):
            return total
        # A game with an uncapped side hands out all its units whatever else happens; the rest
        # are grouped by pair (a pair's games are interchangeable).
        absorbed = 0
        pairs: Counter[tuple[int, int]] = Counter()
        for first, second in games:
            if capacities.get(first) is None or capacities.get(second) is None:
                absorbed += unit
            else:
                pairs[_pair(first, second)] += 1
        node = {
            entrant: 2 + position for position, entrant in enumerate({e for p in pairs for e in p})
        }
        edges = [(node[entrant], SINK, capacities[entrant]) for entrant in node]
        infinite = total + 1
        for position, ((first, second), count) in enumerate(pairs.items(), start=2 + len(node)):
            edges += [
                (SOURCE, position, unit * count),
                (position, node[first], infinite),
                (position, node[second], infinite),
            ]
        value, _ = max_flow(2 + len(node) + len(pairs), edges)
        return absorbed + value

    def eliminated(self, subject: int, spots: int, budget: int) -> bool | None:
        """True if ``spots`` rivals finish strictly ahead in every outcome; None if undecided."""
        best = self.most(subject)
        rivals = [entrant for entrant in self.by_id if entrant != subject]
        caps = {rival: self._ahead_cap(rival, subject, best) for rival in rivals}
        already = [rival for rival in rivals if self.by_id[rival].units > caps[rival]]
        if len(already) >= spots:
            return True
        games = self._others_games(subject)
        # A rival already past the line may take any number of units; so may the rivals the
        # search lets pass. Releasing more rivals only helps, so exactly ``free`` are released.
        free = spots - 1 - len(already)
        contested = [
            rival
            for rival in rivals
            if rival not in already
            and self.most(rival) - self.race.unit * self.meetings[_pair(rival, subject)]
            > caps[rival]
        ]
        needed = self.race.unit * len(games)
        if free >= len(contested):
            return False
        base = {
            rival: caps[rival] - self.by_id[rival].units for rival in rivals if rival not in already
        }
        flow_capped = self._flow(games, base)
        if flow_capped == needed:
            return False
        # Releasing a rival adds at most its ``excess`` to any flow: the units of its games beyond
        # its cap. So a set of rivals whose excesses cannot cover the shortfall need not be tried,
        # and when even the largest excesses cannot, the subject is out without any search.
        unit = self.race.unit
        excess = {
            rival: max(0, unit * sum(rival in game for game in games) - base[rival])
            for rival in contested
        }
        contested.sort(key=lambda rival: -excess[rival])
        for tried, released in enumerate(
            covering_sets(contested, [excess[r] for r in contested], free, needed - flow_capped)
        ):
            if tried >= budget:
                return None
            capacities = {rival: cap for rival, cap in base.items() if rival not in released}
            if self._flow(games, capacities) == needed:
                return False
        return True

    def clinched(
        self,
        subject: int,
        spots: int,
        budget: int,
        wins: int = 0,
        cores: list[frozenset[int]] | None = None,
    ) -> bool | None:
        """True if at most ``spots - 1`` rivals end level or ahead in every outcome in which the
        subject wins ``wins`` of its remaining games (the others choosing which); None if
        undecided.

        The search tries sets of ``spots`` rivals that might all be brought level, the cheapest
        first. A *core* cuts it short: rivals whose games (and the subject's losses to them)
        hand out fewer units than they need between them, so no set holding them all can work
        (Hall's condition). Every pair of rivals is checked so by counting; a failed flow names
        a larger core in its minimum cut. Cores stay cores with more wins (needs only grow and
        losses only shrink); ``cores`` carries them between calls, each checked again before use.
        ``budget`` is how many flows the search may run."""
        unit = self.race.unit
        final = self.by_id[subject].units + unit * wins
        rivals = [entrant for entrant in self.by_id if entrant != subject]
        needs = {
            rival: self._level_need(rival, subject, final) - self.by_id[rival].units
            for rival in rivals
        }
        level = [rival for rival in rivals if needs[rival] <= 0]
        if len(level) >= spots:
            return False
        games = self._others_games(subject)
        against = Counter(
            second if first == subject else first
            for first, second in self.race.remaining
            if subject in (first, second)
        )
        losses = sum(against.values()) - wins
        loss_units = unit * losses
        own = Counter(entrant for game in games for entrant in game)
        reachable = [
            rival
            for rival in rivals
            if needs[rival] > 0
            and unit * (own[rival] + min(losses, against[rival])) >= needs[rival]
        ]
        short = spots - len(level)
        if len(reachable) < short:
            return True
        reachable.sort(key=lambda rival: needs[rival])
        bit = {rival: 1 << position for position, rival in enumerate(reachable)}
        need_of = [needs[rival] for rival in reachable]
        against_of = [against[rival] for rival in reachable]
        game_masks = [
            mask for first, second in games if (mask := bit.get(first, 0) | bit.get(second, 0))
        ]

        def members(mask: int) -> list[int]:
            return [position for position in range(len(reachable)) if mask >> position & 1]

        def is_core(mask: int) -> bool:
            """Whether the rivals in ``mask`` cannot all reach their needs (counting)."""
            inside = members(mask)
            supply = unit * sum(1 for game in game_masks if game & mask)
            supply += min(loss_units, unit * sum(against_of[position] for position in inside))
            return supply < sum(need_of[position] for position in inside)

        conflict = [0] * len(reachable)
        between = Counter(game for game in game_masks if game & (game - 1))
        for a, b in combinations(range(len(reachable)), 2):
            first, second = reachable[a], reachable[b]
            touching = own[first] + own[second] - between[(1 << a) | (1 << b)]
            supply = unit * touching + min(loss_units, unit * (against_of[a] + against_of[b]))
            if supply < need_of[a] + need_of[b]:
                conflict[a] |= 1 << b
                conflict[b] |= 1 << a
        core_masks = []
        for core in cores or ():
            if all(rival in bit for rival in core):
                mask = sum(bit[rival] for rival in core)
                if is_core(mask):
                    core_masks.append(mask)

        visits = 0
        visit_limit = 50 * budget + 1_000

        def extend(start: int, mask: int, size: int):
            nonlocal visits
            if size == short:
                yield mask
                return
            for position in range(start, len(reachable) - (short - size) + 1):
                visits += 1
                if visits > visit_limit:
                    return
                if conflict[position] & mask:
                    continue
                grown = mask | 1 << position
                if any(core & grown == core for core in core_masks):
                    continue
                yield from extend(position + 1, grown, size + 1)

        tried = 0
        for mask in extend(0, 0, 0):
            if any(core & mask == core for core in core_masks):
                continue  # a core found since this set was reached
            demand = {reachable[position]: need_of[position] for position in members(mask)}
            relevant = [game for game in games if game[0] in demand or game[1] in demand]
            lost_to = [rival for rival in demand if against[rival]]
            if greedy_meets(
                relevant,
                [rival for rival in lost_to for _ in range(against[rival])],
                loss_units,
                demand,
                unit,
            ):
                return False
            if tried >= budget:
                return None
            tried += 1
            met, short_side = self._demand_flow(relevant, against, loss_units, demand)
            if met:
                return False
            core = sum(bit[rival] for rival in short_side)
            if core and is_core(core):
                core_masks.append(core)
                if cores is not None:
                    cores.append(frozenset(short_side))
        if visits > visit_limit:
            return None
        return True

    def _demand_flow(
        self,
        games: Sequence[tuple[int, int]],
        against: Mapping[int, int],
        loss_units: int,
        demand: Mapping[int, int],
    ) -> tuple[bool, list[int]]:
        """Whether the ``games``, and the subject's games against the rivals (``against``
        counts them; at most ``loss_units`` of their units lost), can meet every ``demand``;
        when they cannot, the demanding rivals on the sink side of a minimum cut (a core)."""
        unit = self.race.unit
        node = {entrant: 2 + position for position, entrant in enumerate(demand)}
        direct: Counter[int] = Counter()
        pairs: Counter[tuple[int, int]] = Counter()
        for first, second in games:
            if first in demand and second in demand:
                pairs[_pair(first, second)] += 1
            else:
                direct[first if first in demand else second] += unit
        total = sum(demand.values())
        infinite = total + unit * (len(games) + sum(against.values())) + 1
        edges = [(node[entrant], SINK, need) for entrant, need in demand.items()]
        edges += [(SOURCE, node[entrant], units) for entrant, units in direct.items()]
        count = 2 + len(node)
        for (first, second), games_of_pair in pairs.items():
            edges += [
                (SOURCE, count, unit * games_of_pair),
                (count, node[first], infinite),
                (count, node[second], infinite),
            ]
            count += 1
        lost = [(node[rival], unit * against[rival]) for rival in demand if against.get(rival)]
        if lost and loss_units:
            losses = count
            count += 1
            edges.append((SOURCE, losses, loss_units))
            edges += [(losses, rival, units) for rival, units in lost]
        value, reached = max_flow(count, edges)
        if value >= total:
            return True, []
        return False, [entrant for entrant in demand if not reached[node[entrant]]]

    def wins_to_clinch(self, subject: int, spots: int, budget: int) -> tuple[int | None, bool]:
        """How many of its remaining games the subject must win to clinch whatever else happens
        (0 once clinched), and whether that is proven to be the fewest. ``(None, True)``: even
        winning them all leaves it to other results; ``(None, False)``: not proven either way.
        A count whose smaller neighbours the search could not settle is still a proven clinch,
        only perhaps not the fewest."""
        # Each extra win only helps, so the fewest is found by bisection. The cores found at
        # one count are offered to the next (each re-checked), and a witness at one count of
        # wins is one at every smaller count, which the bisection never asks again.
        cores: list[frozenset[int]] = []
        low, high = 0, self.left[subject]
        at_most = self.clinched(subject, spots, budget, wins=high, cores=cores)
        if at_most is not True:
            return None, at_most is False
        fewest = True
        while low < high:
            middle = (low + high) // 2
            proven = self.clinched(subject, spots, budget, wins=middle, cores=cores)
            if proven is True:
                high = middle
            else:
                fewest = fewest and proven is False
                low = middle + 1
        return low, fewest


def race_certainty(
    race: RaceInput, *, spots: int | None = None, budget: int = DEFAULT_RIVAL_SETS
) -> dict[int, Certainty]:
    """For every entrant, whether it has clinched one of ``spots`` places (the race's own by
    default) or is eliminated from them, proven over every outcome of the remaining games."""
    spots = race.spots if spots is None else spots
    view = _Race(race)
    result = {}
    for entrant in race.entrants:
        if spots >= len(race.entrants):
            result[entrant.id] = Certainty(clinched=True, eliminated=False)
            continue
        eliminated = view.eliminated(entrant.id, spots, budget)
        clinched = False if eliminated else view.clinched(entrant.id, spots, budget)
        result[entrant.id] = Certainty(
            clinched=clinched is True,
            eliminated=eliminated is True,
            decided=True in (eliminated, clinched) or (eliminated, clinched) == (False, False),
        )
    return result


DEFAULT_RUNS = 10_000
"""Simulated seasons for the odds: at 10,000 runs the 95 % interval of any chance is within
±1 point (1.96 * sqrt(0.25 / 10,000) = 0.0098)."""


@dataclass(frozen=True)
class RaceLine:
    """One entrant's race: the proofs for the playoff spots and for first place, the simulated
    chances (0 to 1; exactly 1 once clinched and 0 once eliminated), the fewest wins that clinch
    on its own results, and the range of final ranks seen in the middle 90 % of simulations."""

    id: int
    playoffs: Certainty
    first: Certainty
    playoff_chance: float
    first_chance: float
    wins_to_clinch: int | None
    needs_help: bool
    games_left: int
    best_rank: int
    worst_rank: int

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "clinched": self.playoffs.clinched,
            "eliminated": self.playoffs.eliminated,
            "decided": self.playoffs.decided,
            "clinched_first": self.first.clinched,
            "eliminated_first": self.first.eliminated,
            "playoff_chance": round(self.playoff_chance, 4),
            "first_chance": round(self.first_chance, 4),
            "wins_to_clinch": self.wins_to_clinch,
            "needs_help": self.needs_help,
            "games_left": self.games_left,
            "best_rank": self.best_rank,
            "worst_rank": self.worst_rank,
        }


@dataclass(frozen=True)
class RaceReport:
    """The race of every entrant, and the stakes of the remaining games asked about: ``stakes``
    maps a game's index in ``RaceInput.remaining`` to its leverage (see :func:`race_report`)."""

    spots: int
    runs: int
    seed: int
    lines: tuple[RaceLine, ...] = field(default_factory=tuple)
    stakes: dict[int, float] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "spots": self.spots,
            "runs": self.runs,
            "seed": self.seed,
            "lines": [line.to_dict() for line in self.lines],
            "stakes": {str(index): round(value, 4) for index, value in self.stakes.items()},
        }


def _simulate(
    race: RaceInput,
    probabilities: Sequence[float],
    order: Sequence[int],
    runs: int,
    seed: int,
    stakes_for: Sequence[int] = (),
) -> tuple[dict[int, int], dict[int, int], dict[int, list[int]], dict[int, float]]:
    """Play the remaining games ``runs`` times; count top-``spots`` and first-place finishes
    and every final rank. Ties on the first measure keep the order given (the season's chain as
    it stands), which no proof relies on.

    For each game index in ``stakes_for``, also count the top-``spots`` finishes apart by that
    game's result, and give its leverage: half the sum over entrants of
    ``|P(top | first wins) - P(top | second wins)|``, the playoff places its result moves (the
    chances always add up to ``spots``, so what one side gains the others lose; 0 when the
    simulation never saw one of the results)."""
    rng = random.Random(seed)
    ids = [entrant.id for entrant in race.entrants]
    index = {entrant: position for position, entrant in enumerate(ids)}
    start = [entrant.units for entrant in race.entrants]
    games = [entrant.games or 1 for entrant in race.entrants]
    no_games = [entrant.games == 0 for entrant in race.entrants]
    tiebreak = [0] * len(ids)
    for position, entrant in enumerate(order):
        tiebreak[index[entrant]] = -position
    played = [
        (index[first], index[second], chance)
        for (first, second), chance in zip(race.remaining, probabilities, strict=True)
    ]
    unit = race.unit
    by_pct = race.measure == "win_pct"
    width = len(ids) + 1
    spots = race.spots
    top = [0] * len(ids)
    firsts = [0] * len(ids)
    ranks = [[0] * len(ids) for _ in ids]
    everyone = range(len(ids))
    watched = list(dict.fromkeys(stakes_for))
    # Per watched game and result (0: its first entrant won, 1: its second), the runs with that
    # result and each entrant's top-``spots`` finishes among them.
    seen = {game: [0, 0] for game in watched}
    tops = {game: ([0] * len(ids), [0] * len(ids)) for game in watched}
    for _ in range(runs):
        final = start[:]
        won = []
        for first, second, chance in played:
            if rng.random() < chance:
                final[first] += unit
                won.append(0)
            else:
                final[second] += unit
                won.append(1)
        if by_pct:
            value = [0.0 if no_games[k] else final[k] / games[k] for k in everyone]
            ranked = sorted(everyone, key=lambda k: (value[k], tiebreak[k]), reverse=True)
        else:
            # One whole number a key (units first, then the standing order) sorts faster than
            # pairs; ``tiebreak`` is above -len(ids), so the order never outweighs a unit.
            keys = [final[k] * width + tiebreak[k] for k in everyone]
            ranked = sorted(everyone, key=keys.__getitem__, reverse=True)
        if not ranked:
            continue  # nobody in the race: nothing to count
        firsts[ranked[0]] += 1
        for rank, k in enumerate(ranked):
            ranks[k][rank] += 1
        for k in ranked[:spots]:
            top[k] += 1
        for game in watched:
            result = won[game]
            seen[game][result] += 1
            counts = tops[game][result]
            for k in ranked[:spots]:
                counts[k] += 1
    stakes = {}
    for game in watched:
        runs_a, runs_b = seen[game]
        if not runs_a or not runs_b:
            stakes[game] = 0.0
            continue
        tops_a, tops_b = tops[game]
        moved = sum(abs(tops_a[k] / runs_a - tops_b[k] / runs_b) for k in everyone)
        stakes[game] = moved / 2
    return (
        {ids[k]: top[k] for k in everyone},
        {ids[k]: firsts[k] for k in everyone},
        {ids[k]: ranks[k] for k in everyone},
        stakes,
    )


def _rank_range(counts: Sequence[int], runs: int) -> tuple[int, int]:
    """The ranks (1-based) between the 5th and 95th percentiles of the simulated finishes."""
    low_cut, high_cut = 0.05 * runs, 0.95 * runs
    seen = 0
    best = worst = None
    for rank, count in enumerate(counts, start=1):
        if count == 0:
            continue
        seen += count
        if best is None and seen > low_cut:
            best = rank
        if worst is None and seen >= high_cut:
            worst = rank
    return best or 1, worst or len(counts)


def race_report(
    race: RaceInput,
    *,
    probabilities: Sequence[float] | None = None,
    order: Sequence[int] | None = None,
    runs: int = DEFAULT_RUNS,
    seed: int = 0,
    budget: int = DEFAULT_RIVAL_SETS,
    needs_budget: int = DEFAULT_NEEDS_SETS,
    stakes_for: Sequence[int] = (),
) -> RaceReport:
    """The whole race: proofs for the playoff spots and first place, and odds from ``runs``
    simulated seasons (seeded, so the same input gives the same odds). ``probabilities`` gives,
    for each remaining game in order, the chance that its first entrant wins (0.5 each when
    omitted); ``order`` is the current standing order, which breaks ties in the simulation.
    ``stakes_for`` lists indices of remaining games whose leverage on the cut line to estimate
    from the same simulated seasons (the playoff places their result moves, 0 to ``spots``)."""
    if probabilities is None:
        probabilities = [0.5] * len(race.remaining)
    if len(probabilities) != len(race.remaining):
        raise DomainError("Give one win probability for each remaining game.")
    if any(not 0 <= chance <= 1 for chance in probabilities):
        raise DomainError("A win probability is between 0 and 1.")
    if runs < 1:
        raise DomainError("Simulate at least one season.")
    if any(not 0 <= index < len(race.remaining) for index in stakes_for):
        raise DomainError("Stakes are asked of remaining games only.")
    order = list(order) if order is not None else [entrant.id for entrant in race.entrants]
    playoffs = race_certainty(race, budget=budget)
    first = race_certainty(race, spots=1, budget=budget) if race.spots > 1 else playoffs
    top, firsts, ranks, stakes = _simulate(race, probabilities, order, runs, seed, stakes_for)
    # A game between two entrants whose fate is proven (each clinched or eliminated) moves no
    # place: the one is in and the other out whatever happens, and no third entrant's wins change,
    # so the order of the rest for the remaining spots cannot either. The simulation would only
    # show sampling noise there, so the proof's exact 0 is given instead.
    settled = {entrant for entrant, proof in playoffs.items() if proof.clinched or proof.eliminated}
    for index in stakes:
        if set(race.remaining[index]) <= settled:
            stakes[index] = 0.0
    view = _Race(race)
    open_race = sum(not (proof.clinched or proof.eliminated) for proof in playoffs.values())
    needs_each = max(5, needs_budget // max(1, open_race))
    lines = []
    for entrant in race.entrants:
        proven, proven_first = playoffs[entrant.id], first[entrant.id]
        chance = top[entrant.id] / runs
        first_chance = firsts[entrant.id] / runs
        # The proofs hold over every outcome, so the simulation can only agree with them; they
        # are applied anyway so that no rounding ever shows a doubt about a certainty.
        if proven.clinched:
            chance = 1.0
        elif proven.eliminated:
            chance = 0.0
        if proven_first.clinched:
            first_chance = 1.0
        elif proven_first.eliminated:
            first_chance = 0.0
        if proven.clinched:
            wins, needs_help = 0, False
        elif proven.eliminated:
            wins, needs_help = None, False
        else:
            wins, _fewest = view.wins_to_clinch(entrant.id, race.spots, needs_each)
            needs_help = wins is None and _fewest
        best, worst = _rank_range(ranks[entrant.id], runs)
        lines.append(
            RaceLine(
                id=entrant.id,
                playoffs=proven,
                first=proven_first,
                playoff_chance=chance,
                first_chance=first_chance,
                wins_to_clinch=wins,
                needs_help=needs_help,
                games_left=view.left[entrant.id],
                best_rank=best,
                worst_rank=worst,
            )
        )
    return RaceReport(spots=race.spots, runs=runs, seed=seed, lines=tuple(lines), stakes=stakes)


def race_need(line: RaceLine, spots: int) -> str:
    """What an entrant needs, in a plain sentence for the standings page."""
    place = "first place" if spots == 1 else f"a top-{spots} place"
    if line.playoffs.clinched:
        return f"Has clinched {place}."
    if line.playoffs.eliminated:
        return f"Can no longer finish in {place}."
    if not line.playoffs.decided:
        return "Not yet decided."
    if line.wins_to_clinch is not None:
        games = "game" if line.games_left == 1 else "games"
        if line.wins_to_clinch == line.games_left == 1:
            return f"Clinches {place} by winning its last game."
        if line.wins_to_clinch == line.games_left:
            return f"Clinches {place} by winning its last {line.games_left} {games}."
        return (
            f"Clinches {place} by winning {line.wins_to_clinch} of its last "
            f"{line.games_left} {games}."
        )
    if line.needs_help:
        return f"Can still reach {place}, but needs other results to go its way."
    return f"Can still reach {place}."


def stake_sentence(leverage: float) -> str:
    """What a coming game's result does to the cut line, from its leverage (the playoff places
    its result moves, see :func:`race_report`), in words for the organiser's night page."""
    if leverage < 0.05:
        return "changes little for the playoffs"
    if 0.95 <= leverage < 1.05:
        return "decides a playoff place"
    if leverage < 1:
        return f"moves {leverage:.1f} of a playoff place"
    return f"moves {leverage:.1f} playoff places"
