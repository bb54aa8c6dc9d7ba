"""Player and team stats drawn from the hands and games of a season.

Pure Python, no Django. A service passes the season's :class:`~scoring.domain.standings.GameRecord`
list and its :class:`HandRecord` list (current hands only: superseded or voided ones left out,
misdeals left out since they are redealt) and stores the result (``to_dict()``).

Words used here (seats and sides as in :mod:`scoring.domain.engine`)
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

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple

from league.errors import DomainError
from scoring.domain.standings import SIDES, GameRecord, Side, SideTally

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


@dataclass
class _Counts:
    """The counts shared by player and team stats, while they are added up."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    forfeit_wins: int = 0
    forfeit_losses: int = 0
    hands: int = 0
    points_for: float = 0
    points_against: float = 0
    calls: int = 0
    calls_made: int = 0
    marches: int = 0
    loners_tried: int = 0
    loners_made: int = 0
    loners_marched: int = 0
    euchres_suffered: int = 0
    euchres_inflicted: int = 0
    reneges: int = 0
    partners: dict[int, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0, 0]))
    opponents: dict[int, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0, 0]))

    def add_game(self, game: GameRecord, side: Side) -> float | None:
        """Add a game's record and points; return its result (``None`` for a forfeit)."""
        if game.is_forfeit:
            if game.forfeited_by == side:
                self.forfeit_losses += 1
            else:
                self.forfeit_wins += 1
            return None
        other: Side = "B" if side == "A" else "A"
        result = game.result(side)
        self.games += 1
        self.wins += result == 1.0
        self.losses += result == 0.0
        self.draws += result == 0.5
        self.points_for += game.points(side)
        self.points_against += game.points(other)
        return result

    def common(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "forfeit_wins": self.forfeit_wins,
            "forfeit_losses": self.forfeit_losses,
            "hands": self.hands,
            "points_for": _plain(self.points_for),
            "points_against": _plain(self.points_against),
            "points_per_game": self.points_for / self.games if self.games else 0.0,
            "calls": self.calls,
            "calls_made": self.calls_made,
            "marches": self.marches,
            "loners_tried": self.loners_tried,
            "loners_made": self.loners_made,
            "loners_marched": self.loners_marched,
            "euchres_suffered": self.euchres_suffered,
            "euchres_inflicted": self.euchres_inflicted,
            "reneges": self.reneges,
        }


def _pair_records(pairs: Mapping[int, list[int]]) -> tuple[PairRecord, ...]:
    return tuple(
        PairRecord(
            other_id=other,
            games=sum(counts),
            wins=counts[0],
            losses=counts[1],
            draws=counts[2],
        )
        for other, counts in sorted(pairs.items())
    )


def _result_index(result: float) -> int:
    """Where a result is counted in a ``[wins, losses, draws]`` list."""
    return 0 if result == 1.0 else 1 if result == 0.0 else 2


def _plain_fields(stats: Any) -> dict[str, Any]:
    return {f.name: getattr(stats, f.name) for f in fields(stats)}


def _plain(value: float) -> int | float:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


@dataclass(frozen=True)
class PlayerStats:
    """One player's season, from hands and games (every word is defined in the module docstring).

    ``partners`` and ``opponents`` are sorted by the other player's id.
    """

    player_id: int
    games: int
    wins: int
    losses: int
    draws: int
    forfeit_wins: int
    forfeit_losses: int
    hands: int
    points_for: int | float
    points_against: int | float
    points_per_game: float
    calls: int
    calls_made: int
    marches: int
    loners_tried: int
    loners_made: int
    loners_marched: int
    euchres_suffered: int
    euchres_inflicted: int
    reneges: int
    partners: tuple[PairRecord, ...]
    opponents: tuple[PairRecord, ...]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (tuples of records become lists of dicts)."""
        return _plain_fields(self) | {
            "partners": [p._asdict() for p in self.partners],
            "opponents": [o._asdict() for o in self.opponents],
        }


@dataclass(frozen=True)
class TeamStats:
    """One team's season in a team season: the same counts, for the side as a whole.

    A team's ``marches`` include its loners marched; ``calls`` are the hands it made trump.
    ``opponents`` are the other teams, sorted by id.
    """

    team_id: int
    games: int
    wins: int
    losses: int
    draws: int
    forfeit_wins: int
    forfeit_losses: int
    hands: int
    points_for: int | float
    points_against: int | float
    points_per_game: float
    calls: int
    calls_made: int
    marches: int
    loners_tried: int
    loners_made: int
    loners_marched: int
    euchres_suffered: int
    euchres_inflicted: int
    reneges: int
    opponents: tuple[PairRecord, ...]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (tuples of records become lists of dicts)."""
        return _plain_fields(self) | {"opponents": [o._asdict() for o in self.opponents]}


def player_stats(
    games: Iterable[GameRecord], hands: Iterable[HandRecord]
) -> tuple[PlayerStats, ...]:
    """Every player's stats, sorted by player id.

    Records and points come from ``games`` (their players: ``players_a``/``players_b``, or the
    entrants in an individual season); hand counts from ``hands`` (their seats).
    """
    counts: dict[int, _Counts] = defaultdict(_Counts)
    for game in games:
        for side in SIDES:
            other: Side = "B" if side == "A" else "A"
            players = game.players(side)
            opponents = game.players(other)
            for player in players:
                tally = counts[player]
                result = tally.add_game(game, side)
                if result is None:
                    continue
                index = _result_index(result)
                for partner in players:
                    if partner != player:
                        tally.partners[partner][index] += 1
                for opponent in opponents:
                    tally.opponents[opponent][index] += 1

    for hand in hands:
        if not hand.is_scored:
            continue
        # The hand's facts once, not once per seat: this loop runs four times per hand.
        sitting_out = hand.sitting_out()
        march, made, euchre = hand.is_march, hand.is_made, hand.is_euchre
        caller, alone = hand.caller_id, hand.caller_alone
        for seat, player in enumerate(hand.seats):
            tally = counts[player]
            tally.hands += 1
            in_play = player not in sitting_out
            side = side_of_seat(seat)
            if side == hand.makers:
                if player == caller:
                    tally.calls += 1
                    tally.calls_made += hand.call_made_good
                    if alone:
                        tally.loners_tried += 1
                        tally.loners_made += made
                        tally.loners_marched += march
                if in_play:
                    tally.marches += march
                    tally.euchres_suffered += euchre
            elif in_play:
                tally.euchres_inflicted += euchre
            if in_play and hand.renege == side:
                tally.reneges += 1

    return tuple(
        PlayerStats(
            player_id=player,
            **tally.common(),
            partners=_pair_records(tally.partners),
            opponents=_pair_records(tally.opponents),
        )
        for player, tally in sorted(counts.items())
    )


def _team_of(game: GameRecord, side: Side) -> int:
    entrants = game.entrants(side)
    if len(entrants) != 1:
        raise ValueError(
            f"game {game.game_id} is not a team game: side {side} holds {len(entrants)} entrants"
        )
    return entrants[0]


def team_stats(games: Iterable[GameRecord], hands: Iterable[HandRecord]) -> tuple[TeamStats, ...]:
    """Every team's stats in a team season (each side one team id), sorted by team id."""
    games = list(games)
    by_id = {game.game_id: game for game in games}
    counts: dict[int, _Counts] = defaultdict(_Counts)
    for game in games:
        for side in SIDES:
            other: Side = "B" if side == "A" else "A"
            team = _team_of(game, side)
            result = counts[team].add_game(game, side)
            if result is not None:
                counts[team].opponents[_team_of(game, other)][_result_index(result)] += 1

    for hand in hands:
        if not hand.is_scored:
            continue
        game = by_id.get(hand.game_id)
        if game is None:
            raise ValueError(f"hand {hand.number} belongs to game {hand.game_id}, not given")
        for side in SIDES:
            tally = counts[_team_of(game, side)]
            tally.hands += 1
            if side == hand.makers:
                tally.calls += 1
                tally.calls_made += hand.call_made_good
                tally.marches += hand.is_march
                tally.euchres_suffered += hand.is_euchre
                if hand.caller_alone:
                    tally.loners_tried += 1
                    tally.loners_made += hand.is_made
                    tally.loners_marched += hand.is_march
            else:
                tally.euchres_inflicted += hand.is_euchre
            tally.reneges += hand.renege == side

    return tuple(
        TeamStats(team_id=team, **tally.common(), opponents=_pair_records(tally.opponents))
        for team, tally in sorted(counts.items())
    )


def side_tallies(hands: Iterable[HandRecord]) -> dict[int, tuple[SideTally, SideTally]]:
    """Each game's side tallies (side A's, side B's), by game id, for the standings.

    A march counts whether or not the caller went alone; a loner made is a lone call with 3 tricks
    or more; a euchre inflicted is a hand the side defended with the makers on 2 tricks or fewer.
    """
    sums: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    for hand in hands:
        if not hand.has_outcome:
            continue
        row = sums[hand.game_id]
        makers = 0 if hand.makers == "A" else 3
        defenders = 3 - makers
        row[makers] += hand.tricks_won == TRICKS_PER_HAND
        row[makers + 1] += hand.caller_alone and hand.tricks_won >= TRICKS_TO_MAKE
        row[defenders + 2] += hand.tricks_won <= EUCHRED_AT_MOST
    return {game_id: (SideTally(*row[:3]), SideTally(*row[3:])) for game_id, row in sums.items()}
