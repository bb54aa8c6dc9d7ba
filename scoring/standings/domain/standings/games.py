"""The standings' input: one finished game (:class:`GameRecord`) with each side's euchre tallies
(:class:`SideTally`), and a sitting-out (:class:`Bye`). The words (entrant, side, forfeit, bye)
are defined in :mod:`scoring.standings.domain.standings`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from core.errors import DomainError

Side = Literal["A", "B"]
SIDES: tuple[Side, Side] = ("A", "B")


def _other(side: Side) -> Side:
    return "B" if side == "A" else "A"


@dataclass(frozen=True)
class SideTally:
    """A side's euchre feats in one game, for the euchre tie-breaks.

    ``marches``: hands the side made with all five tricks (alone or not); ``loners_made``: hands
    its lone caller made (3 tricks or more); ``euchres_inflicted``: hands it defended and held the
    makers to 2 tricks or fewer. :func:`scoring.standings.domain.stats.side_tallies` computes them
    from hands.
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
