"""Time to build the full cycle for every size from 4 to 64 players, and its quality.

Run from the repository root: ``python benchmarks/bench_rotation.py``. Prints one row per size:
players, rounds, seconds, whether the chart is at its bound (see
``tournaments.domain.rotation``), and the report's summary in words. Not a timed test: figures
depend on the machine.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.domain.rotation import build_rotation, rotation_report


def main() -> None:
    print(f"{'N':>3} {'rounds':>6} {'seconds':>8} {'bound':>5}  quality")
    for size in range(4, 65):
        players = list(range(1, size + 1))
        started = time.perf_counter()
        rotation = build_rotation(players)
        seconds = time.perf_counter() - started
        report = rotation_report(rotation, players)
        print(
            f"{size:>3} {len(rotation.rounds):>6} {seconds:>8.3f} "
            f"{'yes' if report.at_bound else 'no':>5}  {report.summary}",
            flush=True,
        )


if __name__ == "__main__":
    main()
