"""An entrant's record: what each game and bye adds to it under the season's rules (forfeit
points, bye values), which nights count when only the best ones do, and the fold of the counted
entries into wins, losses, points and euchre tallies.

- *entry*: what one game or bye adds to one entrant (:class:`_Entry`).
- *record*: an entrant's standing folded from its counted entries (:class:`EntrantRecord`).
- *night key*: how two nights of one entrant compare when the best nights are chosen.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from scoring.standings.domain.standings.games import Bye, GameRecord, SideTally
from scoring.standings.domain.standings.rules import SeasonRules


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
    order: tuple[int, int] | None


class PlayedGame(NamedTuple):
    """One counted game of an entrant, as the game-by-game measures read it: its place in the
    played order (``played_order``, then game id), the opposing side's entrants, the entrant's
    result (1, 0.5 or 0) and the points for and against it."""

    order: tuple[int, int]
    opponents: tuple[int, ...]
    result: float
    points_for: float
    points_against: float


@dataclass
class EntrantRecord:
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
    played: list[PlayedGame] = field(default_factory=list)
    nights_counted: tuple[int, ...] = ()
    nights_dropped: tuple[int, ...] = ()

    @property
    def score(self) -> float:
        """Wins plus half the draws: the score Buchholz adds up."""
        return self.wins + self.draws / 2

    @property
    def win_pct(self) -> float:
        return self.score / self.games if self.games else 0.0


def entrant_entries(
    games: Iterable[GameRecord], byes: Iterable[Bye], rules: SeasonRules
) -> dict[int, list[_Entry]]:
    entries: dict[int, list[_Entry]] = defaultdict(list)
    make = _Entry._make
    to_winner, to_forfeiter = rules.forfeit_points_to_winner, rules.forfeit_points_to_forfeiter
    forfeit_counts = rules.forfeit_counts_as_game
    for game in games:
        night_id, forfeited_by, winner = game.night_id, game.forfeited_by, game.winner
        order = (game.played_order, game.game_id)
        for side, own, other, points_for, points_against, tally in (
            ("A", game.side_a, game.side_b, game.points_a, game.points_b, game.tally_a),
            ("B", game.side_b, game.side_a, game.points_b, game.points_a, game.tally_b),
        ):
            if forfeited_by is None:
                result = 0.5 if winner is None else 1.0 if winner == side else 0.0
                entry = make(
                    (
                        night_id,
                        True,
                        result,
                        points_for,
                        points_against,
                        other,
                        tally,
                        None,
                        False,
                        order,
                    )
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
                        order,
                    )
                )
            for entrant in own:  # the entrants of a side share one (immutable) entry
                entries[entrant].append(entry)
    byes = list(byes)
    if rules.bye_value == "nothing":
        # A worthless bye makes no night: it must not take a best-night place.
        worthless = make((None, False, None, 0, 0, (), None, None, True, None))
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
            make((bye.night_id, win, 1.0 if win else None, points, 0, (), None, None, True, None))
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


def record_of_entries(entries: list[_Entry], rules: SeasonRules) -> EntrantRecord:
    record = EntrantRecord(games_in_season=sum(1 for e in entries if e.counts_as_game))
    counted, record.nights_counted, record.nights_dropped = _counted(entries, rules)
    games = wins = losses = draws = byes = forfeit_wins = forfeit_losses = 0
    marches = loners_made = euchres_inflicted = 0
    points_for = points_against = 0  # added up in the entries' order, as floats may be
    meetings = record.meetings
    played = record.played if rules.measures_each_game else None
    for _night, counts, result, own, their, opponents, tally, forfeit, is_bye, order in counted:
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
            if played is not None:
                played.append(PlayedGame(order, opponents, result, own, their))
    record.games, record.wins, record.losses, record.draws = games, wins, losses, draws
    record.points_for, record.points_against, record.byes = points_for, points_against, byes
    record.forfeit_wins, record.forfeit_losses = forfeit_wins, forfeit_losses
    record.marches, record.loners_made = marches, loners_made
    record.euchres_inflicted = euchres_inflicted
    return record
