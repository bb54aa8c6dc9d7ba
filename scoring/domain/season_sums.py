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
stats digest
    A digest of a stats line taken from its counts (:func:`stats_digest`), so a recompute tells
    a changed line from an unchanged one without rendering either.

What it renders equals what :class:`~scoring.domain.season_totals.SeasonTotals` renders from the
same games (``tests/domain/test_season_sums.py`` proves it).
"""

from __future__ import annotations

import hashlib
import json
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import repeat
from operator import add
from typing import Any

from scoring.domain.season_totals import _line_of
from scoring.domain.stats import PlayerStats, TeamStats, _common

_RECORD_TEXT = '{"other_id": %d, "games": %d, "wins": %d, "losses": %d, "draws": %d}'
"""A partner or opponent record as ``json.dumps`` writes the dict of ``_pair_dicts``."""


class PairCounts:
    """Pair counts over entrants ``ids`` (see the module docstring): add columns of meetings
    with :meth:`add`, then read one entrant's records, or render every entrant's.

    One count per pair and result, keyed ``(who * size + other) * 3 + result`` (indices into
    ``ids``; result 0 won, 1 lost, 2 drawn)."""

    def __init__(self, ids: Sequence[int]) -> None:
        self.ids = list(ids)
        self.size = len(self.ids)
        self.counts: Counter[int] = Counter()
        self._pairs: list[int] | None = None
        self._columns: tuple | None = None
        self._records: dict[int, dict[int, list[int]]] = {}

    def add(self, who: Sequence[int], other: Sequence[int], results: Sequence[int]) -> None:
        """Count one meeting per game: entrant ``who[g]`` (an index into ``ids``) met
        ``other[g]`` with result ``results[g]``."""
        scale = 3 * self.size
        keys = map(add, map(add, [index * scale for index in who], [3 * o for o in other]), results)
        self.counts.update(keys)
        self._pairs = self._columns = None
        self._records.clear()

    def _sorted(self) -> list[int]:
        """Every pair that met (``who * size + other``), in order."""
        if self._pairs is None:
            self._pairs = sorted(set(map((3).__rfloordiv__, self.counts)))
        return self._pairs

    def _results(self, pairs: list[int]) -> tuple[list[int], list[int], list[int]]:
        get, zeros, base = self.counts.get, repeat(0), [3 * pair for pair in pairs]
        return (
            list(map(get, base, zeros)),
            list(map(get, map(add, base, repeat(1)), zeros)),
            list(map(get, map(add, base, repeat(2)), zeros)),
        )

    def records_of(self, index: int) -> dict[int, list[int]]:
        """Entrant ``index``'s ``[wins, losses, draws]`` with each other entrant, by id."""
        if index not in self._records:
            others, wins, losses, draws = self.columns_of(index)
            results = map(list, zip(wins, losses, draws, strict=True))
            self._records[index] = dict(zip(others, results, strict=True))
        return self._records[index]

    def columns(self) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
        """Every entrant's records as columns, entrant after entrant, each entrant's sorted by
        the other's id: the other's id, wins, losses, draws; and where each entrant's start
        (``size + 1`` bounds)."""
        if self._columns is None:
            pairs = self._sorted()
            size = self.size
            wins, losses, draws = self._results(pairs)
            others = list(map(self.ids.__getitem__, map(size.__rmod__, pairs)))
            bounds = [bisect_left(pairs, index * size) for index in range(size + 1)]
            self._columns = (others, wins, losses, draws, bounds)
        return self._columns

    def columns_of(self, index: int) -> tuple[list[int], list[int], list[int], list[int]]:
        """Entrant ``index``'s records as columns (see :meth:`columns`)."""
        *columns, bounds = self.columns()
        start, end = bounds[index], bounds[index + 1]
        others, wins, losses, draws = (column[start:end] for column in columns)
        return others, wins, losses, draws

    def text_of(self, index: int) -> str:
        """Entrant ``index``'s records as the JSON text of a list."""
        others, wins, losses, draws = self.columns_of(index)
        games = map(add, map(add, wins, losses), draws)
        records = map(_RECORD_TEXT.__mod__, zip(others, games, wins, losses, draws, strict=True))
        return "[" + ", ".join(records) + "]"


def stats_digest(line: Sequence[int], *records: Sequence[Sequence[int]]) -> str:
    """A digest of a stats line from its counts: ``line`` as ``SeasonTotals`` keeps it, then
    each list of records as columns (:meth:`PairCounts.columns_of`). Equal for equal lines, and
    taken without rendering one (:func:`stats_line_digest` takes it from a rendered line)."""
    digest = hashlib.md5(array("q", line).tobytes(), usedforsecurity=False)
    for columns in records:
        digest.update(array("q", [len(columns[0])]).tobytes())
        for column in columns:
            digest.update(array("q", column).tobytes())
    return digest.hexdigest()


def stats_line_digest(data: Mapping[str, Any]) -> str:
    """:func:`stats_digest` of a rendered player or team stats line."""
    lists = [data["partners"], data["opponents"]] if "partners" in data else [data["opponents"]]
    return stats_digest(
        _line_of(data),
        *([[record[name] for record in records] for name in _RECORD_COLUMNS] for records in lists),
    )


_RECORD_COLUMNS = ("other_id", "wins", "losses", "draws")


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
        for who in sides[side]:
            for other in sides[1 - side]:
                pairs.add(who, other, results[side])
            if partners is not None:
                for other in sides[side]:
                    if other is not who:
                        partners.add(who, other, results[side])


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
