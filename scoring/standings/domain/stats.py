"""Player and team stats drawn from the hands and games of a season.

Pure Python, no Django. A service passes the season's
:class:`~scoring.standings.domain.standings.GameRecord` list and its :class:`HandRecord` list
(current hands only: superseded or voided ones left out, misdeals left out since they are redealt)
and stores the result (``to_dict()``). Every hand is read once: :class:`HandTotals` counts them per
side of each game (a large season has half a million hands), and the player stats, team stats and
side tallies are drawn from that count; a service reading hands from its database builds it from
plain *hand rows* (:data:`HAND_ROW_FIELDS`) rather than records.

Words used here (seats and sides as in :mod:`scoring.games.domain.engine`)
-------------------------------------------------------------------
seat
    0 to 3, clockwise. Seats 0 and 2 are side A, seats 1 and 3 side B, so partners sit opposite.
makers, defenders
    The side that named trump, and the other side. The *caller* is the maker who named it.
hand
    One scored deal of a game: hands that were thrown in (all passed twice) are kept in the input
    but count as no hand, as in the scoring engine.
at the table, in play
    A player is *at the table* for every hand dealt in a seat of theirs. They are *in play* unless
    their partner went alone (as lone caller or lone defender), when they sit the hand out. When the
    lone player is not known (``caller_id`` or ``lone_defender_id`` is ``None``), both partners
    count as in play.
outcome
    Read from ``tricks_won`` (the makers' tricks) on a hand without a renege: *made* with 3 or 4,
    a *march* with all 5, *euchred* with 2 or fewer. A hand with a renege has the renege as its
    outcome, as in the scoring engine: it is no march and no euchre.
call
    A hand where the player named trump. The call is *made good* when the makers took 3 tricks or
    more, or when the defenders reneged (the makers were not beaten).
loner
    A call where the caller went alone: *tried*, *made* (3 or more tricks), *marched* (all 5).
euchres suffered / inflicted
    Hands where the player's side were makers and were euchred while the player was in play /
    where the player's side defended, the player was in play and the makers were euchred.
renege
    A hand where the player's side reneged while the player was in play (the renege is the side's:
    both partners in play carry it).
record
    Games (finished, not forfeited), wins, losses and draws. A *partner record* counts the games a
    player played with each partner; an *opponent record* the games against each opponent. Forfeits
    are counted apart (``forfeit_wins``, ``forfeit_losses``): nothing was played.
points per game
    The points the player's side scored in their games, divided by the games.
side tally
    A side's marches, loners made and euchres inflicted in one game, which the standings'
    euchre tie-breaks add up (:func:`side_tallies`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, make_dataclass
from typing import Any, NamedTuple

from core.errors import DomainError
from scoring.games.domain.counts import HAND_COUNT_NAMES
from scoring.standings.domain.standings import SIDES, GameRecord, Side, SideTally

TRICKS_PER_HAND = 5
TRICKS_TO_MAKE = 3
EUCHRED_AT_MOST = TRICKS_TO_MAKE - 1


def side_of_seat(seat: int) -> Side:
    """Seats 0 and 2 are side A, seats 1 and 3 side B."""
    return "A" if seat % 2 == 0 else "B"


@dataclass(frozen=True)
class HandRecord:
    """One hand's facts, with the players in their seats.

    ``seats`` holds the four player ids by seat (0 to 3, clockwise; see the module docstring).
    ``makers`` is ``None`` only for a thrown-in hand. ``tricks_won`` is the makers' tricks,
    ``None`` when a renege ended the hand. ``renege`` is the side that reneged. ``points_a`` and
    ``points_b`` are the points the scoring engine derived (they do not enter these stats; they are
    kept so one record can serve both).
    """

    game_id: int
    number: int
    seats: tuple[int, int, int, int]
    makers: Side | None
    tricks_won: int | None = None
    caller_id: int | None = None
    caller_alone: bool = False
    defender_alone: bool = False
    lone_defender_id: int | None = None
    renege: Side | None = None
    thrown_in: bool = False
    points_a: int = 0
    points_b: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))
        where = f"hand {self.number} of game {self.game_id}"
        if len(self.seats) != 4 or len(set(self.seats)) != 4:
            raise DomainError(f"{where} needs four different players", field="seats")
        if self.thrown_in:
            if self.makers is not None or self.tricks_won is not None or self.renege is not None:
                raise DomainError(
                    f"{where} was thrown in: it has no makers, tricks or renege", field="thrown_in"
                )
            return
        if self.makers not in SIDES:
            raise DomainError(f"{where}: say which side made trump", field="makers")
        if self.renege not in (None, *SIDES):
            raise DomainError(f"{where}: the side that reneged is A or B", field="renege")
        if self.tricks_won is None and self.renege is None:
            raise DomainError(f"{where}: say how many tricks the makers took", field="tricks_won")
        if self.tricks_won is not None and not 0 <= self.tricks_won <= TRICKS_PER_HAND:
            raise DomainError(f"{where}: tricks are 0 to 5", field="tricks_won")
        if self.caller_id is not None and self.caller_id not in self.side_players(self.makers):
            raise DomainError(f"{where}: the caller sits on the makers' side", field="caller_id")
        if self.lone_defender_id is not None and (
            not self.defender_alone
            or self.lone_defender_id not in self.side_players(self.defenders)
        ):
            raise DomainError(
                f"{where}: the lone defender sits on the defending side and went alone",
                field="lone_defender_id",
            )

    @property
    def defenders(self) -> Side | None:
        if self.makers is None:
            return None
        return "B" if self.makers == "A" else "A"

    def side_players(self, side: Side) -> tuple[int, int]:
        first = 0 if side == "A" else 1
        return self.seats[first], self.seats[first + 2]

    @property
    def is_scored(self) -> bool:
        """Whether it counts as a hand (a thrown-in hand does not)."""
        return not self.thrown_in

    @property
    def has_outcome(self) -> bool:
        """Whether made / march / euchre can be read from it (scored, tricks known, no renege)."""
        return not self.thrown_in and self.renege is None and self.tricks_won is not None

    @property
    def is_march(self) -> bool:
        return self.has_outcome and self.tricks_won == TRICKS_PER_HAND

    @property
    def is_made(self) -> bool:
        return self.has_outcome and self.tricks_won >= TRICKS_TO_MAKE

    @property
    def is_euchre(self) -> bool:
        return self.has_outcome and self.tricks_won <= EUCHRED_AT_MOST

    @property
    def call_made_good(self) -> bool:
        return self.is_made or (self.renege is not None and self.renege == self.defenders)

    def sitting_out(self) -> frozenset[int]:
        """The players sitting the hand out: the partner of a known lone caller, and the partner
        of a known lone defender (both, when a lone defender answers a lone caller)."""
        out: set[int] = set()
        if self.thrown_in:
            return frozenset(out)
        if self.caller_alone and self.caller_id is not None:
            first, second = self.side_players(self.makers)
            out.add(second if self.caller_id == first else first)
        if self.defender_alone and self.lone_defender_id is not None:
            first, second = self.side_players(self.defenders)
            out.add(second if self.lone_defender_id == first else first)
        return frozenset(out)


class PairRecord(NamedTuple):
    """A player's (or team's) games with a partner or against an opponent.

    A named tuple rather than a dataclass: a big season makes hundreds of thousands of them, and a
    tuple is as immutable and several times cheaper to build. ``_asdict()`` gives the JSON form.
    """

    other_id: int
    games: int
    wins: int
    losses: int
    draws: int


class StatField(NamedTuple):
    """One field of a stats line (see :data:`STATS_LINE`)."""

    name: str
    label: str
    """The field in words, for people (a page's heading)."""
    kind: str
    """``"count"`` (a whole number), ``"points"`` (whole, or a fraction after an adjustment) or
    ``"average"`` (a fraction)."""
    counted_from: str
    """``"games"`` (a game count: :data:`GAME_COUNT_NAMES`), ``"hands"`` (a hand count:
    :data:`HAND_COUNT_NAMES`), or ``""`` when worked out from the others."""
    group: str = ""
    """Fields of one group are read together (a page shows them in one row)."""
    description: str = ""
    """What the field counts, where its name does not say it all (the API schema's text)."""


COUNT, POINTS, AVERAGE = "count", "points", "average"
STATS_LINE = (
    StatField("games", "Games", COUNT, "games"),
    StatField("wins", "Wins", COUNT, "games", group="record"),
    StatField("losses", "Losses", COUNT, "games", group="record"),
    StatField("draws", "Draws", COUNT, "games", group="record"),
    StatField("forfeit_wins", "Forfeit wins", COUNT, "games", group="forfeits"),
    StatField("forfeit_losses", "Forfeit losses", COUNT, "games", group="forfeits"),
    StatField("hands", "Hands", COUNT, "hands"),
    StatField("points_for", "Points for", POINTS, "games", group="points"),
    StatField("points_against", "Points against", POINTS, "games", group="points"),
    StatField("points_per_game", "Points per game", AVERAGE, ""),
    StatField(
        "calls", "Calls", COUNT, "hands", group="calls",
        description="Hands this player called trump.",
    ),
    StatField(
        "calls_made", "Calls made", COUNT, "hands", group="calls",
        description="Calls the makers made good (3+ tricks).",
    ),
    StatField("marches", "Marches", COUNT, "hands"),
    StatField("loners_tried", "Loners tried", COUNT, "hands", group="loners"),
    StatField("loners_made", "Loners made", COUNT, "hands", group="loners"),
    StatField("loners_marched", "Loners marched", COUNT, "hands", group="loners"),
    StatField("euchres_suffered", "Euchres suffered", COUNT, "hands", group="euchres"),
    StatField("euchres_inflicted", "Euchres inflicted", COUNT, "hands", group="euchres"),
    StatField("reneges", "Reneges", COUNT, "hands"),
)  # fmt: skip
"""A player's or team's stats line, in order: the one list of its fields. :class:`PlayerStats`,
:class:`TeamStats`, the game and hand counts they are added up from, the totals that keep them
between recomputes, the API's serializer and the public pages' stats all take their fields from
here (a player's stats line is ``player_id``, these, ``partners`` and ``opponents``; a team's
``team_id``, these and ``opponents``). Every word is defined in the module docstring."""
STATS_LINE_NAMES = tuple(stat.name for stat in STATS_LINE)
if tuple(stat.name for stat in STATS_LINE if stat.counted_from == "hands") != HAND_COUNT_NAMES:
    raise ImportError("STATS_LINE's hand counts must be HAND_COUNT_NAMES, in its order")
GAME_COUNT_NAMES = tuple(stat.name for stat in STATS_LINE if stat.counted_from == "games")
"""A line of game counts, while it is added up (player and team stats alike), in this order."""
GAME_FIELD_COUNT = len(GAME_COUNT_NAMES)
_GAMES, _WINS, _LOSSES, _DRAWS, _FORFEIT_WINS, _FORFEIT_LOSSES, _POINTS_FOR, _POINTS_AGAINST = (
    GAME_COUNT_NAMES.index(name)
    for name in (
        "games",
        "wins",
        "losses",
        "draws",
        "forfeit_wins",
        "forfeit_losses",
        "points_for",
        "points_against",
    )
)
# A game's result adds 1 at _WINS + 0, 1 or 2 (won, lost, drawn; see _game_lines).
assert (_LOSSES, _DRAWS) == (_WINS + 1, _WINS + 2)
_POINTS_NAMES = tuple(stat.name for stat in STATS_LINE if stat.kind == POINTS)
_PYTHON_TYPES = {COUNT: int, POINTS: int | float, AVERAGE: float}


def pair_records(pairs: Mapping[int, list[int]]) -> tuple[PairRecord, ...]:
    make = tuple.__new__  # a named tuple's own constructor, without the keyword handling
    return tuple(
        [
            make(PairRecord, (other, wins + losses + draws, wins, losses, draws))
            for other, (wins, losses, draws) in sorted(pairs.items())
        ]
    )


def _pair_dicts(records: tuple[PairRecord, ...]) -> list[dict[str, int]]:
    """``[record._asdict() for record in records]``, spelt out: a large season has half a
    million of them."""
    return [
        {"other_id": other, "games": games, "wins": wins, "losses": losses, "draws": draws}
        for other, games, wins, losses, draws in records
    ]


STATS_LINE_KINDS = ("player", "team")
"""The kinds of stored line that are stats lines (``StandingLine.Kind``'s values): theirs are
the pair records stored as numbers (:data:`PAIR_STORED_FIELDS`)."""
PAIR_LISTS = ("partners", "opponents")
"""A stats line's lists of pair records (a team's line has only ``opponents``)."""
PAIR_STORED_FIELDS = ("other_id", "wins", "losses", "draws")
"""A pair record as a stored stats line keeps it: these four numbers in a row, and a list's
records one after the other in one flat list of numbers, sorted by the other's id (a record's
``games`` is the sum of the last three). A player of a large season has a thousand records:
stored as objects they made a line of 60 kB, as numbers 12 kB. The API and the pages show
each record as an object (:class:`PairRecord`'s fields): :func:`stats_line_shown`."""
_STORED_WIDTH = len(PAIR_STORED_FIELDS)


def stored_records(stored: Sequence[int]) -> Iterable[tuple[int, int, int, int]]:
    """A stored list of pair records (:data:`PAIR_STORED_FIELDS`), one tuple a record; a list
    whose length is not a whole number of records is refused (``ValueError``)."""
    columns = (stored[at::_STORED_WIDTH] for at in range(_STORED_WIDTH))
    return zip(*columns, strict=True)


def pairs_shown(stored: Sequence[int]) -> list[dict[str, int]]:
    """A stored list of pair records (:data:`PAIR_STORED_FIELDS`) as the API shows it."""
    return [
        {"other_id": other, "games": wins + losses + draws, "wins": wins, "losses": losses,
         "draws": draws}
        for other, wins, losses, draws in stored_records(stored)
    ]  # fmt: skip


def pairs_stored(records: Iterable[Mapping[str, int]]) -> list[int]:
    """Pair records as the API shows them, as a stored list (:data:`PAIR_STORED_FIELDS`)."""
    return [record[name] for record in records for name in PAIR_STORED_FIELDS]


def stats_line_shown(line: Mapping[str, Any]) -> dict[str, Any]:
    """A stored player or team stats line as the API and the pages show it: each list of pair
    records a list of objects (:func:`pairs_shown`)."""
    return {
        name: pairs_shown(value) if name in PAIR_LISTS else value for name, value in line.items()
    }


def stats_line_stored(line: Mapping[str, Any]) -> dict[str, Any]:
    """A stats line as shown (``to_dict()``) as it is stored (:data:`PAIR_STORED_FIELDS`)."""
    return {
        name: pairs_stored(value) if name in PAIR_LISTS else value for name, value in line.items()
    }


def _plain_fields(stats: Any) -> dict[str, Any]:
    return {f.name: getattr(stats, f.name) for f in fields(stats)}


def _plain(value: float) -> int | float:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def stats_fields(line: list, hand_counts: list[int]) -> dict[str, Any]:
    """The fields player and team stats share (:data:`STATS_LINE`), from a game line and the
    hand counts."""
    values = dict(zip(GAME_COUNT_NAMES, line[:GAME_FIELD_COUNT], strict=True))
    values.update(zip(HAND_COUNT_NAMES, hand_counts[:HAND_COUNT_FIELDS], strict=True))
    games, points_for = values["games"], values["points_for"]
    values["points_per_game"] = points_for / games if games else 0.0
    for name in _POINTS_NAMES:
        values[name] = _plain(values[name])
    return values


def _player_to_dict(self) -> dict[str, Any]:
    """A JSON-able dict (tuples of records become lists of dicts)."""
    return _plain_fields(self) | {
        "partners": _pair_dicts(self.partners),
        "opponents": _pair_dicts(self.opponents),
    }


def _team_to_dict(self) -> dict[str, Any]:
    """A JSON-able dict (tuples of records become lists of dicts)."""
    return _plain_fields(self) | {"opponents": _pair_dicts(self.opponents)}


def _stats_class(name: str, own_id: str, records: tuple[str, ...], to_dict, doc: str) -> type:
    """A frozen dataclass of ``own_id``, the fields of :data:`STATS_LINE`, then ``records``."""
    return make_dataclass(
        name,
        [
            (own_id, int),
            *((stat.name, _PYTHON_TYPES[stat.kind]) for stat in STATS_LINE),
            *((record, tuple[PairRecord, ...]) for record in records),
        ],
        namespace={"__module__": __name__, "__doc__": doc, "to_dict": to_dict},
        frozen=True,
    )


PlayerStats = _stats_class(
    "PlayerStats",
    "player_id",
    ("partners", "opponents"),
    _player_to_dict,
    """One player's season, from hands and games (every word is defined in the module docstring):
    ``player_id``, the fields of :data:`STATS_LINE`, ``partners`` and ``opponents``.

    ``partners`` and ``opponents`` are sorted by the other player's id.
    """,
)
TeamStats = _stats_class(
    "TeamStats",
    "team_id",
    ("opponents",),
    _team_to_dict,
    """One team's season in a team season: the same counts, for the side as a whole:
    ``team_id``, the fields of :data:`STATS_LINE` and ``opponents``.

    A team's ``marches`` include its loners marched; ``calls`` are the hands it made trump.
    ``opponents`` are the other teams, sorted by id.
    """,
)


def _game_lines(
    games: Iterable[GameRecord], *, players: bool
) -> tuple[dict[int, list], dict[int, dict[int, list[int]]], dict[int, dict[int, list[int]]]]:
    """Each player's (or team's) game line, partner records and opponent records, in one pass.

    With ``players`` the sides are the games' players (partners and opponents are players);
    without, each side is one team (no partners; opponents are teams).
    """
    lines: dict[int, list] = {}
    partners: dict[int, dict[int, list[int]]] = {}
    opponents: dict[int, dict[int, list[int]]] = {}

    def line_of(who: int) -> list:
        line = lines.get(who)
        if line is None:
            line = lines[who] = [0] * GAME_FIELD_COUNT
            partners[who] = {}
            opponents[who] = {}
        return line

    for game in games:
        if players:
            side_a, side_b = game.players("A"), game.players("B")
        else:
            side_a, side_b = (_team_of(game, "A"),), (_team_of(game, "B"),)
        if game.forfeited_by is not None:
            lost_a = game.forfeited_by == "A"
            for who in side_a:
                line_of(who)[_FORFEIT_LOSSES if lost_a else _FORFEIT_WINS] += 1
            for who in side_b:
                line_of(who)[_FORFEIT_WINS if lost_a else _FORFEIT_LOSSES] += 1
            continue
        winner = game.winner
        index_a, index_b = (0, 1) if winner == "A" else (1, 0) if winner == "B" else (2, 2)
        for own, other, index, points_for, points_against in (
            (side_a, side_b, index_a, game.points_a, game.points_b),
            (side_b, side_a, index_b, game.points_b, game.points_a),
        ):
            for who in own:
                line = line_of(who)
                line[_GAMES] += 1
                line[_WINS + index] += 1
                line[_POINTS_FOR] += points_for
                line[_POINTS_AGAINST] += points_against
                if players:
                    records = partners[who]
                    for partner in own:
                        if partner != who:
                            record = records.get(partner)
                            if record is None:
                                record = records[partner] = [0, 0, 0]
                            record[index] += 1
                records = opponents[who]
                for opponent in other:
                    record = records.get(opponent)
                    if record is None:
                        record = records[opponent] = [0, 0, 0]
                    record[index] += 1
    return lines, partners, opponents


def player_stats(
    games: Iterable[GameRecord], hands: Iterable[HandRecord] | HandTotals
) -> tuple[PlayerStats, ...]:
    """Every player's stats, sorted by player id.

    Records and points come from ``games`` (their players: ``players_a``/``players_b``, or the
    entrants in an individual season); hand counts from ``hands`` (their seats), given as hand
    records or as the :class:`HandTotals` already counted from them.
    """
    lines, partners, opponents = _game_lines(games, players=True)
    counts = _as_totals(hands).player_counts()
    empty_hands = [0] * HAND_COUNT_FIELDS
    for player in counts:
        if player not in lines:
            lines[player] = [0] * GAME_FIELD_COUNT
            partners[player] = opponents[player] = {}
    return tuple(
        PlayerStats(
            player_id=player,
            **stats_fields(line, counts.get(player, empty_hands)),
            partners=pair_records(partners[player]),
            opponents=pair_records(opponents[player]),
        )
        for player, line in sorted(lines.items())
    )


def _team_of(game: GameRecord, side: Side) -> int:
    entrants = game.entrants(side)
    if len(entrants) != 1:
        raise ValueError(
            f"game {game.game_id} is not a team game: side {side} holds {len(entrants)} entrants"
        )
    return entrants[0]


def team_stats(
    games: Iterable[GameRecord], hands: Iterable[HandRecord] | HandTotals
) -> tuple[TeamStats, ...]:
    """Every team's stats in a team season (each side one team id), sorted by team id."""
    games = list(games)
    lines, _partners, opponents = _game_lines(games, players=False)
    teams_of = {game.game_id: (game.side_a[0], game.side_b[0]) for game in games}
    totals = _as_totals(hands)
    counts: dict[int, list[int]] = {}
    for (game_id, _seats), sides in totals.sides.items():
        teams = teams_of.get(game_id)
        if teams is None:
            number = totals.first_numbers[game_id, _seats]
            raise ValueError(f"hand {number} belongs to game {game_id}, not given")
        for team, side in zip(teams, sides, strict=True):
            line = counts.get(team)
            if line is None:
                counts[team] = side[:HAND_COUNT_FIELDS]
            else:
                for index in range(HAND_COUNT_FIELDS):
                    line[index] += side[index]
    empty_hands = [0] * HAND_COUNT_FIELDS
    return tuple(
        TeamStats(
            team_id=team,
            **stats_fields(line, counts.get(team, empty_hands)),
            opponents=pair_records(opponents[team]),
        )
        for team, line in sorted(lines.items())
    )


def side_tallies(
    hands: Iterable[HandRecord] | HandTotals,
) -> dict[int, tuple[SideTally, SideTally]]:
    """Each game's side tallies (side A's, side B's), by game id, for the standings.

    A march counts whether or not the caller went alone; a loner made is a lone call with 3 tricks
    or more; a euchre inflicted is a hand the side defended with the makers on 2 tricks or fewer.
    Only games with a hand whose outcome is known (no renege, tricks recorded) are listed.
    """
    sums: dict[int, list[int]] = {}
    for (game_id, _seats), (side_a, side_b) in _as_totals(hands).sides.items():
        if not side_a[_OUTCOMES]:
            continue
        row = sums.get(game_id)
        if row is None:
            row = sums[game_id] = [0, 0, 0, 0, 0, 0]
        for offset, side in ((0, side_a), (3, side_b)):
            row[offset] += side[MARCHES_INDEX]
            row[offset + 1] += side[LONERS_MADE_INDEX]
            row[offset + 2] += side[EUCHRES_INFLICTED_INDEX]
    return {game_id: (SideTally(*row[:3]), SideTally(*row[3:])) for game_id, row in sums.items()}


# --------------------------------------------------------------------------------------------
# Hand totals: every hand read once
# --------------------------------------------------------------------------------------------

HAND_ROW_FIELDS = (
    "game_id",
    "number",
    "seats",
    "makers",
    "tricks_won",
    "caller_id",
    "caller_alone",
    "defender_alone",
    "lone_defender_id",
    "renege",
    "thrown_in",
)
"""A *hand row*: a :class:`HandRecord`'s facts as a plain tuple, in this order (points left out).

A service reading a season's hands from its database may pass rows instead of records: they cost
a fraction of a record to build, and are taken as already checked (by the database's
constraints and by the services that wrote them), so they are not checked again.
"""

(
    _HANDS,
    _CALLS,
    _CALLS_MADE,
    MARCHES_INDEX,
    _LONERS_TRIED,
    LONERS_MADE_INDEX,
    _LONERS_MARCHED,
    _EUCHRES_SUFFERED,
    EUCHRES_INFLICTED_INDEX,
    _RENEGES,
) = (
    HAND_COUNT_NAMES.index(name)
    for name in (
        "hands",
        "calls",
        "calls_made",
        "marches",
        "loners_tried",
        "loners_made",
        "loners_marched",
        "euchres_suffered",
        "euchres_inflicted",
        "reneges",
    )
)
HAND_COUNT_FIELDS = len(HAND_COUNT_NAMES)
# After a side's counts as a whole: the same events counted only when both partners were in play
# (they go to both players of the side), and the hands whose outcome is known.
_BOTH_MARCHES, _BOTH_SUFFERED, _BOTH_INFLICTED, _BOTH_RENEGES, _OUTCOMES = range(
    HAND_COUNT_FIELDS, HAND_COUNT_FIELDS + 5
)
_SIDE_FIELDS = HAND_COUNT_FIELDS + 5
SIDE_COUNT_NAMES = (
    *HAND_COUNT_NAMES,
    "both_marches",
    "both_suffered",
    "both_inflicted",
    "both_reneges",
    "outcomes",
)
"""A side's counts in one game (:class:`HandTotals`), in order: the side's hand counts, then the
marches, euchres suffered and inflicted and reneges of hands where both partners were in play,
then the hands whose outcome is known (counted on side A only)."""


def side_counts(makers_a: Sequence[int], makers_b: Sequence[int]) -> tuple[tuple, tuple]:
    """Each side's counts (:data:`SIDE_COUNT_NAMES`) in one game, from the counts of the hands
    each side made trump (:data:`MAKER_COUNT_NAMES`); as :meth:`HandTotals.from_rows` counts
    them with no lone defender named."""
    (
        calls_a,
        made_a,
        marches_a,
        euchres_a,
        known_a,
        tried_a,
        lone_made_a,
        lone_marched_a,
        solo_marches_a,
        solo_euchres_a,
        own_reneges_a,
        solo_reneges_a,
        their_reneges_a,
    ) = makers_a
    (
        calls_b,
        made_b,
        marches_b,
        euchres_b,
        known_b,
        tried_b,
        lone_made_b,
        lone_marched_b,
        solo_marches_b,
        solo_euchres_b,
        own_reneges_b,
        solo_reneges_b,
        their_reneges_b,
    ) = makers_b
    hands = calls_a + calls_b
    side_a = (
        hands,
        calls_a,
        made_a,
        marches_a,
        tried_a,
        lone_made_a,
        lone_marched_a,
        euchres_a,
        euchres_b,
        own_reneges_a + their_reneges_b,
        marches_a - solo_marches_a,
        euchres_a - solo_euchres_a,
        euchres_b,
        own_reneges_a - solo_reneges_a + their_reneges_b,
        known_a + known_b,
    )
    side_b = (
        hands,
        calls_b,
        made_b,
        marches_b,
        tried_b,
        lone_made_b,
        lone_marched_b,
        euchres_b,
        euchres_a,
        own_reneges_b + their_reneges_a,
        marches_b - solo_marches_b,
        euchres_b - solo_euchres_b,
        euchres_a,
        own_reneges_b - solo_reneges_b + their_reneges_a,
        0,
    )
    return side_a, side_b  # fmt: skip


class HandTotals:
    """A season's hands counted once, for the stats and the side tallies to share.

    ``sides`` maps ``(game_id, seats)`` to two lists of counts, side A's and side B's: the
    side's counts as a whole (a team's hand counts, in the order of ``HAND_COUNT_NAMES``), then
    the marches, euchres suffered and inflicted and reneges of hands where both partners were in
    play, then the hands whose outcome is known. ``alone`` maps a player to the counts that are
    theirs alone: calls (and loners) as the caller, and the events of hands where they played
    while their partner sat out. ``first_numbers`` keeps each game's first scored hand (to name
    it in an error). Thrown-in hands count for nothing.
    """

    __slots__ = ("alone", "first_numbers", "sides")

    def __init__(self) -> None:
        self.sides: dict[tuple[int, tuple[int, ...]], tuple[list[int], list[int]]] = {}
        self.first_numbers: dict[tuple[int, tuple[int, ...]], int] = {}
        self.alone: dict[int, list[int]] = {}

    @classmethod
    def from_rows(cls, rows: Iterable[tuple]) -> HandTotals:
        """Count hand rows (see :data:`HAND_ROW_FIELDS`) in one pass."""
        totals = cls()
        sides, first_numbers, alone = totals.sides, totals.first_numbers, totals.alone
        for (
            game_id,
            number,
            seats,
            makers,
            tricks,
            caller,
            caller_alone,
            defender_alone,
            lone_defender,
            renege,
            thrown_in,
        ) in rows:
            if thrown_in:
                continue
            key = (game_id, seats)
            pair = sides.get(key)
            if pair is None:
                pair = sides[key] = ([0] * _SIDE_FIELDS, [0] * _SIDE_FIELDS)
                first_numbers[key] = number
            if makers == "A":
                own, their = pair
            else:
                their, own = pair
            own[_HANDS] += 1
            their[_HANDS] += 1
            own[_CALLS] += 1
            march = made = euchre = False
            if renege is None:
                if tricks is not None:
                    pair[0][_OUTCOMES] += 1
                    march = tricks == TRICKS_PER_HAND
                    made = tricks >= TRICKS_TO_MAKE
                    euchre = not made
                made_good = made
            else:
                made_good = renege != makers  # the defenders reneged
            own[_CALLS_MADE] += made_good
            if caller_alone:
                own[_LONERS_TRIED] += 1
                own[LONERS_MADE_INDEX] += made
                own[_LONERS_MARCHED] += march
            if caller is not None:
                counts = alone.get(caller)
                if counts is None:
                    counts = alone[caller] = [0] * HAND_COUNT_FIELDS
                counts[_CALLS] += 1
                counts[_CALLS_MADE] += made_good
                if caller_alone:
                    counts[_LONERS_TRIED] += 1
                    counts[LONERS_MADE_INDEX] += made
                    counts[_LONERS_MARCHED] += march
            if not (march or euchre or renege is not None):
                continue
            own_reneged = renege == makers
            their_reneged = renege is not None and not own_reneged
            own[MARCHES_INDEX] += march
            own[_EUCHRES_SUFFERED] += euchre
            their[EUCHRES_INFLICTED_INDEX] += euchre
            own[_RENEGES] += own_reneged
            their[_RENEGES] += their_reneged
            if caller_alone and caller is not None:  # the partner sat out
                counts = alone[caller]
                counts[MARCHES_INDEX] += march
                counts[_EUCHRES_SUFFERED] += euchre
                counts[_RENEGES] += own_reneged
            else:
                own[_BOTH_MARCHES] += march
                own[_BOTH_SUFFERED] += euchre
                own[_BOTH_RENEGES] += own_reneged
            if defender_alone and lone_defender is not None:  # the partner sat out
                counts = alone.get(lone_defender)
                if counts is None:
                    counts = alone[lone_defender] = [0] * HAND_COUNT_FIELDS
                counts[EUCHRES_INFLICTED_INDEX] += euchre
                counts[_RENEGES] += their_reneged
            else:
                their[_BOTH_INFLICTED] += euchre
                their[_BOTH_RENEGES] += their_reneged
        return totals

    def player_counts(self) -> dict[int, list[int]]:
        """Each seated player's hand counts (``HAND_COUNT_NAMES`` order)."""
        counts: dict[int, list[int]] = {}
        for (_game_id, seats), pair in self.sides.items():
            for seat, player in enumerate(seats):
                side = pair[seat % 2]
                line = counts.get(player)
                if line is None:
                    line = counts[player] = [0] * HAND_COUNT_FIELDS
                line[_HANDS] += side[_HANDS]
                line[MARCHES_INDEX] += side[_BOTH_MARCHES]
                line[_EUCHRES_SUFFERED] += side[_BOTH_SUFFERED]
                line[EUCHRES_INFLICTED_INDEX] += side[_BOTH_INFLICTED]
                line[_RENEGES] += side[_BOTH_RENEGES]
        for player, own in self.alone.items():
            line = counts.get(player)
            if line is None:
                line = counts[player] = [0] * HAND_COUNT_FIELDS
            for index in range(1, HAND_COUNT_FIELDS):
                line[index] += own[index]
        return counts


def hand_rows(hands: Iterable[HandRecord]) -> list[tuple]:
    """Hand records as hand rows (see :data:`HAND_ROW_FIELDS`)."""
    return [
        (
            hand.game_id,
            hand.number,
            hand.seats,
            hand.makers,
            hand.tricks_won,
            hand.caller_id,
            hand.caller_alone,
            hand.defender_alone,
            hand.lone_defender_id,
            hand.renege,
            hand.thrown_in,
        )
        for hand in hands
    ]


def hand_totals(hands: Iterable[HandRecord]) -> HandTotals:
    """Count hand records once, for :func:`player_stats`, :func:`team_stats` and
    :func:`side_tallies` to share."""
    return HandTotals.from_rows(hand_rows(hands))


def _as_totals(hands: Iterable[HandRecord] | HandTotals) -> HandTotals:
    return hands if isinstance(hands, HandTotals) else hand_totals(hands)
