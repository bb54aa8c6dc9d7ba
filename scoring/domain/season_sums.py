"""A season's snapshot parts from scratch, out of sums a database has already made: each seat's
games and hand counts summed per player (and per team), and the games' seats and results.

Pure Python, no Django. The words of :mod:`scoring.domain.season_totals` apply; new ones:

pair counts
    Each entrant's games with each partner or opponent, and how many it won and lost (the rest
    are draws), counted over the games' seat columns with ``map`` and ``Counter`` (loops in C):
    a large season has over a million player-pairs of games.
line text
    A stats line as the JSON text ``json.dumps`` makes of the line
    :meth:`~scoring.domain.season_totals.SeasonTotals.player_line` (or ``team_line``) renders,
    character for character, written straight from the counts: the largest part of a snapshot
    (half a million partner and opponent records in a large season) is never built as dicts.

What it renders equals what :class:`~scoring.domain.season_totals.SeasonTotals` renders from the
same games (``tests/domain/test_season_sums.py`` proves it).
"""

from __future__ import annotations

import json
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import compress
from operator import add, sub
from typing import Any

from scoring.domain.stats import PlayerStats, TeamStats, _common

_RECORD_TEXT = '{"other_id": %d, "games": %d, "wins": %d, "losses": %d, "draws": %d}'
"""A partner or opponent record as ``json.dumps`` writes the dict of ``_pair_dicts``."""


class PairCounts:
    """Pair counts over entrants ``ids`` (see the module docstring): add columns of meetings
    with :meth:`add`, then read one entrant's records, or render every entrant's."""

    def __init__(self, ids: Sequence[int]) -> None:
        self.ids = list(ids)
        self.size = len(self.ids)
        self.games: Counter[int] = Counter()
        self.wins: Counter[int] = Counter()
        self.losses: Counter[int] = Counter()
        self._keys: list[int] | None = None
        self._records: dict[int, dict[int, list[int]]] = {}

    def add(
        self,
        who: Sequence[int],
        other: Sequence[int],
        won: Sequence[bool],
        lost: Sequence[bool],
    ) -> None:
        """Count one meeting per game: entrant ``who[g]`` (an index into ``ids``) met
        ``other[g]``, and won or lost as ``won[g]``, ``lost[g]`` say (neither: a draw)."""
        size = self.size
        keys = list(map(add, [index * size for index in who], other))
        self.games.update(keys)
        self.wins.update(compress(keys, won))
        self.losses.update(compress(keys, lost))
        self._keys = None
        self._records.clear()

    def _sorted(self) -> list[int]:
        if self._keys is None:
            self._keys = sorted(self.games)
        return self._keys

    def records_of(self, index: int) -> dict[int, list[int]]:
        """Entrant ``index``'s ``[wins, losses, draws]`` with each other entrant, by id."""
        if index in self._records:
            return self._records[index]
        keys = self._sorted()
        size, ids, games, wins, losses = self.size, self.ids, self.games, self.wins, self.losses
        found = {}
        for key in keys[bisect_left(keys, index * size) : bisect_left(keys, (index + 1) * size)]:
            won, lost = wins.get(key, 0), losses.get(key, 0)
            found[ids[key % size]] = [won, lost, games[key] - won - lost]
        self._records[index] = found
        return found

    def texts(self) -> list[str]:
        """Each entrant's records as the JSON text of a list, sorted by the other's id."""
        keys = self._sorted()
        size, ids, zeros = self.size, self.ids, [0] * len(keys)
        games = list(map(self.games.__getitem__, keys))
        wins = list(map(self.wins.get, keys, zeros))
        losses = list(map(self.losses.get, keys, zeros))
        draws = map(sub, map(sub, games, wins), losses)
        others = map(ids.__getitem__, map(size.__rmod__, keys))
        records = list(
            map(_RECORD_TEXT.__mod__, zip(others, games, wins, losses, draws, strict=True))
        )
        bounds = [bisect_left(keys, index * size) for index in range(size + 1)]
        return [
            "[" + ", ".join(records[bounds[index] : bounds[index + 1]]) + "]"
            for index in range(size)
        ]


def meet(
    pairs: PairCounts,
    sides: Sequence[Sequence[Sequence[int]]],
    results: Sequence[Sequence[int]],
    *,
    partners: PairCounts | None = None,
) -> None:
    """Count every meeting of the games given as columns: ``sides[s]`` the columns of side
    ``s``'s seats (indices into the counts' ids), ``results[s]`` its result per game (0 won, 1
    lost, 2 drawn). Opponents go to ``pairs``; partners (seats of one side) to ``partners``."""
    for side in (0, 1):
        won = [result == 0 for result in results[side]]
        lost = [result == 1 for result in results[side]]
        for who in sides[side]:
            for other in sides[1 - side]:
                pairs.add(who, other, won, lost)
            if partners is not None:
                for other in sides[side]:
                    if other is not who:
                        partners.add(who, other, won, lost)


def buchholz_sums(
    size: int, sides: Sequence[Sequence[Sequence[int]]], scores: Sequence[int]
) -> list[int]:
    """Each entrant's Buchholz times twice the side size: the sum over its games of the doubled
    scores (``2 * wins + draws``) of the other side's entrants. ``sides`` as for :func:`meet`,
    ``scores`` by index. Whole numbers, so exact; divided by twice the side size it is the very
    float :meth:`~scoring.domain.season_totals.SeasonTotals.buchholz_of` adds up."""
    sums = [0] * size
    side_scores = []
    for columns in sides:
        total = list(map(scores.__getitem__, columns[0]))
        for column in columns[1:]:
            total = list(map(add, total, map(scores.__getitem__, column)))
        side_scores.append(total)
    for side, columns in enumerate(sides):
        against = side_scores[1 - side]
        for column in columns:
            for index, value in zip(column, against, strict=True):
                sums[index] += value
    return sums


def _head(stats: Any, drop: Iterable[str]) -> str:
    """The JSON text of a stats line's dict without its record lists, open at the end."""
    line = stats.to_dict()
    for name in drop:
        del line[name]
    return json.dumps(line)[:-1]


def player_line_text(who: int, line: Sequence[int], partners: str, opponents: str) -> str:
    """A player's stats line (``line`` as :class:`SeasonTotals` keeps it) as JSON text, its
    partners and opponents given as texts (:meth:`PairCounts.texts`)."""
    stats = PlayerStats(
        player_id=who, **_common(list(line), list(line[8:])), partners=(), opponents=()
    )
    head = _head(stats, ("partners", "opponents"))
    return f'{head}, "partners": {partners}, "opponents": {opponents}}}'


def team_line_text(who: int, line: Sequence[int], opponents: str) -> str:
    """A team's stats line as JSON text (see :func:`player_line_text`)."""
    stats = TeamStats(team_id=who, **_common(list(line), list(line[8:])), opponents=())
    return f'{_head(stats, ("opponents",))}, "opponents": {opponents}}}'
