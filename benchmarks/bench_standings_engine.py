"""How long the pure standings engine takes on a large individual season.

A made-up season (seeded, so every run is the same): 1,000 players, 31 nights; each night 996
players sit at 249 tables for 8 rounds (4 players have a bye) and each game is 8 scored hands,
with a thrown-in hand now and then: about 62,000 games and 515,000 hands. The figures are the
engine alone, no database: counting the hands once (for the stats and the side tallies),
building the input records, the standings (best 20 nights, head-to-head and Buchholz in the
chain), the player stats and the openskill ratings; then, side by side, the standings over every
night by head-to-head and Buchholz and by the tie-breaks read game by game (head-to-head point
difference, Sonneborn-Berger, Buchholz cut 1, progressive score). Python's cycle collector runs
as in the recompute service (``--no-gc`` pauses it, to see what it costs).

Run: ``python -m benchmarks.bench_standings_engine`` (``--help`` for a smaller season).
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from collections.abc import Callable
from typing import Any

from scoring.standings.domain.ratings import compute_ratings
from scoring.standings.domain.standings import (
    Bye,
    GameRecord,
    SeasonRules,
    SideTally,
    compute_standings,
)
from scoring.standings.domain.stats import HandRecord, hand_totals, player_stats, side_tallies

HANDS_PER_GAME = 8
THROWN_IN_CHANCE = 0.04
ALONE_CHANCE = 0.06
RENEGE_CHANCE = 0.01
TRICKS_WEIGHTS = [3, 5, 10, 30, 30, 22]
"""Rough odds of the makers taking 0 to 5 tricks."""
NO_TALLIES = (SideTally(), SideTally())
"""A game whose every hand was thrown in or reneged has no tallies."""


def made_up_hand(rng: random.Random, game_id: int, number: int, seats: tuple) -> HandRecord:
    if rng.random() < THROWN_IN_CHANCE:
        return HandRecord(game_id, number, seats, makers=None, thrown_in=True)
    makers = rng.choice("AB")
    first = 0 if makers == "A" else 1
    caller = seats[first + 2 * rng.randrange(2)]
    alone = rng.random() < ALONE_CHANCE
    if rng.random() < RENEGE_CHANCE:
        guilty = rng.choice("AB")
        points = (0, 2) if guilty == "A" else (2, 0)
        return HandRecord(
            game_id, number, seats, makers, None, caller, alone, renege=guilty,
            points_a=points[0], points_b=points[1],
        )  # fmt: skip
    tricks = rng.choices(range(6), TRICKS_WEIGHTS)[0]
    if tricks <= 2:
        points, scorer = 2, "B" if makers == "A" else "A"
    else:
        points, scorer = (4 if alone else 2) if tricks == 5 else 1, makers
    points_a, points_b = (points, 0) if scorer == "A" else (0, points)
    return HandRecord(
        game_id, number, seats, makers, tricks, caller, alone,
        points_a=points_a, points_b=points_b,
    )  # fmt: skip


def made_up_season(players: int, nights: int, rounds: int, seed: int):
    """Hands, (game id, night, order, sides, points) and byes of an individual season."""
    rng = random.Random(seed)
    hands: list[HandRecord] = []
    games: list[tuple] = []
    byes: list[Bye] = []
    roster = list(range(1, players + 1))
    game_id = 0
    for night in range(1, nights + 1):
        present = roster[:]
        rng.shuffle(present)
        sitting = len(present) % 4 or 4
        byes.extend(Bye(player, night) for player in present[:sitting])
        present = present[sitting:]
        for _ in range(rounds):
            rng.shuffle(present)
            for table in range(0, len(present), 4):
                game_id += 1
                seats = tuple(present[table : table + 4])
                score_a = score_b = scored = number = 0
                while scored < HANDS_PER_GAME:
                    number += 1
                    hand = made_up_hand(rng, game_id, number, seats)
                    hands.append(hand)
                    scored += hand.is_scored
                    score_a += hand.points_a
                    score_b += hand.points_b
                sides = ((seats[0], seats[2]), (seats[1], seats[3]))
                games.append((game_id, night, game_id, sides, score_a, score_b))
    return hands, games, byes


def timed(label: str, figures: dict[str, float], work: Callable[[], Any]) -> Any:
    start = time.perf_counter()
    result = work()
    figures[label] = time.perf_counter() - start
    print(f"  {label:<34} {figures[label]:7.2f} s", flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--nights", type=int, default=31)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--no-gc", action="store_true", help="pause the cycle collector (to see what it costs)"
    )
    arguments = parser.parse_args()

    print("Generating the season…", flush=True)
    hands, raw_games, byes = made_up_season(
        arguments.players, arguments.nights, arguments.rounds, arguments.seed
    )
    print(
        f"{arguments.players} players, {len(raw_games)} games, {len(hands)} hands, {len(byes)} byes"
    )

    figures: dict[str, float] = {}
    if arguments.no_gc:
        gc.collect()
        gc.disable()
    totals = timed("hands counted once", figures, lambda: hand_totals(hands))
    tallies = timed("side tallies from the count", figures, lambda: side_tallies(totals))

    def game_records() -> list[GameRecord]:
        records = []
        for game_id, night, order, (side_a, side_b), points_a, points_b in raw_games:
            winner = None if points_a == points_b else "A" if points_a > points_b else "B"
            tally_a, tally_b = tallies.get(game_id, NO_TALLIES)
            records.append(
                GameRecord(
                    game_id,
                    side_a,
                    side_b,
                    points_a,
                    points_b,
                    winner,
                    night,
                    order,
                    tally_a=tally_a,
                    tally_b=tally_b,
                )
            )
        return records

    games = timed("game records", figures, game_records)
    rules = SeasonRules(
        tiebreaks=("win_pct", "head_to_head", "points_for", "buchholz", "marches"),
        count_best_nights=20,
        min_games=40,
        bye_value="average",
        coin_flip_seed=arguments.seed,
    )
    standings = timed(
        "standings (best 20 nights)", figures, lambda: compute_standings(games, rules, byes=byes)
    )
    timed("player stats", figures, lambda: player_stats(games, totals))
    ratings = timed("ratings (openskill Plackett-Luce)", figures, lambda: compute_ratings(games))
    total = sum(figures.values())
    print(f"  {'total':<34} {total:7.2f} s")
    print("\nEvery night counted, side by side (not in the total):")
    compared: dict[str, float] = {}
    for label, chain in (
        ("head-to-head, Buchholz", ("wins", "head_to_head", "buchholz", "points_for")),
        (
            "the world's (game by game)",
            ("wins", "head_to_head_diff", "sonneborn_berger", "buchholz_cut1", "progressive"),
        ),
    ):
        every_night = SeasonRules(tiebreaks=chain, coin_flip_seed=arguments.seed)
        timed(label, compared, lambda rules=every_night: compute_standings(games, rules, byes=byes))
    print(f"\nTop of the standings: {standings.rows[0].name}, {standings.rows[0].reason}")
    print(f"Top rating: #{ratings[0].player_id} ({ratings[0].display_rating})")


if __name__ == "__main__":
    main()
