"""Instructions a hand POST costs the web process, side by side with the floor's, counted by
callgrind: a figure that repeats to 0.1% where timings drift by a third from minute to minute.

Run: ``python benchmarks/bench_hand_instructions.py``. Needs valgrind, PostgreSQL and Redis (as
``bench_api_hands.py``, whose database settings it shares; ``BENCH_POSTS`` posts are counted,
500 by default, after 200 to warm up). Prints its figures; not a test.

Each side runs in a process of its own under ``valgrind --tool=callgrind``, which counts only
while the measured posts run (switched on and off with ``callgrind_control``): the product's
hand POST (``POST /api/v1/games/<id>/hands/``, an organiser's token, through every
middleware) and the floor's one-INSERT view (``benchmarks/floor_urls.py``), both called through
their WSGI application (``config.wsgi``) in process, without gunicorn or sockets of their own.
The database's and Redis's work is not counted (``bench_api_hands.py`` measures the whole).
The standings' pending key is set for the run, so no post queues a recompute, and every post
asks Redis for it, as each hand of a real night does: the count is of the same work every time.
"""

import io
import json
import os
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import bench_api_hands as api  # noqa: E402

POSTS = int(os.environ.get("BENCH_POSTS", "500"))
WARM_UP = 200


def _post(application, path: str, body: dict, headers: dict) -> None:
    data = json.dumps(body).encode()
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "127.0.0.1",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(data)),
        "HTTP_IDEMPOTENCY_KEY": uuid.uuid4().hex,
        "wsgi.input": io.BytesIO(data),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        **headers,
    }
    statuses = []
    answer = application(environ, lambda status, headers, exc_info=None: statuses.append(status))
    b"".join(answer)
    answer.close()
    if not statuses[0].startswith("201"):
        raise SystemExit(f"{path} answered {statuses[0]}")


def _counting(on: bool) -> None:
    switch = "on" if on else "off"
    subprocess.run(["callgrind_control", "-i", switch, str(os.getpid())], capture_output=True)


def child(side: str, plan: dict) -> None:
    """Post in this process (run under callgrind), counting only the measured posts."""
    from config.wsgi import application  # as gunicorn serves both (the settings decide)

    if side == "hands":
        from django.core.cache import cache

        from scoring import standings

        cache.set(standings._pending_key(plan["season"]), 1, timeout=None)  # none is queued
    hands = [(game, number) for game in plan["games"] for number in range(1, 101)]
    if len(hands) < WARM_UP + POSTS:
        raise SystemExit("not enough games planned")
    headers = {"HTTP_AUTHORIZATION": f"Token {plan['token']}"} if side == "hands" else {}
    path = "/api/v1/games/{}/hands/" if side == "hands" else "/floor/{}/hands/"
    for count, (game, number) in enumerate(hands[: WARM_UP + POSTS]):
        if count == WARM_UP:
            _counting(True)
        body = {"makers": "A" if number % 2 else "B", "tricks_won": 3, "number": number}
        _post(application, path.format(game), body, headers)
    _counting(False)


def counted(side: str, env: dict, plan: dict) -> int:
    """Instructions per post of ``side``, from its own process under callgrind."""
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            __file__,
            "--child",
            side,
            json.dumps(plan),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode or found is None:
        raise SystemExit(f"the {side} run failed:\n{done.stderr[-3000:]}")
    return int(found[1]) // POSTS


def main() -> None:
    if shutil.which("valgrind") is None:
        print("skipped: valgrind is not installed (Debian: apt-get install valgrind)")
        return  # (make bench goes on to the next benchmark)
    api.recreate_database()
    bench = api.Bench()
    try:
        games = bench.games((WARM_UP + POSTS) // 100 + 1)
        plan = {"games": games, "token": bench.token, "season": bench.season.pk}
        print(f"Instructions per hand POST in the web process ({POSTS} counted, callgrind)")
        floor = counted("floor", api.FLOOR_ENV, plan)
        hands = counted("hands", api.ENV, plan)
        print(f"  floor (one INSERT, no middleware) {floor / 1e6:6.2f} M")
        print(f"  hands (the hand POST, token)      {hands / 1e6:6.2f} M   {hands / floor:.1f}×")
    finally:
        bench.close()
        api.drop_database()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], json.loads(sys.argv[3]))
    else:
        main()
