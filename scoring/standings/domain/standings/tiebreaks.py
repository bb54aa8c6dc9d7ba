"""The tie-break chain at work: each measure's value per entrant (Buchholz, the recorded coin
flip, head-to-head within a tied group) and the recursive split of a tied group, best first,
remembering the decision that placed each entrant. The words are defined in
:mod:`scoring.standings.domain.standings`.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from scoring.standings.domain.standings.explain import Decision, name_list, record_shown, shown_pair
from scoring.standings.domain.standings.explain import reason as decision_reason
from scoring.standings.domain.standings.records import EntrantRecord
from scoring.standings.domain.standings.rules import MEASURE_LABELS, PRECISION, SeasonRules


def _buchholz(records: dict[int, EntrantRecord]) -> dict[int, float]:
    score = {entrant: record.score for entrant, record in records.items()}.__getitem__
    return {
        entrant: sum(
            [sum(map(score, opponents)) / len(opponents) for opponents, _ in record.meetings]
        )
        for entrant, record in records.items()
    }


def _opponent_scores(records: dict[int, EntrantRecord]) -> dict[int, list[tuple[float, float]]]:
    """Per entrant, one ``(opposing side's score, result)`` per counted game with an opponent,
    the side's score being the mean of its entrants' scores (as Buchholz reads it)."""
    score = {entrant: record.score for entrant, record in records.items()}.__getitem__
    return {
        entrant: [
            (sum(map(score, opponents)) / len(opponents), result)
            for opponents, result in record.meetings
        ]
        for entrant, record in records.items()
    }


def _cut(values: list[float], lowest: int, highest: int) -> float:
    """The sum of ``values`` less its ``lowest`` smallest and ``highest`` largest (0 when that
    leaves none)."""
    kept = sorted(values)[lowest : len(values) - highest]
    return sum(kept)


def _progressive(record: EntrantRecord) -> float:
    """The sum of the entrant's score after each of its counted games, in played order."""
    running = total = 0.0
    for played in sorted(record.played):
        running += played.result
        total += running
    return total


def _each_game_values(measure: str, records: dict[int, EntrantRecord]) -> dict[int, float]:
    """The values of a measure read from each counted game (Buchholz cut 1 and median,
    Sonneborn-Berger, progressive score)."""
    if measure == "progressive":
        return {entrant: _progressive(record) for entrant, record in records.items()}
    faced = _opponent_scores(records)
    if measure == "buchholz_cut1":
        return {e: _cut([s for s, _ in games], 1, 0) for e, games in faced.items()}
    if measure == "buchholz_median":
        return {e: _cut([s for s, _ in games], 1, 1) for e, games in faced.items()}
    return {e: sum(s * result for s, result in games) for e, games in faced.items()}


@dataclass
class _GroupPoints:
    """Points scored and let in by each entrant of a tied group in its counted games against the
    group's other entrants (a game counts once, however many of them sat opposite)."""

    points_for: dict[int, float]
    points_against: dict[int, float]
    met: bool

    def value(self, measure: str, entrant: int) -> float:
        if measure == "head_to_head_points":
            return self.points_for[entrant]
        return self.points_for[entrant] - self.points_against[entrant]


def coin_flip_draw(seed: int, entrant: int) -> int:
    """The entrant's recorded coin-flip number under ``seed`` (higher goes first).

    SHA-256 of ``"seed:entrant"``, first 48 bits: the same everywhere, safe in JSON.
    """
    digest = hashlib.sha256(f"{seed}:{entrant}".encode()).hexdigest()
    return int(digest[:12], 16)


@dataclass
class _HeadToHead:
    wins: dict[int, int]
    losses: dict[int, int]
    draws: dict[int, int]
    beat: dict[int, set[int]]
    met: bool

    def balance(self, entrant: int) -> int:
        return self.wins[entrant] - self.losses[entrant]

    def shown(self, entrant: int) -> str:
        return record_shown(self.wins[entrant], self.losses[entrant], self.draws[entrant])

    def has_cycle(self) -> bool:
        """Whether "beat on balance" among the group goes round in a circle.

        Kahn's topological sort: entrants nobody beat are peeled off one by one; if some are
        left, each of them was beaten by another one left, so the results go round in a circle.
        """
        beaten_by = dict.fromkeys(self.beat, 0)
        for losers in self.beat.values():
            for loser in losers:
                beaten_by[loser] += 1
        unbeaten = [entrant for entrant, count in beaten_by.items() if count == 0]
        peeled = 0
        while unbeaten:
            peeled += 1
            for loser in self.beat[unbeaten.pop()]:
                beaten_by[loser] -= 1
                if beaten_by[loser] == 0:
                    unbeaten.append(loser)
        return peeled < len(self.beat)


def _results_from_meetings(record: EntrantRecord) -> dict[int, list[int]]:
    """An entrant's ``[wins, losses, draws]`` against each opponent, counted from its meetings
    (each opponent of a meeting counts once per game)."""
    results: dict[int, list[int]] = {}
    for opponents, result in record.meetings:
        index = 0 if result == 1.0 else 1 if result == 0.0 else 2
        for opponent in opponents:
            line = results.get(opponent)
            if line is None:
                line = results[opponent] = [0, 0, 0]
            line[index] += 1
    return results


class Ranker:
    """Orders a group of entrants by the chain, remembering why each one sits where it does.

    ``buchholz`` and ``results_against`` (an entrant's ``[wins, losses, draws]`` against each
    opponent) are worked out from the records' meetings unless given, e.g. by running totals
    that keep them (:mod:`scoring.standings.domain.season_totals`)."""

    def __init__(
        self,
        records: dict[int, EntrantRecord],
        rules: SeasonRules,
        names: Mapping[int, str],
        *,
        buchholz: Mapping[int, float] | None = None,
        results_against: Callable[[int], Mapping[int, list[int]]] | None = None,
    ):
        self.records = records
        self.rules = rules
        self.names = names
        self.chain = rules.chain
        if buchholz is None:
            buchholz = _buchholz(records)
        self.buchholz = buchholz
        self.results_against = results_against or (
            lambda entrant: _results_from_meetings(records[entrant])
        )
        self.values: dict[str, dict[int, Any]] = {
            "win_pct": {e: r.win_pct for e, r in records.items()},
            "wins": {e: r.wins for e, r in records.items()},
            "points_for": {e: r.points_for for e, r in records.items()},
            "point_diff": {e: r.points_for - r.points_against for e, r in records.items()},
            "marches": {e: r.marches for e, r in records.items()},
            "loners_made": {e: r.loners_made for e, r in records.items()},
            "euchres_inflicted": {e: r.euchres_inflicted for e, r in records.items()},
            "buchholz": buchholz,
            "coin_flip": {e: coin_flip_draw(rules.coin_flip_seed, e) for e in records},
        }
        for measure in ("buchholz_cut1", "buchholz_median", "sonneborn_berger", "progressive"):
            if measure in self.chain:
                self.values[measure] = _each_game_values(measure, records)
        self.head_to_head_shown: dict[int, str] = {}
        self.group_values: dict[str, dict[int, float]] = defaultdict(dict)
        """The head-to-head points and point difference of each entrant in the last tied group
        it was compared in."""
        prefetch = getattr(self.results_against, "prefetch", None)
        if prefetch is not None and "head_to_head" in self.chain:
            # A lookup that reads on demand reads at once every entrant head-to-head may be
            # asked about: those level with another on every measure before it.
            before = self.chain[: self.chain.index("head_to_head")]
            level: dict[tuple, list[int]] = defaultdict(list)
            for entrant in records:
                key = tuple(round(self.values[m][entrant], PRECISION) for m in before)
                level[key].append(entrant)
            prefetch([e for group in level.values() if len(group) > 1 for e in group])

    def name(self, entrant: int) -> str:
        return self.names.get(entrant, f"#{entrant}")

    def names_of(self, group: list[int]) -> str:
        return name_list([self.name(e) for e in group])

    def head_to_head(self, group: list[int]) -> _HeadToHead:
        prefetch = getattr(self.results_against, "prefetch", None)
        if prefetch is not None:  # a lookup that reads on demand reads the group at once
            prefetch(group)
        wins = dict.fromkeys(group, 0)
        losses = dict.fromkeys(group, 0)
        draws = dict.fromkeys(group, 0)
        net: dict[tuple[int, int], float] = defaultdict(float)
        met = False
        for entrant in group:
            against = self.results_against(entrant)
            for opponent in group:  # only the group's (an entrant met hundreds of others)
                won, lost, drawn = against.get(opponent) or (0, 0, 0)
                if not won + lost + drawn:
                    continue
                met = True
                wins[entrant] += won
                losses[entrant] += lost
                draws[entrant] += drawn
                if won or lost:
                    net[entrant, opponent] += won - lost
        beat: dict[int, set[int]] = {e: set() for e in group}
        for (winner, loser), margin in net.items():
            if margin > 0:
                beat[winner].add(loser)
        h2h = _HeadToHead(wins, losses, draws, beat, met)
        for entrant in group:
            self.head_to_head_shown[entrant] = h2h.shown(entrant)
        return h2h

    def group_points(self, group: list[int]) -> _GroupPoints:
        """The points each entrant of ``group`` scored and let in against the others."""
        members = set(group)
        points_for = dict.fromkeys(group, 0.0)
        points_against = dict.fromkeys(group, 0.0)
        met = False
        for entrant in group:
            for played in self.records[entrant].played:
                if members.isdisjoint(played.opponents):
                    continue
                met = True
                points_for[entrant] += played.points_for
                points_against[entrant] += played.points_against
        return _GroupPoints(points_for, points_against, met)

    def group_note(self, measure: str, group: list[int], met: bool, shown: Any) -> str:
        """Why a group measure (head-to-head points or point difference) could not split
        ``group``."""
        if not met:
            if len(group) == 2:
                return f"{self.names_of(group)} have not played each other"
            return f"no head-to-head games among {self.names_of(group)}"
        label = MEASURE_LABELS[measure]
        if len(group) == 2:
            return f"level on {label} ({shown})"
        return f"level on {label} among {self.names_of(group)} ({shown} each)"

    def head_to_head_note(self, group: list[int], h2h: _HeadToHead) -> str:
        """Why head-to-head could not split ``group``."""
        if not h2h.met:
            if len(group) == 2:
                return f"{self.names_of(group)} have not played each other"
            return f"no head-to-head games among {self.names_of(group)}"
        if len(group) > 2 and h2h.has_cycle():
            return f"head-to-head is a cycle among {self.names_of(group)}"
        if len(group) == 2:
            return f"level on head-to-head ({h2h.shown(group[0])})"
        return f"level on head-to-head among {self.names_of(group)}"

    def order(self, group: list[int]) -> list[tuple[int, Decision | None]]:
        """``group`` best first, each entrant with how it was separated from the one above."""
        notes: list[str] = []
        for measure in self.chain:
            if measure == "coin_flip":
                break
            if measure == "head_to_head":
                h2h = self.head_to_head(group)
                keys = {e: h2h.balance(e) for e in group}
                shown = {e: h2h.shown(e) for e in group}
            elif measure in ("head_to_head_points", "head_to_head_diff"):
                points = self.group_points(group)
                shown = {e: points.value(measure, e) for e in group}
                keys = {e: round(value, PRECISION) for e, value in shown.items()}
                self.group_values[measure].update(shown)
            else:
                values = self.values[measure]
                keys = {e: round(values[e], PRECISION) for e in group}
                shown = values
            buckets: dict[Any, list[int]] = defaultdict(list)
            for entrant in sorted(group):
                buckets[keys[entrant]].append(entrant)
            if len(buckets) == 1:
                if measure == "head_to_head":
                    notes.append(self.head_to_head_note(group, h2h))
                elif measure in ("head_to_head_points", "head_to_head_diff"):
                    value = shown_pair(measure, shown[group[0]], shown[group[0]])[0]
                    notes.append(self.group_note(measure, group, points.met, value))
                continue
            ordered: list[tuple[int, Decision | None]] = []
            for key in sorted(buckets, reverse=True):
                bucket = buckets[key]
                placed = self.order(bucket) if len(bucket) > 1 else [(bucket[0], None)]
                if ordered:
                    above = ordered[-1][0]
                    first = placed[0][0]
                    own_value, above_value = shown_pair(measure, shown[first], shown[above])
                    decision = Decision(
                        measure, above, own_value, above_value, len(group), list(notes)
                    )
                    placed[0] = (first, decision)
                ordered.extend(placed)
            return ordered
        draws = self.values["coin_flip"]
        ordered_by_flip = sorted(group, key=lambda e: (-draws[e], e))
        placed = [(ordered_by_flip[0], None)]
        for above, entrant in pairwise(ordered_by_flip):
            placed.append((entrant, Decision("coin_flip", above, "", "", len(group), notes)))
        return placed

    def reason(self, decision: Decision, *, ahead_of: int | None = None) -> str:
        """The decision in words (:func:`scoring.standings.domain.standings.explain.reason`)."""
        return decision_reason(
            decision, name=self.name, coin_flip_seed=self.rules.coin_flip_seed, ahead_of=ahead_of
        )
