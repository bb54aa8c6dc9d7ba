"""A season's running totals: what the snapshot's stats, standings and nights are folded from,
kept between recomputes so a recompute folds in only the games that changed.

Pure Python, no Django. The words of :mod:`scoring.domain.stats` and
:mod:`scoring.domain.standings` apply; new ones:

share
    What one ranked game adds to the season (:class:`GameShare`): its seats (and teams in a team
    season), points, winner, night, and its hands counted per side (``SIDE_COUNT_NAMES``) and
    per caller alone (``HAND_COUNT_NAMES``). A game that changes has its old share taken out
    (``add(share, -1)``) and its new one put in; a share is taken out exactly as it was put in,
    so the totals never depend on the order of the changes.
running totals
    Per player (and per team in a team season) the game line and hand counts of their stats with
    their partner and opponent records; per entrant the sums its standing is folded from (games,
    wins, losses, draws, points for and against, its sides' marches, loners made and euchres
    inflicted); per night each entrant's games, wins and points. Entrants, players, records and
    nights whose games fall to none are dropped, as a recompute from scratch would never list
    them.
buchholz from totals
    An entrant's Buchholz is the sum over its games of the mean score of the opposing side, that
    is ``sum(games against o * score(o)) / side size`` over its opponents ``o``. Scores are whole
    or half wins, so every term and sum is a multiple of a quarter and exact in floating point:
    adding the changes up gives the very float a recompute from scratch gives.

The totals render the snapshot's parts exactly as :func:`~scoring.domain.stats.player_stats`,
:func:`~scoring.domain.stats.team_stats` and :func:`~scoring.domain.standings.compute_standings`
do from all the games (``tests/domain/test_season_totals.py`` proves it); the standings only
when the season counts every night (best nights need each night's meetings, which the totals do
not keep).
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from scoring.domain.standings import SeasonRules, Side, Standings
from scoring.domain.standings.compute import rank_records
from scoring.domain.standings.records import EntrantRecord
from scoring.domain.stats import (
    EUCHRES_INFLICTED_INDEX,
    GAME_FIELD_COUNT,
    HAND_COUNT_FIELDS,
    HAND_COUNT_NAMES,
    LONERS_MADE_INDEX,
    MARCHES_INDEX,
    PlayerStats,
    TeamStats,
    pair_records,
    stats_fields,
)

LINE_LENGTH = GAME_FIELD_COUNT + HAND_COUNT_FIELDS  # a stats line: game fields, then hand counts
_RECORD_NAMES = (
    "games",
    "wins",
    "losses",
    "draws",
    "points_for",
    "points_against",
    "marches",
    "loners_made",
    "euchres_inflicted",
)
"""An entrant's record in the totals, in this order (a standings row's fields of these names)."""
_RECORD = len(_RECORD_NAMES)


class GameShare(NamedTuple):
    """What one ranked game adds to its season (see the module docstring)."""

    game_id: int
    seats: tuple[int, int, int, int]
    teams: tuple[int, int] | None
    points_a: int
    points_b: int
    winner: Side | None
    night_id: int | None
    side_a: tuple[int, ...] | None = None
    side_b: tuple[int, ...] | None = None
    alone: tuple[tuple[int, tuple[int, ...]], ...] = ()

    def sides(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The entrants of side A and side B: their teams, or their players."""
        seats = self.seats
        if self.teams is not None:
            return (self.teams[0],), (self.teams[1],)
        return (seats[0], seats[2]), (seats[1], seats[3])

    def entrants(self) -> tuple[int, ...]:
        side_a, side_b = self.sides()
        return (*side_a, *side_b)


def _bump(records: dict[int, dict[int, list[int]]], who: int, other: int, index: int, sign: int):
    pairs = records[who]
    line = pairs.get(other)
    if line is None:
        line = pairs[other] = [0, 0, 0]
    line[index] += sign
    if sign < 0 and not any(line):
        del pairs[other]


class SeasonTotals:
    """The running totals of one season (see the module docstring).

    They may hold only some players, teams and entrants (an incremental recompute loads those
    its changed games touch); :meth:`add` needs those of the share loaded. ``changed_players``,
    ``changed_teams`` and ``changed_entrants`` collect whom the added shares touched.
    """

    def __init__(self, *, is_teams: bool) -> None:
        self.is_teams = is_teams
        self.players: dict[int, list] = {}
        self.partners: dict[int, dict[int, list[int]]] = {}
        self.opponents: dict[int, dict[int, list[int]]] = {}
        self.teams: dict[int, list] = {}
        self.team_opponents: dict[int, dict[int, list[int]]] = {}
        self.records: dict[int, list] = {}
        self.nights: dict[int, dict[int, list[int]]] = {}
        self.changed_players: set[int] = set()
        self.changed_teams: set[int] = set()
        self.changed_entrants: set[int] = set()

    # -- folding ---------------------------------------------------------------------------

    def add(self, share: GameShare, sign: int = 1) -> None:
        """Put a game's share in (``sign`` 1) or take it out (``sign`` -1).

        Written out rather than factored: a recompute from scratch adds a share per game of
        the season, a hundred thousand in a large one."""
        winner = share.winner
        index_a, index_b = (0, 1) if winner == "A" else (1, 0) if winner == "B" else (2, 2)
        seat_0, seat_1, seat_2, seat_3 = share.seats
        points_a, points_b, side_a, side_b = share.points_a, share.points_b, *share[7:9]
        players, partners, opponents = self.players, self.partners, self.opponents
        changed = self.changed_players
        for who, partner, opponent_1, opponent_2, index, points_for, points_against, counts in (
            (seat_0, seat_2, seat_1, seat_3, index_a, points_a, points_b, side_a),
            (seat_2, seat_0, seat_1, seat_3, index_a, points_a, points_b, side_a),
            (seat_1, seat_3, seat_0, seat_2, index_b, points_b, points_a, side_b),
            (seat_3, seat_1, seat_0, seat_2, index_b, points_b, points_a, side_b),
        ):
            line = players.get(who)
            if line is None:
                line = players[who] = [0] * LINE_LENGTH
                partners[who] = {}
                opponents[who] = {}
            line[0] += sign  # games
            line[1 + index] += sign  # wins, losses or draws
            line[6] += sign * points_for
            line[7] += sign * points_against
            if counts is not None:
                line[8] += sign * counts[0]  # hands
                line[11] += sign * counts[10]  # marches, both in play
                line[15] += sign * counts[11]  # euchres suffered, both in play
                line[16] += sign * counts[12]  # euchres inflicted, both in play
                line[17] += sign * counts[13]  # reneges, both in play
            for records, other in (
                (partners[who], partner),
                (opponents[who], opponent_1),
                (opponents[who], opponent_2),
            ):
                pair = records.get(other)
                if pair is None:
                    pair = records[other] = [0, 0, 0]
                pair[index] += sign
                if sign < 0 and not (pair[0] or pair[1] or pair[2]):
                    del records[other]
            changed.add(who)
        for caller, counts in share.alone:
            line = players[caller]
            for offset in range(1, HAND_COUNT_FIELDS):
                line[GAME_FIELD_COUNT + offset] += sign * counts[offset]
        if share.teams is not None:
            team_a, team_b = share.teams
            for team, other, index, points_for, points_against, counts in (
                (team_a, team_b, index_a, points_a, points_b, side_a),
                (team_b, team_a, index_b, points_b, points_a, side_b),
            ):
                line = self._line(self.teams, team, None, self.team_opponents)
                self._game(line, index, points_for, points_against, sign)
                if counts is not None:
                    for offset in range(HAND_COUNT_FIELDS):
                        line[GAME_FIELD_COUNT + offset] += sign * counts[offset]
                _bump(self.team_opponents, team, other, index, sign)
                self.changed_teams.add(team)
        sides = share.sides()
        records, nights, night_id = self.records, self.nights, share.night_id
        for entrants, index, points_for, points_against, counts in (
            (sides[0], index_a, points_a, points_b, side_a),
            (sides[1], index_b, points_b, points_a, side_b),
        ):
            for entrant in entrants:
                record = records.get(entrant)
                if record is None:
                    record = records[entrant] = [0] * _RECORD
                record[0] += sign
                record[1 + index] += sign
                record[4] += sign * points_for
                record[5] += sign * points_against
                if counts is not None:
                    record[6] += sign * counts[MARCHES_INDEX]
                    record[7] += sign * counts[LONERS_MADE_INDEX]
                    record[8] += sign * counts[EUCHRES_INFLICTED_INDEX]
                if not record[0]:
                    del records[entrant]
                self.changed_entrants.add(entrant)
                if night_id is not None:
                    night = nights.get(night_id)
                    if night is None:
                        night = nights[night_id] = {}
                    line = night.get(entrant)
                    if line is None:
                        line = night[entrant] = [0, 0, 0]
                    line[0] += sign
                    line[1] += sign * (index == 0)
                    line[2] += sign * points_for
                    if not line[0]:
                        del night[entrant]
                        if not night:
                            del nights[night_id]
        if sign < 0:  # whoever has no game left is listed no more
            for who in share.seats:
                if not players[who][0]:
                    del players[who], partners[who], opponents[who]
            for team in share.teams or ():
                if not self.teams[team][0]:
                    del self.teams[team], self.team_opponents[team]

    @staticmethod
    def _line(table, who, partners, opponents) -> list:
        line = table.get(who)
        if line is None:
            line = table[who] = [0] * LINE_LENGTH
            if partners is not None:
                partners.setdefault(who, {})
            opponents.setdefault(who, {})
        return line

    @staticmethod
    def _game(line: list, index: int, points_for: int, points_against: int, sign: int) -> None:
        line[0] += sign  # games
        line[1 + index] += sign  # wins, losses or draws
        line[6] += sign * points_for
        line[7] += sign * points_against

    # -- loading from rendered lines -------------------------------------------------------

    def load_player(self, data: Mapping[str, Any]) -> None:
        """Take a player's stats line (as rendered) back as running totals."""
        who = data["player_id"]
        self.players[who] = _line_of(data)
        self.partners[who] = _pairs_of(data["partners"])
        self.opponents[who] = _pairs_of(data["opponents"])

    def load_team(self, data: Mapping[str, Any]) -> None:
        """Take a team's stats line (as rendered) back as running totals."""
        who = data["team_id"]
        self.teams[who] = _line_of(data)
        self.team_opponents[who] = _pairs_of(data["opponents"])

    def load_record(self, row: Mapping[str, Any]) -> None:
        """Take an entrant's standings row (as rendered) back as running totals."""
        if row["games"]:
            self.records[row["entrant"]] = [row[name] for name in _RECORD_NAMES]

    def load_nights(self, nights: Iterable[Mapping[str, Any]]) -> None:
        """Take the snapshot's nights part (as rendered) back as running totals."""
        for night in nights:
            self.nights[night["night"]] = {
                int(entrant): [line["games"], line["wins"], line["points"]]
                for entrant, line in night["entrants"].items()
            }

    # -- rendering -------------------------------------------------------------------------

    def player_line(self, who: int) -> dict[str, Any] | None:
        """A player's stats line, as :func:`~scoring.domain.stats.player_stats` renders it
        (``None`` once the player has no game)."""
        line = self.players.get(who)
        if line is None:
            return None
        return PlayerStats(
            player_id=who,
            **stats_fields(line, line[GAME_FIELD_COUNT:]),
            partners=pair_records(self.partners[who]),
            opponents=pair_records(self.opponents[who]),
        ).to_dict()

    def team_line(self, who: int) -> dict[str, Any] | None:
        """A team's stats line, as :func:`~scoring.domain.stats.team_stats` renders it."""
        line = self.teams.get(who)
        if line is None:
            return None
        return TeamStats(
            team_id=who,
            **stats_fields(line, line[GAME_FIELD_COUNT:]),
            opponents=pair_records(self.team_opponents[who]),
        ).to_dict()

    def nights_part(self) -> list[dict[str, Any]]:
        """The snapshot's nights part, as the recompute renders it."""
        return [
            {
                "night": night,
                "entrants": {
                    str(entrant): {"games": games, "wins": wins, "points": points}
                    for entrant, (games, wins, points) in sorted(lines.items())
                },
            }
            for night, lines in sorted(self.nights.items())
        ]

    def results_against(self, entrant: int) -> dict[int, list[int]]:
        """An entrant's ``[wins, losses, draws]`` against each opponent (loaded ones only)."""
        return (self.team_opponents if self.is_teams else self.opponents).get(entrant, {})

    def score(self, entrant: int) -> float:
        """Wins plus half the draws (0.0 without a game)."""
        record = self.records.get(entrant)
        return record[1] + record[3] / 2 if record else 0.0

    def buchholz_of(self, entrant: int) -> float:
        """An entrant's Buchholz from its opponents' current scores (see the module docstring)."""
        size = 1 if self.is_teams else 2
        if entrant not in self.records:
            return 0
        total = 0
        for opponent, (won, lost, drawn) in self.results_against(entrant).items():
            total += (won + lost + drawn) * self.score(opponent) / size
        return total

    def standings(
        self,
        rules: SeasonRules,
        *,
        entrants: Iterable[int],
        names: Mapping[int, str],
        buchholz: Mapping[int, float],
        results_against: Callable[[int], Mapping[int, list[int]]] | None = None,
    ) -> Standings:
        """The standings of ``entrants`` (every entrant with a game is one too), as
        :func:`~scoring.domain.standings.compute_standings` ranks the games the totals hold.
        Needs every entrant's record and Buchholz; ``results_against`` answers head-to-head for
        entrants whose opponents are not loaded."""
        if rules.count_best_nights is not None:
            raise ValueError("best nights need each night's meetings: rank the games instead")
        nights_of: dict[int, list[int]] = {}
        for night, lines in sorted(self.nights.items()):
            for entrant in lines:
                nights_of.setdefault(entrant, []).append(night)
        records = {}
        for entrant in {*entrants, *self.records}:
            record = self.records.get(entrant, [0] * _RECORD)
            records[entrant] = EntrantRecord(
                **dict(zip(_RECORD_NAMES, record, strict=True)),
                games_in_season=record[0],
                nights_counted=tuple(nights_of.get(entrant, ())),
            )
        return rank_records(
            records,
            rules,
            names=names,
            buchholz={entrant: buchholz.get(entrant, 0) for entrant in records},
            results_against=results_against or self.results_against,
        )


def _line_of(data: Mapping[str, Any]) -> list:
    return [
        data["games"],
        data["wins"],
        data["losses"],
        data["draws"],
        data["forfeit_wins"],
        data["forfeit_losses"],
        data["points_for"],
        data["points_against"],
        *(data[name] for name in HAND_COUNT_NAMES),
    ]


def stats_line_digest(data: Mapping[str, Any]) -> str:
    """A digest of a rendered player or team stats line, taken from its counts (the line's
    numbers, then each list of partner and opponent records as columns): equal for equal lines,
    and cheaper than a digest of the whole rendered line."""
    lists = [data["partners"], data["opponents"]] if "partners" in data else [data["opponents"]]
    digest = hashlib.md5(array("q", _line_of(data)).tobytes(), usedforsecurity=False)
    for records in lists:
        columns: list[Sequence[int]] = [
            [record[name] for record in records] for name in _RECORD_COLUMNS
        ]
        digest.update(array("q", [len(columns[0])]).tobytes())
        for column in columns:
            digest.update(array("q", column).tobytes())
    return digest.hexdigest()


_RECORD_COLUMNS = ("other_id", "wins", "losses", "draws")


def _pairs_of(records: Iterable[Mapping[str, int]]) -> dict[int, list[int]]:
    return {
        record["other_id"]: [record["wins"], record["losses"], record["draws"]]
        for record in records
    }


def buchholz_changes(
    totals: SeasonTotals, scores_before: Mapping[int, float], stored: Mapping[int, float]
) -> dict[int, float]:
    """Every entrant's Buchholz after some games changed, from the ``stored`` ones: those of the
    changed entrants worked out afresh from their opponents; everyone else's moved by what their
    meetings with changed entrants are now worth (``scores_before``: the changed entrants'
    scores before the change). Needs the changed entrants' opponents loaded."""
    size = 1 if totals.is_teams else 2
    changed = totals.changed_entrants
    result = dict(stored)
    for entrant in changed:
        result[entrant] = totals.buchholz_of(entrant)
    for opponent in changed:
        moved = totals.score(opponent) - scores_before.get(opponent, 0)
        if not moved or opponent not in totals.records:
            continue
        for entrant, (won, lost, drawn) in totals.results_against(opponent).items():
            if entrant in changed:
                continue
            result[entrant] = result.get(entrant, 0) + (won + lost + drawn) * moved / size
    for entrant in [entrant for entrant in result if entrant not in totals.records]:
        result[entrant] = 0
    return result
