"""Short nights: for every size from 8 to 64 players, the most rounds with nobody meeting anyone
twice, against the social-golfer bound.

Run from the repository root: ``python benchmarks/bench_short_nights.py [sizes...]``. For each
size it builds 2, 3, ... rounds (seed 0) until a night repeats a meeting, and prints the last
length that did not, the bound ``(N - 1) // 3``, how that length was reached (``design``: the
resolvable or transversal design; ``search``: the fresh-meeting search), and the slowest build
seen. Not a timed test: figures depend on the machine.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.domain.rotation import build_rotation, rotation_report
from tournaments.domain.rotation_chart import social_golfer_bound
from tournaments.domain.rotation_designs import design_rounds


def main(sizes: list[int]) -> None:
    print(f"{'N':>3} {'fresh':>5} {'bound':>5} {'how':>7} {'slowest s':>9} {'next':>20}")
    for size in sizes:
        players = list(range(1, size + 1))
        bound = social_golfer_bound(size)
        fresh, slowest, next_repeats = 1, 0.0, None
        for rounds in range(2, bound + 1):
            started = time.perf_counter()
            rotation = build_rotation(players, rounds)
            slowest = max(slowest, time.perf_counter() - started)
            repeats = rotation_report(rotation, players).repeated_meetings
            if repeats:
                next_repeats = f"{rounds}: {repeats} repeated"
                break
            fresh = rounds
        how = "design" if fresh <= len(design_rounds(size)) and fresh > 1 else "search"
        print(
            f"{size:>3} {fresh:>5} {bound:>5} {how:>7} {slowest:>9.2f} {next_repeats or '-':>20}",
            flush=True,
        )


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or list(range(8, 65)))
