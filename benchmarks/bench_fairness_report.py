"""Time to compute a season's fairness report (``tournaments.domain.fairness``), as a page or the
API computes it at each request, over seasons of 16 to 40 players and 10 or 16 nights of 8
rounds, with random attendance (each player present with probability 0.75, seeded), random
seats (the leftovers of each round sit out) and random results.

Run from the repository root: ``python benchmarks/bench_fairness_report.py``. Prints one row per
season: players, nights, games, byes, the seconds for the counts and ratings alone (``runs=0``),
for the whole report with its 2,000-run Monte Carlo, and the report's headline figures. Not a
timed test: figures depend on the machine.
"""

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.domain.fairness import PlayedGame, SatOut, fairness_report

ROUNDS_PER_NIGHT = 8


def season(players: int, nights: int, seed: int):
    rng = random.Random(seed)
    games, byes, order = [], [], 0
    for night in range(1, nights + 1):
        present = [p for p in range(1, players + 1) if rng.random() < 0.75]
        for number in range(1, ROUNDS_PER_NIGHT + 1):
            rng.shuffle(present)
            tables = len(present) // 4
            for table in range(tables):
                order += 1
                seats = tuple(present[4 * table : 4 * table + 4])
                games.append(PlayedGame(order, seats, rng.choice("AB"), played_order=order))
            byes += [SatOut(p, night, number) for p in present[4 * tables :]]
    return games, byes


def timed(games, byes, runs):
    started = time.perf_counter()
    result = fairness_report(games=games, byes=byes, runs=runs)
    return result, time.perf_counter() - started


def main() -> None:
    print(
        f"{'players':>7} {'nights':>6} {'games':>5} {'byes':>4} {'counts s':>8} {'report s':>8}"
        "  most partnered / repeated pairs / byes / strongest first"
    )
    for players in (16, 24, 32, 40):
        for nights in (10, 16):
            games, byes = season(players, nights, seed=players * 100 + nights)
            _, counts = timed(games, byes, runs=0)
            report, whole = timed(games, byes, runs=2000)
            print(
                f"{players:>7} {nights:>6} {len(games):>5} {len(byes):>4} {counts:>8.3f} "
                f"{whole:>8.3f}  {report.most_partnered} / {report.repeated_partnerships} / "
                f"{report.fewest_byes}-{report.most_byes} / "
                f"{report.monte_carlo.strongest_first_chance:.0%}",
                flush=True,
            )


if __name__ == "__main__":
    main()
