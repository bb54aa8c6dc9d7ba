"""Season standings: rank the entrants by the season's tie-break chain, and say why.

Pure Python, no Django: a service loads the season's games and byes as the plain records below,
calls :func:`compute_standings`, and stores the result (``Standings.to_dict()``) as a snapshot.

Words used here
---------------
entrant
    Whoever is ranked, by ``int`` id: a team in a team season, a player in an individual season
    (partners rotate and each player is scored alone).
side
    ``"A"`` or ``"B"``, the two partnerships at a table. A side holds one entrant (a team) or two
    (the two players of an individual season). Each entrant on a side gets the side's result and
    points.
game record
    One finished game (:class:`GameRecord`): its sides, points, winner (``None`` for a draw, which
    a game of a fixed number of hands can be), whether a side forfeited, and each side's
    euchre tallies (:class:`SideTally`) for the euchre tie-breaks.
forfeit
    A game a side gave up (``forfeited_by``). The recorded points are replaced by the season's
    forfeit points (e.g. 10 to 0). If the forfeit *counts as a game* it is a win and a loss like any
    other; if not, it only moves points and is neither a game, a win nor a loss.
bye
    A sitting-out for an entrant on a night (:class:`Bye`). Its worth is the season's *bye value*:
    ``nothing``; ``fixed`` (``bye_points`` points, and a won game if ``bye_counts_as_win``); or
    ``average`` (the entrant's own average points per game over the season's games, rounded to two
    decimals, and a won game if ``bye_counts_as_win``). A bye never has an opponent. Byes are
    counted in ``byes``; a bye worth nothing belongs to no night (it cannot be a best night).
night result and best nights
    An entrant's night result is what its games and byes of that night add up to. When the season
    counts only the best K nights (``count_best_nights``), each entrant keeps its K best night
    results and everything else of the other nights is dropped from its standing. Nights are
    compared by wins (a draw is half a win) then points for, or by points for then wins
    (``best_nights_by``), then point difference, then the earlier night (smaller id). Games and
    byes without a night always count.
counted games
    The games (and byes) that make up an entrant's standing after best nights are chosen.
measure
    One way to compare entrants; higher is better for all of them:

    ``win_pct``       (wins + draws / 2) / games; 0 with no games.
    ``wins``          won games (forfeit wins and byes that count as wins included).
    ``points_for``    points scored; ``point_diff`` is points for minus points against.
    ``head_to_head``  wins minus losses in counted games against the *other entrants of the tied
                      group* (each opponent met counts once per game). It is recomputed for each
                      smaller group that is still tied, so it is re-applied after any split.
    ``marches``, ``loners_made``, ``euchres_inflicted``  sums of the entrant's side tallies.
    ``buchholz``      opponents' strength: over the counted games, the sum of the opposing side's
                      *score*, a side's score being the mean of its entrants' wins + draws / 2.
                      Byes add nothing.
    ``coin_flip``     a draw number from the entrant id and the recorded ``coin_flip_seed``
                      (SHA-256, so it is the same on every machine and for every input order);
                      the higher draw goes first. It always ends the chain, so ranks are 1…n.
tie-break chain
    The ordered measures a season ranks by (``SeasonRules.tiebreaks``). The whole field starts as
    one tied group; the first measure that gives the group's members different values splits it,
    and every smaller group that is still tied starts the chain again from the top (so
    head-to-head is re-applied among exactly the entrants still level). A head-to-head that
    cannot split a group (a cycle such as A beat B, B beat C, C beat A; all level; or no games
    among them) falls through to the next measure, and the reason says so.
qualified
    An entrant with at least ``min_games`` games in the season (all nights, before best nights are
    chosen; forfeits that count as games and byes that count as wins included). Unqualified
    entrants are listed after the ranked ones, in the same order of the chain, without a rank.
reason
    For every ranked row but the first: which measure put it behind the row directly above
    ("behind Rosie's Aces on points for (40 to 45)"). The first row says what put it ahead of the
    second. Entrants are named through the ``names`` mapping, or as ``#id``.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields
from itertools import pairwise
from typing import Any, Literal, NamedTuple

from league.errors import DomainError

Side = Literal["A", "B"]
SIDES: tuple[Side, Side] = ("A", "B")

MEASURE_LABELS: dict[str, str] = {
    "win_pct": "win percentage",
    "wins": "wins",
    "points_for": "points for",
    "point_diff": "point difference",
    "head_to_head": "head-to-head",
    "marches": "marches",
    "loners_made": "loners made",
    "euchres_inflicted": "euchres inflicted",
    "buchholz": "opponents' strength",
    "coin_flip": "coin flip",
}
"""Every tie-break a season can choose, by name, with the words shown to people."""

DEFAULT_TIEBREAKS: tuple[str, ...] = ("win_pct", "head_to_head", "point_diff", "points_for")
BYE_VALUES = ("nothing", "fixed", "average")
NIGHT_ORDERS = ("wins", "points")

_PRECISION = 9
"""Decimal places at which two measured values count as equal (sums of rounded bye averages)."""
_DASH = "\N{EN DASH}"
"""Between the numbers of a record: wins, losses, then draws if any."""
_NAMES_IN_A_LIST = 4
"""How many names a reason lists before it says "and N others"."""


def _other(side: Side) -> Side:
    return "B" if side == "A" else "A"


# --------------------------------------------------------------------------------------------
# Input
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SideTally:
    """A side's euchre feats in one game, for the euchre tie-breaks.

    ``marches``: hands the side made with all five tricks (alone or not); ``loners_made``: hands
    its lone caller made (3 tricks or more); ``euchres_inflicted``: hands it defended and held the
    makers to 2 tricks or fewer. :func:`scoring.domain.stats.side_tallies` computes them from
    hands.
    """

    marches: int = 0
    loners_made: int = 0
    euchres_inflicted: int = 0


@dataclass(frozen=True)
class GameRecord:
    """One finished game, as the standings, stats and ratings read it.

    ``side_a``/``side_b`` hold the entrants: one team id, or two player ids. ``players_a`` and
    ``players_b`` hold the player ids when the entrants are teams (for stats and ratings); leave
    them empty in an individual season, where the entrants are the players. ``played_order``
    orders games for ratings (ties broken by ``game_id``). ``winner`` is ``None`` for a draw; for
    a forfeit it may be left ``None`` and is taken to be the other side.
    """

    game_id: int
    side_a: tuple[int, ...]
    side_b: tuple[int, ...]
    points_a: int | float
    points_b: int | float
    winner: Side | None
    night_id: int | None = None
    played_order: int = 0
    forfeited_by: Side | None = None
    tally_a: SideTally = SideTally()
    tally_b: SideTally = SideTally()
    players_a: tuple[int, ...] = ()
    players_b: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        for name in ("side_a", "side_b", "players_a", "players_b"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        if not self.side_a or not self.side_b:
            raise DomainError(f"game {self.game_id} needs an entrant on each side", field="side_a")
        if set(self.side_a) & set(self.side_b) or set(self.players_a) & set(self.players_b):
            raise DomainError(
                f"game {self.game_id} has the same entrant on both sides", field="side_b"
            )
        if bool(self.players_a) != bool(self.players_b):
            raise DomainError(
                f"game {self.game_id} names the players of one side only", field="players_a"
            )
        if self.winner not in (None, *SIDES):
            raise DomainError(f"game {self.game_id}: the winner is side A or B", field="winner")
        if self.forfeited_by not in (None, *SIDES):
            raise DomainError(
                f"game {self.game_id}: the forfeiting side is A or B", field="forfeited_by"
            )
        if self.forfeited_by is not None:
            if self.winner == self.forfeited_by:
                raise DomainError(
                    f"game {self.game_id}: the side that forfeited cannot win it", field="winner"
                )
            object.__setattr__(self, "winner", _other(self.forfeited_by))

    @property
    def is_forfeit(self) -> bool:
        return self.forfeited_by is not None

    def entrants(self, side: Side) -> tuple[int, ...]:
        return self.side_a if side == "A" else self.side_b

    def players(self, side: Side) -> tuple[int, ...]:
        """The player ids of a side: ``players_a``/``players_b``, or the entrants if none."""
        players = self.players_a if side == "A" else self.players_b
        return players or self.entrants(side)

    def points(self, side: Side) -> int | float:
        return self.points_a if side == "A" else self.points_b

    def tally(self, side: Side) -> SideTally:
        return self.tally_a if side == "A" else self.tally_b

    def result(self, side: Side) -> float:
        """1 for a win, 0.5 for a draw, 0 for a loss."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == side else 0.0


@dataclass(frozen=True)
class Bye:
    """An entrant sat out a round (on ``night_id``, or outside any night when ``None``)."""

    entrant: int
    night_id: int | None = None


@dataclass(frozen=True)
class SeasonRules:
    """How a season ranks its entrants; see the module docstring for every word.

    ``tiebreaks`` may end with ``coin_flip``; if it does not, the coin flip is appended.
    """

    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS
    count_best_nights: int | None = None
    best_nights_by: Literal["wins", "points"] = "wins"
    min_games: int = 0
    forfeit_points_to_winner: int = 10
    forfeit_points_to_forfeiter: int = 0
    forfeit_counts_as_game: bool = True
    bye_value: Literal["nothing", "fixed", "average"] = "nothing"
    bye_points: int | float = 0
    bye_counts_as_win: bool = False
    coin_flip_seed: int = 0

    def __post_init__(self) -> None:
        chain = tuple(self.tiebreaks)
        object.__setattr__(self, "tiebreaks", chain)
        choices = ", ".join(f"{label} ({name})" for name, label in MEASURE_LABELS.items())
        for name in chain:
            if name not in MEASURE_LABELS:
                raise DomainError(
                    f'"{name}" is not a tie-break; choose from {choices}',
                    field="tiebreaks",
                    code="unknown_tiebreak",
                )
        repeated = sorted({name for name in chain if chain.count(name) > 1})
        if repeated:
            raise DomainError(
                f"each tie-break can be used once; {', '.join(repeated)} is repeated",
                field="tiebreaks",
            )
        if not [name for name in chain if name != "coin_flip"]:
            raise DomainError(
                "choose at least one measure to rank by before the coin flip", field="tiebreaks"
            )
        if "coin_flip" in chain and chain[-1] != "coin_flip":
            raise DomainError("the coin flip can only be the last tie-break", field="tiebreaks")
        if self.count_best_nights is not None and self.count_best_nights < 1:
            raise DomainError(
                "count at least one night, or leave it empty to count them all",
                field="count_best_nights",
            )
        if self.best_nights_by not in NIGHT_ORDERS:
            raise DomainError(
                'best nights are chosen by "wins" or "points"', field="best_nights_by"
            )
        if self.min_games < 0:
            raise DomainError("the minimum of games cannot be negative", field="min_games")
        if self.bye_value not in BYE_VALUES:
            raise DomainError(
                'a bye is worth "nothing", a "fixed" amount or the "average"', field="bye_value"
            )
        if self.bye_value == "nothing" and (self.bye_points or self.bye_counts_as_win):
            raise DomainError("a bye worth nothing gives no points and no win", field="bye_points")
        if self.bye_value == "average" and self.bye_points:
            raise DomainError("a bye worth the average takes no fixed points", field="bye_points")

    @property
    def chain(self) -> tuple[str, ...]:
        """The tie-breaks in order, always ending with the coin flip."""
        if self.tiebreaks[-1] == "coin_flip":
            return self.tiebreaks
        return (*self.tiebreaks, "coin_flip")


# --------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingRow:
    """One entrant's place in the standings, its record, its tie-break values and the reason.

    ``rank`` is ``None`` for an unqualified entrant. ``tiebreaks`` maps each measure of the chain
    (coin flip included) to this entrant's value; ``head_to_head`` there is the entrant's record
    (wins, losses and any draws, joined by en dashes) in the last tied group it was compared in, or
    ``None``. ``decided_by`` names the measure that set this row against the row above (the row
    below, for rank 1); ``None`` for an unqualified row or a lone entrant.
    """

    rank: int | None
    entrant: int
    name: str
    qualified: bool
    games: int
    wins: int
    losses: int
    draws: int
    points_for: int | float
    points_against: int | float
    point_diff: int | float
    win_pct: float
    byes: int
    forfeit_wins: int
    forfeit_losses: int
    marches: int
    loners_made: int
    euchres_inflicted: int
    buchholz: float
    coin_flip_draw: int
    games_in_season: int
    nights_counted: tuple[int, ...]
    nights_dropped: tuple[int, ...]
    tiebreaks: dict[str, Any]
    decided_by: str | None
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (tuples become lists)."""
        row = asdict(self)
        row["nights_counted"] = list(self.nights_counted)
        row["nights_dropped"] = list(self.nights_dropped)
        return row

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StandingRow:
        values = {f.name: data[f.name] for f in fields(cls)}
        values["nights_counted"] = tuple(values["nights_counted"])
        values["nights_dropped"] = tuple(values["nights_dropped"])
        values["tiebreaks"] = dict(values["tiebreaks"])
        return cls(**values)


@dataclass(frozen=True)
class Standings:
    """A season's standings: ranked rows first (rank 1…n), then the unqualified ones."""

    rows: tuple[StandingRow, ...]
    tiebreaks: tuple[str, ...]
    coin_flip_seed: int
    min_games: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "rows": [row.to_dict() for row in self.rows],
            "tiebreaks": list(self.tiebreaks),
            "coin_flip_seed": self.coin_flip_seed,
            "min_games": self.min_games,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Standings:
        return cls(
            rows=tuple(StandingRow.from_dict(row) for row in data["rows"]),
            tiebreaks=tuple(data["tiebreaks"]),
            coin_flip_seed=data["coin_flip_seed"],
            min_games=data["min_games"],
        )

    def row(self, entrant: int) -> StandingRow:
        """The row of one entrant (``KeyError`` if it is not in the standings)."""
        for row in self.rows:
            if row.entrant == entrant:
                return row
        raise KeyError(entrant)


# --------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------


class _Entry(NamedTuple):
    """What one game or bye adds to one entrant's standing (before best nights are chosen).

    A named tuple: a large season makes one per entrant and game (a quarter of a million), and
    the entrants of one side share theirs. Built with ``_Entry._make`` from a plain tuple.
    """

    night_id: int | None
    counts_as_game: bool
    result: float | None
    points_for: float
    points_against: float
    opponents: tuple[int, ...]
    tally: SideTally | None
    forfeit: str | None
    is_bye: bool


@dataclass
class _Record:
    """An entrant's standing, folded from its counted entries."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    points_for: float = 0
    points_against: float = 0
    byes: int = 0
    forfeit_wins: int = 0
    forfeit_losses: int = 0
    marches: int = 0
    loners_made: int = 0
    euchres_inflicted: int = 0
    games_in_season: int = 0
    meetings: list[tuple[tuple[int, ...], float]] = field(default_factory=list)
    nights_counted: tuple[int, ...] = ()
    nights_dropped: tuple[int, ...] = ()

    @property
    def score(self) -> float:
        """Wins plus half the draws: the score Buchholz adds up."""
        return self.wins + self.draws / 2

    @property
    def win_pct(self) -> float:
        return self.score / self.games if self.games else 0.0


def _entries(
    games: Iterable[GameRecord], byes: Iterable[Bye], rules: SeasonRules
) -> dict[int, list[_Entry]]:
    entries: dict[int, list[_Entry]] = defaultdict(list)
    make = _Entry._make
    to_winner, to_forfeiter = rules.forfeit_points_to_winner, rules.forfeit_points_to_forfeiter
    forfeit_counts = rules.forfeit_counts_as_game
    for game in games:
        night_id, forfeited_by, winner = game.night_id, game.forfeited_by, game.winner
        for side, own, other, points_for, points_against, tally in (
            ("A", game.side_a, game.side_b, game.points_a, game.points_b, game.tally_a),
            ("B", game.side_b, game.side_a, game.points_b, game.points_a, game.tally_b),
        ):
            if forfeited_by is None:
                result = 0.5 if winner is None else 1.0 if winner == side else 0.0
                entry = make(
                    (night_id, True, result, points_for, points_against, other, tally, None, False)
                )
            else:
                won = forfeited_by != side
                entry = make(
                    (
                        night_id,
                        forfeit_counts,
                        ((1.0 if won else 0.0) if forfeit_counts else None),
                        to_winner if won else to_forfeiter,
                        to_forfeiter if won else to_winner,
                        other if forfeit_counts else (),
                        tally,
                        "won" if won else "lost",
                        False,
                    )
                )
            for entrant in own:  # the entrants of a side share one (immutable) entry
                entries[entrant].append(entry)
    byes = list(byes)
    if rules.bye_value == "nothing":
        # A worthless bye makes no night: it must not take a best-night place.
        worthless = make((None, False, None, 0, 0, (), None, None, True))
        for bye in byes:
            entries[bye.entrant].append(worthless)
        return entries
    averages: dict[int, float] = {}
    for bye in byes:
        if rules.bye_value == "fixed":
            points = rules.bye_points
        else:
            if bye.entrant not in averages:
                played = [e for e in entries[bye.entrant] if e.counts_as_game and not e.is_bye]
                total = sum(e.points_for for e in played)
                averages[bye.entrant] = round(total / len(played), 2) if played else 0
            points = averages[bye.entrant]
        win = rules.bye_counts_as_win
        entries[bye.entrant].append(
            make((bye.night_id, win, 1.0 if win else None, points, 0, (), None, None, True))
        )
    return entries


def _night_key(entries: list[_Entry], rules: SeasonRules) -> tuple[float, float, float]:
    score = sum(e.result for e in entries if e.result is not None)
    points_for = sum(e.points_for for e in entries)
    diff = points_for - sum(e.points_against for e in entries)
    if rules.best_nights_by == "points":
        return (points_for, score, diff)
    return (score, points_for, diff)


def _counted(
    entries: list[_Entry], rules: SeasonRules
) -> tuple[list[_Entry], tuple[int, ...], tuple[int, ...]]:
    """The entries that count after best nights are chosen, and the nights kept and dropped."""
    by_night: dict[int | None, list[_Entry]] = defaultdict(list)
    for entry in entries:
        by_night[entry.night_id].append(entry)
    nights = sorted(night for night in by_night if night is not None)
    if rules.count_best_nights is None or len(nights) <= rules.count_best_nights:
        return entries, tuple(nights), ()
    best_first = sorted(
        nights, key=lambda night: (*(-v for v in _night_key(by_night[night], rules)), night)
    )
    kept = set(best_first[: rules.count_best_nights])
    counted = [e for e in entries if e.night_id is None or e.night_id in kept]
    return counted, tuple(sorted(kept)), tuple(sorted(set(nights) - kept))


def _fold(entries: list[_Entry], rules: SeasonRules) -> _Record:
    record = _Record(games_in_season=sum(1 for e in entries if e.counts_as_game))
    counted, record.nights_counted, record.nights_dropped = _counted(entries, rules)
    games = wins = losses = draws = byes = forfeit_wins = forfeit_losses = 0
    marches = loners_made = euchres_inflicted = 0
    points_for = points_against = 0  # added up in the entries' order, as floats may be
    meetings = record.meetings
    for _night, counts, result, own, their, opponents, tally, forfeit, is_bye in counted:
        points_for += own
        points_against += their
        byes += is_bye
        if tally is not None:
            marches += tally.marches
            loners_made += tally.loners_made
            euchres_inflicted += tally.euchres_inflicted
        if forfeit == "won":
            forfeit_wins += 1
        elif forfeit == "lost":
            forfeit_losses += 1
        if not counts:
            continue
        games += 1
        if result == 1.0:
            wins += 1
        elif result == 0.0:
            losses += 1
        else:
            draws += 1
        if opponents:
            meetings.append((opponents, result))
    record.games, record.wins, record.losses, record.draws = games, wins, losses, draws
    record.points_for, record.points_against, record.byes = points_for, points_against, byes
    record.forfeit_wins, record.forfeit_losses = forfeit_wins, forfeit_losses
    record.marches, record.loners_made = marches, loners_made
    record.euchres_inflicted = euchres_inflicted
    return record


def _buchholz(records: dict[int, _Record]) -> dict[int, float]:
    score = {entrant: record.score for entrant, record in records.items()}.__getitem__
    return {
        entrant: sum(
            [sum(map(score, opponents)) / len(opponents) for opponents, _ in record.meetings]
        )
        for entrant, record in records.items()
    }


def coin_flip_draw(seed: int, entrant: int) -> int:
    """The entrant's recorded coin-flip number under ``seed`` (higher goes first).

    SHA-256 of ``"seed:entrant"``, first 48 bits: the same everywhere, safe in JSON.
    """
    digest = hashlib.sha256(f"{seed}:{entrant}".encode()).hexdigest()
    return int(digest[:12], 16)


# --------------------------------------------------------------------------------------------
# Ranking
# --------------------------------------------------------------------------------------------


def _number(value: float) -> str:
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _signed(value: float) -> str:
    return f"+{_number(value)}" if value > 0 else _number(value)


def _shown_pair(measure: str, own: Any, above: Any) -> tuple[str, str]:
    """Two values as shown in a reason, with enough decimals that they differ."""
    if measure == "win_pct":
        for places in range(3, _PRECISION + 1):
            shown = f"{own:.{places}f}", f"{above:.{places}f}"
            if shown[0] != shown[1]:
                return shown
        return shown
    if measure == "point_diff":
        return _signed(own), _signed(above)
    if isinstance(own, str):
        return own, above
    return _number(own), _number(above)


def _name_list(names: list[str]) -> str:
    if len(names) > _NAMES_IN_A_LIST:
        rest = len(names) - (_NAMES_IN_A_LIST - 1)
        return f"{', '.join(names[: _NAMES_IN_A_LIST - 1])} and {rest} others"
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} and {names[-1]}"


@dataclass
class _Decision:
    """How an entrant was separated from the entrant directly above it."""

    measure: str
    above: int
    own_value: str
    above_value: str
    group_size: int
    notes: list[str]


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
        shown = f"{self.wins[entrant]}{_DASH}{self.losses[entrant]}"
        if self.draws[entrant]:
            shown += f"{_DASH}{self.draws[entrant]}"
        return shown

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


class _Ranker:
    """Orders a group of entrants by the chain, remembering why each one sits where it does."""

    def __init__(self, records: dict[int, _Record], rules: SeasonRules, names: Mapping[int, str]):
        self.records = records
        self.rules = rules
        self.names = names
        self.chain = rules.chain
        buchholz = _buchholz(records)
        self.buchholz = buchholz
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
        self.head_to_head_shown: dict[int, str] = {}

    def name(self, entrant: int) -> str:
        return self.names.get(entrant, f"#{entrant}")

    def names_of(self, group: list[int]) -> str:
        return _name_list([self.name(e) for e in group])

    def head_to_head(self, group: list[int]) -> _HeadToHead:
        members = set(group)
        wins = dict.fromkeys(group, 0)
        losses = dict.fromkeys(group, 0)
        draws = dict.fromkeys(group, 0)
        net: dict[tuple[int, int], float] = defaultdict(float)
        met = False
        for entrant in group:
            for opponents, result in self.records[entrant].meetings:
                for opponent in opponents:
                    if opponent not in members:
                        continue
                    met = True
                    if result == 1.0:
                        wins[entrant] += 1
                        net[entrant, opponent] += 1
                    elif result == 0.0:
                        losses[entrant] += 1
                        net[entrant, opponent] -= 1
                    else:
                        draws[entrant] += 1
        beat: dict[int, set[int]] = {e: set() for e in group}
        for (winner, loser), margin in net.items():
            if margin > 0:
                beat[winner].add(loser)
        h2h = _HeadToHead(wins, losses, draws, beat, met)
        for entrant in group:
            self.head_to_head_shown[entrant] = h2h.shown(entrant)
        return h2h

    def head_to_head_note(self, group: list[int], h2h: _HeadToHead) -> str:
        """Why head-to-head could not split ``group``."""
        if not h2h.met:
            if len(group) == 2:
                return f"{self.names_of(group)} have not met"
            return f"no head-to-head games among {self.names_of(group)}"
        if len(group) > 2 and h2h.has_cycle():
            return f"head-to-head is a cycle among {self.names_of(group)}"
        if len(group) == 2:
            return f"level on head-to-head ({h2h.shown(group[0])})"
        return f"level on head-to-head among {self.names_of(group)}"

    def order(self, group: list[int]) -> list[tuple[int, _Decision | None]]:
        """``group`` best first, each entrant with how it was separated from the one above."""
        notes: list[str] = []
        for measure in self.chain:
            if measure == "coin_flip":
                break
            if measure == "head_to_head":
                h2h = self.head_to_head(group)
                keys = {e: h2h.balance(e) for e in group}
                shown = {e: h2h.shown(e) for e in group}
            else:
                values = self.values[measure]
                keys = {e: round(values[e], _PRECISION) for e in group}
                shown = values
            buckets: dict[Any, list[int]] = defaultdict(list)
            for entrant in sorted(group):
                buckets[keys[entrant]].append(entrant)
            if len(buckets) == 1:
                if measure == "head_to_head":
                    notes.append(self.head_to_head_note(group, h2h))
                continue
            ordered: list[tuple[int, _Decision | None]] = []
            for key in sorted(buckets, reverse=True):
                bucket = buckets[key]
                placed = self.order(bucket) if len(bucket) > 1 else [(bucket[0], None)]
                if ordered:
                    above = ordered[-1][0]
                    first = placed[0][0]
                    own_value, above_value = _shown_pair(measure, shown[first], shown[above])
                    decision = _Decision(
                        measure, above, own_value, above_value, len(group), list(notes)
                    )
                    placed[0] = (first, decision)
                ordered.extend(placed)
            return ordered
        draws = self.values["coin_flip"]
        ordered_by_flip = sorted(group, key=lambda e: (-draws[e], e))
        placed = [(ordered_by_flip[0], None)]
        for above, entrant in pairwise(ordered_by_flip):
            placed.append((entrant, _Decision("coin_flip", above, "", "", len(group), notes)))
        return placed

    def reason(self, decision: _Decision, *, ahead_of: int | None = None) -> str:
        """The decision in words: "behind X on …", or "ahead of Y on …" for the first row."""
        prefix = "".join(f"{note}; " for note in decision.notes)
        if ahead_of is not None:
            other, word = ahead_of, "ahead of"
            own, theirs = decision.above_value, decision.own_value
        else:
            other, word = decision.above, "behind"
            own, theirs = decision.own_value, decision.above_value
        if decision.measure == "coin_flip":
            side = "ahead by" if ahead_of is not None else "separated by"
            return (
                f"{prefix}level with {self.name(other)} on everything; {side} a recorded coin flip "
                f"(seed {self.rules.coin_flip_seed})"
            )
        label = MEASURE_LABELS[decision.measure]
        whom = f"{prefix}{word} {self.name(other)}"
        if decision.measure == "head_to_head" and decision.group_size > 2:
            return f"{whom} on head-to-head among {decision.group_size} tied ({own} to {theirs})"
        if decision.measure == "head_to_head":
            return f"{whom} on head-to-head ({own})"
        return f"{whom} on {label} ({own} to {theirs})"


def compute_standings(
    games: Iterable[GameRecord],
    rules: SeasonRules,
    *,
    byes: Iterable[Bye] = (),
    entrants: Iterable[int] = (),
    names: Mapping[int, str] | None = None,
) -> Standings:
    """Rank every entrant of the season and explain each place.

    ``entrants`` adds entrants with no games or byes yet (the roster), so they are listed too.
    ``names`` maps entrant ids to the names reasons use. The result does not depend on the order
    of ``games``, ``byes`` or ``entrants``.
    """
    names = names or {}
    entries = _entries(games, byes, rules)
    for entrant in entrants:
        entries.setdefault(entrant, [])
    records = {entrant: _fold(entry_list, rules) for entrant, entry_list in entries.items()}
    ranker = _Ranker(records, rules, names)

    qualified = sorted(e for e, r in records.items() if r.games_in_season >= rules.min_games)
    unqualified = sorted(e for e, r in records.items() if r.games_in_season < rules.min_games)
    placed = ranker.order(qualified) if qualified else []
    rows: list[StandingRow] = []
    for index, (entrant, decision) in enumerate(placed):
        if decision is not None:
            reason, decided_by = ranker.reason(decision), decision.measure
        elif len(placed) > 1:
            below = placed[1][1]
            reason, decided_by = ranker.reason(below, ahead_of=placed[1][0]), below.measure
        else:
            reason, decided_by = "the only ranked entrant", None
        rows.append(_row(ranker, entrant, index + 1, reason, decided_by))
    for entrant, _ in ranker.order(unqualified) if unqualified else []:
        record = records[entrant]
        reason = (
            f"unranked: {record.games_in_season} of the {rules.min_games} games needed to be ranked"
        )
        rows.append(_row(ranker, entrant, None, reason, None))
    return Standings(
        rows=tuple(rows),
        tiebreaks=rules.chain,
        coin_flip_seed=rules.coin_flip_seed,
        min_games=rules.min_games,
    )


def _plain(value: float) -> int | float:
    """Points as shown: an integral float as an int (12.0 reads as 12), else to two decimals.

    Only bye averages (two decimals each) make points fractional, so two decimals are exact.
    """
    if isinstance(value, float):
        value = round(value, 2)
        return int(value) if value.is_integer() else value
    return value


def _row(
    ranker: _Ranker, entrant: int, rank: int | None, reason: str, decided_by: str | None
) -> StandingRow:
    record = ranker.records[entrant]
    tiebreaks: dict[str, Any] = {}
    for measure in ranker.chain:
        if measure == "head_to_head":
            tiebreaks[measure] = ranker.head_to_head_shown.get(entrant)
        elif measure in ("points_for", "point_diff"):
            tiebreaks[measure] = _plain(ranker.values[measure][entrant])
        else:
            tiebreaks[measure] = ranker.values[measure][entrant]
    return StandingRow(
        rank=rank,
        entrant=entrant,
        name=ranker.name(entrant),
        qualified=rank is not None,
        games=record.games,
        wins=record.wins,
        losses=record.losses,
        draws=record.draws,
        points_for=_plain(record.points_for),
        points_against=_plain(record.points_against),
        point_diff=_plain(record.points_for - record.points_against),
        win_pct=record.win_pct,
        byes=record.byes,
        forfeit_wins=record.forfeit_wins,
        forfeit_losses=record.forfeit_losses,
        marches=record.marches,
        loners_made=record.loners_made,
        euchres_inflicted=record.euchres_inflicted,
        buchholz=float(ranker.buchholz[entrant]),
        coin_flip_draw=ranker.values["coin_flip"][entrant],
        games_in_season=record.games_in_season,
        nights_counted=record.nights_counted,
        nights_dropped=record.nights_dropped,
        tiebreaks=tiebreaks,
        decided_by=decided_by,
        reason=reason,
    )
