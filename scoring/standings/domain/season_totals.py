"""A season's running totals: what the snapshot's stats, standings and nights are folded from,
kept between recomputes so a recompute folds in only the games that changed.

Pure Python, no Django. The words of :mod:`scoring.standings.domain.stats` and
:mod:`scoring.standings.domain.standings` apply; new ones:

share
    What one ranked game adds to the season (:class:`GameShare`): its seats (and teams in a team
    season), points, winner, night, and its hands counted per side (``SIDE_COUNT_NAMES``) and
    per caller alone (``HAND_COUNT_NAMES``). A game that changes has its old share taken out
    (``add(share, -1)``) and its new one put in; a share is taken out exactly as it was put in,
    so the totals never depend on the order of the changes.
counted shares
    What a set of shares adds (:class:`Counted`), in two parts. Per seat, *seat sums*
    (:class:`SeatSums`): the games, results, points and hand counts of the shares where one
    player (or, in a team season, one team) sits there, added up; every number of a stats line
    and of a standings record is such a sum. And one *meeting* per share (:data:`MEETING_FIELDS`):
    who met whom, the result, the night and the points, which the partner and opponent records,
    the nights and the ratings need game by game. A database adds a season's shares up per seat
    (``scoring.standings.services.shares``); :meth:`Counted.of_shares` says what it adds. A
    recompute from scratch folds the counted shares of every game from empty, an incremental one
    takes out those of the changed games' old shares and puts in those of their new ones: the same
    fold
    (:meth:`SeasonTotals.add_counted`).
running totals
    Per player (and per team in a team season) the game line and hand counts of their stats with
    their partner and opponent records; per entrant the sums its standing is folded from (games,
    wins, losses, draws, points for and against, its sides' marches, loners made and euchres
    inflicted); per night each entrant's games, wins and points. Entrants, players, records and
    nights whose games fall to none are dropped, as a recompute from scratch would never list
    them.
night count
    An entrant's games, wins and points of one night, packed the same way: games and wins in
    fields of ``NIGHT_BITS`` bits, the points above them (:func:`night_result`).
pair count
    A player's (or team's) record with one partner or against one opponent, packed in one
    integer: wins, losses and draws in fields of ``PAIR_BITS`` bits (:data:`PAIR_STEP` is what
    one game adds, :func:`pair_result` reads them back). A large season has a million of them;
    as plain integers in plain dicts they are no objects for the garbage collector to walk. Two
    players meet fewer than 2**21 (two million) times in one season.
buchholz from totals
    An entrant's Buchholz is the sum over its games of the mean score of the opposing side, that
    is ``sum(games against o * score(o)) / side size`` over its opponents ``o``. Scores are whole
    or half wins, so every term and sum is a multiple of a quarter and exact in floating point:
    adding the changes up gives the very float a recompute from scratch gives.

The totals render the snapshot's parts exactly as
:func:`~scoring.standings.domain.stats.player_stats`,
:func:`~scoring.standings.domain.stats.team_stats` and
:func:`~scoring.standings.domain.standings.compute_standings` do from all the games
(``tests/domain/test_season_totals.py`` proves it); the standings only when the season counts every
night and ranks by no measure read game by game (best nights and those measures need each game,
which the totals do not keep).
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from scoring.standings.domain.standings import SeasonRules, Side, Standings
from scoring.standings.domain.standings.compute import rank_records
from scoring.standings.domain.standings.records import EntrantRecord
from scoring.standings.domain.stats import (
    EUCHRES_INFLICTED_INDEX,
    GAME_COUNT_NAMES,
    GAME_FIELD_COUNT,
    HAND_COUNT_FIELDS,
    HAND_COUNT_NAMES,
    LONERS_MADE_INDEX,
    MARCHES_INDEX,
    SIDE_COUNT_NAMES,
    PlayerStats,
    TeamStats,
    stats_fields,
    stored_records,
)

LINE_NAMES = (*GAME_COUNT_NAMES, *HAND_COUNT_NAMES)
"""A stats line's counts as the totals keep them: its game counts, then its hand counts."""
LINE_LENGTH = len(LINE_NAMES)
_GAMES, _WINS, _LOSSES, _DRAWS, _POINTS_FOR, _POINTS_AGAINST = (
    LINE_NAMES.index(name)
    for name in ("games", "wins", "losses", "draws", "points_for", "points_against")
)
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

PAIR_BITS = 21
_PAIR_FIELD = (1 << PAIR_BITS) - 1
PAIR_STEP = (1, 1 << PAIR_BITS, 1 << 2 * PAIR_BITS)
"""What one game adds to a pair count, by its result for the player: won, lost, drawn."""


def pair_result(count: int) -> tuple[int, int, int]:
    """A pair count's wins, losses and draws."""
    return count & _PAIR_FIELD, count >> PAIR_BITS & _PAIR_FIELD, count >> 2 * PAIR_BITS


NIGHT_BITS = 20
_NIGHT_FIELD = (1 << NIGHT_BITS) - 1


def night_count(games: int, wins: int, points: int) -> int:
    """An entrant's games, wins and points of one night as a night count."""
    return games + (wins << NIGHT_BITS) + (points << 2 * NIGHT_BITS)


def night_result(count: int) -> tuple[int, int, int]:
    """A night count's games, wins and points."""
    return count & _NIGHT_FIELD, count >> NIGHT_BITS & _NIGHT_FIELD, count >> 2 * NIGHT_BITS


def _pair_games(count: int) -> int:
    return (count & _PAIR_FIELD) + (count >> PAIR_BITS & _PAIR_FIELD) + (count >> 2 * PAIR_BITS)


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


class SeatSums(NamedTuple):
    """What some shares add to one player (or team) sitting in one seat (or on one side), summed
    over those shares: games, wins, losses, draws, points for and against, the counts of the
    player's side (``SIDE_COUNT_NAMES`` up to ``SEAT_SIDE_FIELDS``: not the hands whose outcome
    is known, which a share keeps on side A only) and the counts that are the player's alone as
    caller (``HAND_COUNT_NAMES``; none for a team)."""

    who: int
    games: int
    wins: int
    losses: int
    draws: int
    points_for: int
    points_against: int
    side: tuple[int, ...]
    calls: tuple[int, ...]


MEETING_FIELDS = (
    "game_id",
    "seat_0",
    "seat_1",
    "seat_2",
    "seat_3",
    "team_a",
    "team_b",
    "winner",
    "night_id",
    "points_a",
    "points_b",
)
"""A *meeting*: one share as the pair records, nights and ratings read it, a plain tuple in this
order (``team_a``/``team_b`` ``None`` outside a team season; ``winner`` ``"A"``, ``"B"``, or
anything else for a draw)."""

SEAT_SIDE_FIELDS = SIDE_COUNT_NAMES.index("outcomes")
"""How many of a side's counts (``SIDE_COUNT_NAMES``) seat sums keep."""
_RESULTS = {"A": (1, 0, 0), "B": (0, 1, 0)}
_NO_SIDE = (0,) * SEAT_SIDE_FIELDS
_NO_CALLS = (0,) * HAND_COUNT_FIELDS
_BOTH_MARCHES, _BOTH_SUFFERED, _BOTH_INFLICTED, _BOTH_RENEGES = (
    SIDE_COUNT_NAMES.index(name)
    for name in ("both_marches", "both_suffered", "both_inflicted", "both_reneges")
)
_SUFFERED_INDEX = HAND_COUNT_NAMES.index("euchres_suffered")
_RENEGES_INDEX = HAND_COUNT_NAMES.index("reneges")


class Counted(NamedTuple):
    """What a set of shares adds to the totals (see *counted shares*): seat sums of players,
    seat sums of teams (a team season's), and the meetings."""

    players: Sequence[SeatSums]
    teams: Sequence[SeatSums]
    meetings: Sequence[tuple]

    @classmethod
    def of_shares(cls, shares: Iterable[GameShare]) -> Counted:
        """The shares counted one by one (a database sums the same per seat)."""
        players: list[SeatSums] = []
        teams: list[SeatSums] = []
        meetings: list[tuple] = []
        for share in shares:
            result_a = _RESULTS.get(share.winner, (0, 0, 1))  # wins, losses, draws of side A
            result_b = (result_a[1], result_a[0], result_a[2])
            for_a = (share.points_a, share.points_b, (share.side_a or _NO_SIDE)[:SEAT_SIDE_FIELDS])
            for_b = (share.points_b, share.points_a, (share.side_b or _NO_SIDE)[:SEAT_SIDE_FIELDS])
            alone = dict(share.alone)
            for seat, who in enumerate(share.seats):
                result, (points_for, points_against, side) = (
                    (result_a, for_a) if seat % 2 == 0 else (result_b, for_b)
                )
                calls = alone.get(who, _NO_CALLS)
                players.append(SeatSums(who, 1, *result, points_for, points_against, side, calls))
            if share.teams is not None:
                for team, result, (points_for, points_against, side) in (
                    (share.teams[0], result_a, for_a),
                    (share.teams[1], result_b, for_b),
                ):
                    teams.append(
                        SeatSums(team, 1, *result, points_for, points_against, side, _NO_CALLS)
                    )
            team_a, team_b = share.teams or (None, None)
            meetings.append(
                (
                    share.game_id,
                    *share.seats,
                    team_a,
                    team_b,
                    share.winner or "",
                    share.night_id,
                    share.points_a,
                    share.points_b,
                )
            )
        return cls(players, teams, meetings)


NOTHING_COUNTED = Counted((), (), ())


class SeasonTotals:
    """The running totals of one season (see the module docstring).

    They may hold only some players, teams and entrants (an incremental recompute loads those
    its changed games touch); :meth:`add_counted` needs those of the shares loaded.
    ``changed_players``, ``changed_teams`` and ``changed_entrants`` collect whom the added shares
    touched. Partner and opponent records are pair counts (see *pair count*).
    """

    def __init__(self, *, is_teams: bool) -> None:
        self.is_teams = is_teams
        self.players: dict[int, list] = {}
        self.partners: dict[int, dict[int, int]] = {}
        self.opponents: dict[int, dict[int, int]] = {}
        self.teams: dict[int, list] = {}
        self.team_opponents: dict[int, dict[int, int]] = {}
        self.records: dict[int, list] = {}
        self.nights: dict[int, dict[int, int]] = {}  # night counts by night and entrant
        # The loaded nights no game has touched yet, as rendered (``load_nights``): a change
        # moves one night of a season's many, so the others are neither read nor rendered again.
        self.rendered_nights: dict[int, dict[str, Any]] = {}
        self._nights_touched = False
        self.changed_players: set[int] = set()
        self.changed_teams: set[int] = set()
        self.changed_entrants: set[int] = set()

    # -- folding ---------------------------------------------------------------------------

    def add(self, share: GameShare, sign: int = 1) -> None:
        """Put a game's share in (``sign`` 1) or take it out (``sign`` -1)."""
        self.add_counted(Counted.of_shares([share]), sign)

    def add_counted(self, counted: Counted, sign: int = 1) -> None:
        """Put counted shares in (``sign`` 1) or take them out (``sign`` -1): their seat sums,
        then their meetings (taken out the other way round, so that whoever is left with no
        game is dropped with empty records)."""
        if sign > 0:
            self._add_sums(counted, 1)
            self._add_meetings(counted.meetings)
        else:
            self._take_meetings(counted.meetings)
            self._add_sums(counted, -1)

    def _add_sums(self, counted: Counted, sign: int) -> None:
        players, changed = self.players, self.changed_players
        for row in counted.players:
            who = row.who
            line = players.get(who)
            if line is None:
                line = players[who] = [0] * LINE_LENGTH
                self.partners[who] = {}
                self.opponents[who] = {}
            side, calls = row.side, row.calls
            _add_game_fields(line, row, sign)
            line[GAME_FIELD_COUNT] += sign * side[0]  # hands
            for offset in range(1, HAND_COUNT_FIELDS):  # the player's own, as caller
                line[GAME_FIELD_COUNT + offset] += sign * calls[offset]
            # and the side's, in hands where both partners were in play
            line[GAME_FIELD_COUNT + MARCHES_INDEX] += sign * side[_BOTH_MARCHES]
            line[GAME_FIELD_COUNT + _SUFFERED_INDEX] += sign * side[_BOTH_SUFFERED]
            line[GAME_FIELD_COUNT + EUCHRES_INFLICTED_INDEX] += sign * side[_BOTH_INFLICTED]
            line[GAME_FIELD_COUNT + _RENEGES_INDEX] += sign * side[_BOTH_RENEGES]
            changed.add(who)
            if not line[_GAMES]:  # no game left: listed no more
                del players[who], self.partners[who], self.opponents[who]
        for row in counted.teams:
            team = row.who
            line = self.teams.get(team)
            if line is None:
                line = self.teams[team] = [0] * LINE_LENGTH
                self.team_opponents[team] = {}
            _add_game_fields(line, row, sign)
            for offset in range(HAND_COUNT_FIELDS):
                line[GAME_FIELD_COUNT + offset] += sign * row.side[offset]
            self.changed_teams.add(team)
            if not line[_GAMES]:
                del self.teams[team], self.team_opponents[team]
        records = self.records
        for row in counted.teams if self.is_teams else counted.players:
            entrant = row.who
            record = records.get(entrant)
            if record is None:
                record = records[entrant] = [0] * _RECORD
            record[0] += sign * row.games
            record[1] += sign * row.wins
            record[2] += sign * row.losses
            record[3] += sign * row.draws
            record[4] += sign * row.points_for
            record[5] += sign * row.points_against
            record[6] += sign * row.side[MARCHES_INDEX]
            record[7] += sign * row.side[LONERS_MADE_INDEX]
            record[8] += sign * row.side[EUCHRES_INFLICTED_INDEX]
            if not record[0]:
                del records[entrant]
            self.changed_entrants.add(entrant)

    def _add_meetings(self, meetings: Iterable[tuple]) -> None:
        """Put meetings in: pair counts and nights. Written out rather than factored: a
        recompute from scratch puts in one per game of the season, a hundred thousand in a
        large one."""
        partners, opponents, nights = self.partners, self.opponents, self.nights
        team_opponents, is_teams = self.team_opponents, self.is_teams
        won, lost, drawn = PAIR_STEP
        for _game, s0, s1, s2, s3, team_a, team_b, winner, night_id, pts_a, pts_b in meetings:
            if winner == "A":
                step_a, step_b, wins_a, wins_b = won, lost, 1, 0
            elif winner == "B":
                step_a, step_b, wins_a, wins_b = lost, won, 0, 1
            else:
                step_a, step_b, wins_a, wins_b = drawn, drawn, 0, 0
            pairs = partners[s0]
            pairs[s2] = pairs.get(s2, 0) + step_a
            pairs = partners[s2]
            pairs[s0] = pairs.get(s0, 0) + step_a
            pairs = partners[s1]
            pairs[s3] = pairs.get(s3, 0) + step_b
            pairs = partners[s3]
            pairs[s1] = pairs.get(s1, 0) + step_b
            pairs = opponents[s0]
            pairs[s1] = pairs.get(s1, 0) + step_a
            pairs[s3] = pairs.get(s3, 0) + step_a
            pairs = opponents[s2]
            pairs[s1] = pairs.get(s1, 0) + step_a
            pairs[s3] = pairs.get(s3, 0) + step_a
            pairs = opponents[s1]
            pairs[s0] = pairs.get(s0, 0) + step_b
            pairs[s2] = pairs.get(s2, 0) + step_b
            pairs = opponents[s3]
            pairs[s0] = pairs.get(s0, 0) + step_b
            pairs[s2] = pairs.get(s2, 0) + step_b
            if is_teams:
                pairs = team_opponents[team_a]
                pairs[team_b] = pairs.get(team_b, 0) + step_a
                pairs = team_opponents[team_b]
                pairs[team_a] = pairs.get(team_a, 0) + step_b
            if night_id is None:
                continue
            night = nights.get(night_id)
            if night is None:
                night = nights[night_id] = self._night_counts(night_id)
            night_a = 1 + (wins_a << NIGHT_BITS) + (pts_a << 2 * NIGHT_BITS)
            night_b = 1 + (wins_b << NIGHT_BITS) + (pts_b << 2 * NIGHT_BITS)
            if is_teams:
                night[team_a] = night.get(team_a, 0) + night_a
                night[team_b] = night.get(team_b, 0) + night_b
                continue
            night[s0] = night.get(s0, 0) + night_a
            night[s2] = night.get(s2, 0) + night_a
            night[s1] = night.get(s1, 0) + night_b
            night[s3] = night.get(s3, 0) + night_b

    def _take_meetings(self, meetings: Iterable[tuple]) -> None:
        """Take meetings out: what :meth:`_add_meetings` put in, dropping the pair counts and
        night lines left at nothing."""
        won, lost, drawn = PAIR_STEP
        for _game, s0, s1, s2, s3, team_a, team_b, winner, night_id, pts_a, pts_b in meetings:
            if winner == "A":
                step_a, step_b, wins_a, wins_b = won, lost, 1, 0
            elif winner == "B":
                step_a, step_b, wins_a, wins_b = lost, won, 0, 1
            else:
                step_a, step_b, wins_a, wins_b = drawn, drawn, 0, 0
            for who, step, partner, first, second in (
                (s0, step_a, s2, s1, s3),
                (s2, step_a, s0, s1, s3),
                (s1, step_b, s3, s0, s2),
                (s3, step_b, s1, s0, s2),
            ):
                _take(self.partners[who], partner, step)
                _take(self.opponents[who], first, step)
                _take(self.opponents[who], second, step)
            if self.is_teams:
                _take(self.team_opponents[team_a], team_b, step_a)
                _take(self.team_opponents[team_b], team_a, step_b)
            if night_id is None:
                continue
            night = self.nights.get(night_id)
            if night is None:
                night = self.nights[night_id] = self._night_counts(night_id)
            sides = ((team_a,), (team_b,)) if self.is_teams else ((s0, s2), (s1, s3))
            for entrants, count in (
                (sides[0], night_count(1, wins_a, pts_a)),
                (sides[1], night_count(1, wins_b, pts_b)),
            ):
                for entrant in entrants:
                    _take(night, entrant, count)
            if not night:
                del self.nights[night_id]

    # -- loading from rendered lines -------------------------------------------------------

    def load_player(self, data: Mapping[str, Any]) -> None:
        """Take a player's stats line (as stored) back as running totals."""
        who = data["player_id"]
        self.players[who] = _line_of(data)
        self.partners[who] = pair_counts(data["partners"])
        self.opponents[who] = pair_counts(data["opponents"])

    def load_team(self, data: Mapping[str, Any]) -> None:
        """Take a team's stats line (as stored) back as running totals."""
        who = data["team_id"]
        self.teams[who] = _line_of(data)
        self.team_opponents[who] = pair_counts(data["opponents"])

    def load_record(self, row: Mapping[str, Any]) -> None:
        """Take an entrant's standings row (as rendered) back as running totals."""
        if row["games"]:
            self.records[row["entrant"]] = [row[name] for name in _RECORD_NAMES]

    def load_nights(self, nights: Iterable[Mapping[str, Any]]) -> None:
        """Take the snapshot's nights part (as rendered) back as running totals: each night is
        read when a game of it is put in or taken out (:meth:`_night_counts`)."""
        for night in nights:
            self.rendered_nights[night["night"]] = night

    def _night_counts(self, night_id: int) -> dict[int, int]:
        """A loaded night's counts by entrant, taken out of the rendered ones (none for a night
        not loaded)."""
        self._nights_touched = True
        night = self.rendered_nights.pop(night_id, None)
        if night is None:
            return {}
        return {
            int(entrant): night_count(line["games"], line["wins"], line["points"])
            for entrant, line in night["entrants"].items()
        }

    @property
    def nights_changed(self) -> bool:
        """Whether a game put in or taken out had a night (the nights part is then another)."""
        return self._nights_touched

    def _nights_by_entrant(self) -> dict[int, list[int]]:
        """The nights each entrant played, in night order."""
        nights_of: dict[int, list[int]] = {}
        for night in sorted(self.nights.keys() | self.rendered_nights.keys()):
            lines = self.nights.get(night)
            entrants = lines if lines is not None else self.rendered_nights[night]["entrants"]
            for entrant in entrants:
                nights_of.setdefault(int(entrant), []).append(night)
        return nights_of

    # -- rendering -------------------------------------------------------------------------

    def player_line(self, who: int) -> dict[str, Any] | None:
        """A player's stats line as it is stored: as
        :func:`~scoring.standings.domain.stats.player_stats` renders it, its pair records as
        numbers (:func:`~scoring.standings.domain.stats.stats_line_stored`); ``None`` once the
        player has no game."""
        line = self.players.get(who)
        if line is None:
            return None
        stats = PlayerStats(
            player_id=who,
            **stats_fields(line, line[GAME_FIELD_COUNT:]),
            partners=(),
            opponents=(),
        )
        return stats.to_dict() | {
            "partners": _pairs_stored(self.partners[who]),
            "opponents": _pairs_stored(self.opponents[who]),
        }

    def team_line(self, who: int) -> dict[str, Any] | None:
        """A team's stats line as it is stored (as :meth:`player_line`)."""
        line = self.teams.get(who)
        if line is None:
            return None
        stats = TeamStats(team_id=who, **stats_fields(line, line[GAME_FIELD_COUNT:]), opponents=())
        return stats.to_dict() | {"opponents": _pairs_stored(self.team_opponents[who])}

    def player_digest(self, who: int) -> str:
        """``stats_line_digest(player_line(who))``, without rendering the line (the player has
        a game)."""
        return _digest(self.players[who], (self.partners[who], self.opponents[who]))

    def team_digest(self, who: int) -> str:
        """``stats_line_digest(team_line(who))``, without rendering the line."""
        return _digest(self.teams[who], (self.team_opponents[who],))

    def nights_part(self) -> list[dict[str, Any]]:
        """The snapshot's nights part, as the recompute renders it (the nights no game touched
        as they were loaded)."""
        return [
            self.rendered_nights[night]
            if night in self.rendered_nights
            else self._night_part(night)
            for night in sorted(self.nights.keys() | self.rendered_nights.keys())
        ]

    def _night_part(self, night: int) -> dict[str, Any]:
        return {
            "night": night,
            "entrants": {
                str(entrant): dict(
                    zip(("games", "wins", "points"), night_result(count), strict=True)
                )
                for entrant, count in sorted(self.nights[night].items())
            },
        }

    def _pair_counts_of(self, entrant: int) -> dict[int, int]:
        return (self.team_opponents if self.is_teams else self.opponents).get(entrant, {})

    def results_against(self, entrant: int) -> dict[int, tuple[int, int, int]]:
        """An entrant's ``(wins, losses, draws)`` against each opponent (loaded ones only)."""
        return {other: pair_result(count) for other, count in self._pair_counts_of(entrant).items()}

    def games_against(self, entrant: int) -> dict[int, int]:
        """An entrant's games against each opponent (loaded ones only)."""
        return {other: _pair_games(count) for other, count in self._pair_counts_of(entrant).items()}

    def score(self, entrant: int) -> float:
        """Wins plus half the draws (0.0 without a game)."""
        record = self.records.get(entrant)
        return record[1] + record[3] / 2 if record else 0.0

    def buchholz_of(self, entrant: int) -> float:
        """An entrant's Buchholz from its opponents' current scores (see the module docstring)."""
        return self.buchholz_of_each([entrant])[entrant]

    def buchholz_of_each(self, entrants: Iterable[int]) -> dict[int, float]:
        """:meth:`buchholz_of` of each of ``entrants``, the scores worked out once."""
        size = 1 if self.is_teams else 2
        records = self.records
        scores = {entrant: record[1] + record[3] / 2 for entrant, record in records.items()}
        field, bits = _PAIR_FIELD, PAIR_BITS
        result: dict[int, float] = {}
        for entrant in entrants:
            if entrant not in records:
                result[entrant] = 0
                continue
            total = 0
            for opponent, count in self._pair_counts_of(entrant).items():
                games = (count & field) + (count >> bits & field) + (count >> 2 * bits)
                total += games * scores.get(opponent, 0.0) / size
            result[entrant] = total
        return result

    def standings(
        self,
        rules: SeasonRules,
        *,
        entrants: Iterable[int],
        names: Mapping[int, str],
        buchholz: Mapping[int, float],
        results_against: Callable[[int], Mapping[int, Sequence[int]]] | None = None,
    ) -> Standings:
        """The standings of ``entrants`` (every entrant with a game is one too), as
        :func:`~scoring.standings.domain.standings.compute_standings` ranks the games the totals
        hold. Needs every entrant's record and Buchholz; ``results_against`` answers head-to-head
        for entrants whose opponents are not loaded."""
        if rules.ranks_game_by_game:
            raise ValueError("these rules need each game (best nights, or a measure game by game)")
        nights_of = self._nights_by_entrant()
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


def _add_game_fields(line: list, row: SeatSums, sign: int) -> None:
    line[_GAMES] += sign * row.games
    line[_WINS] += sign * row.wins
    line[_LOSSES] += sign * row.losses
    line[_DRAWS] += sign * row.draws
    line[_POINTS_FOR] += sign * row.points_for
    line[_POINTS_AGAINST] += sign * row.points_against


def _take(pairs: dict[int, int], other: int, step: int) -> None:
    count = pairs[other] - step
    if count:
        pairs[other] = count
    else:
        del pairs[other]


def _pairs_stored(pairs: Mapping[int, int]) -> list[int]:
    """Pair counts as a stored stats line lists them: other id, wins, losses, draws, one record
    after the other, sorted by the other's id
    (:data:`~scoring.standings.domain.stats.PAIR_STORED_FIELDS`)."""
    field, bits = _PAIR_FIELD, PAIR_BITS
    stored: list[int] = []
    for other, count in sorted(pairs.items()):
        stored += (other, count & field, count >> bits & field, count >> 2 * bits)
    return stored


def pair_counts(stored: Sequence[int]) -> dict[int, int]:
    """A stored stats line's partner or opponent records as pair counts."""
    won, lost, drawn = PAIR_STEP
    return {
        other: wins * won + losses * lost + draws * drawn
        for other, wins, losses, draws in stored_records(stored)
    }


def _line_of(data: Mapping[str, Any]) -> list:
    return [data[name] for name in LINE_NAMES]


def stats_line_digest(data: Mapping[str, Any]) -> str:
    """A digest of a stored player or team stats line, taken from its counts (the line's
    numbers, then each list of partner and opponent records: its length, the other ids, the
    pair counts): equal for equal lines, and cheaper than a digest of the whole rendered line.
    The totals take it from their own counts, without rendering the line
    (:meth:`SeasonTotals.player_digest`)."""
    lists = [data["partners"], data["opponents"]] if "partners" in data else [data["opponents"]]
    return _digest(_line_of(data), [pair_counts(records) for records in lists])


def _digest(line: Sequence[int], pair_lists: Iterable[Mapping[int, int]]) -> str:
    digest = hashlib.md5(array("q", line).tobytes(), usedforsecurity=False)
    for pairs in pair_lists:
        others = sorted(pairs)
        digest.update(array("q", [len(others)]).tobytes())
        digest.update(array("q", others).tobytes())
        digest.update(array("q", map(pairs.__getitem__, others)).tobytes())
    return digest.hexdigest()


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
    result.update(totals.buchholz_of_each(changed))
    # An opponent is an entrant with a record or a changed one: with every entrant changed (a
    # fold from empty), nobody is left to move.
    everyone_changed = totals.records.keys() <= changed
    for opponent in () if everyone_changed else changed:
        moved = totals.score(opponent) - scores_before.get(opponent, 0)
        if not moved or opponent not in totals.records:
            continue
        for entrant, games in totals.games_against(opponent).items():
            if entrant in changed:
                continue
            result[entrant] = result.get(entrant, 0) + games * moved / size
    for entrant in [entrant for entrant in result if entrant not in totals.records]:
        result[entrant] = 0
    return result
