"""Instructions a hand POST costs the web process, side by side with the floor's, counted by
callgrind: a figure that repeats to 0.1% where timings drift by a third from minute to minute.

Run: ``python benchmarks/bench_hand_instructions.py``. Needs valgrind, PostgreSQL and Redis (as
``bench_api_hands.py``, whose database settings it shares; ``BENCH_POSTS`` posts are counted,
500 by default, after 200 to warm up). Prints its figures; not a test.

Each side runs in a process of its own under ``valgrind --tool=callgrind``, which counts only
while the measured posts run (switched on and off with ``callgrind_control``): the product's
hand POST by each entrance of ``SIDES`` (through every middleware), the floor's one-INSERT
view (``benchmarks/floor_urls.py``) and the two floors that pay the product's request stack, a
bare view and the product's writes in plain ORM code (``benchmarks/stack_urls.py``), all
called through their WSGI application (``config.wsgi``) in process, without gunicorn or
sockets of their own. The games are played to 10 as
``bench_api_hands.py`` plays them (each ends 10-9 at its 19th hand).
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
import time
import uuid
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import bench_api_hands as api  # noqa: E402

POSTS = int(os.environ.get("BENCH_POSTS", "500"))
WARM_UP = 200
SIDES = os.environ.get("BENCH_SIDES", "floor,stack,skeleton,token,captain,form,session").split(",")
"""The floor, the two floors that pay the product's request stack (``stack`` and
``skeleton``, ``benchmarks/stack_urls.py``), and the product's four entrances
(``bench_api_hands.py``'s): ``token`` (an organiser's ``Authorization: Token``), ``captain``
(``X-Captain-Token``), ``form`` (the captain page's hand form, ``POST /t/<token>/hands/`` as
its script sends it) and ``session`` (an organiser logged in through ``/manage/login/``, with
the CSRF cookie and header)."""
LABELS = {
    "floor": "floor (one INSERT, no middleware)",
    "stack": "bare view behind the product's stack",
    "skeleton": "the writes alone, plain ORM",
    "token": "organiser token",
    "captain": "X-Captain-Token",
    "form": "captain form (/t/)",
    "session": "organiser session",
}


class _Client:
    """Requests straight to a WSGI application, keeping the cookies it sets."""

    def __init__(self, application) -> None:
        self.application, self.cookies = application, {}

    def __call__(self, method: str, path: str, body: bytes = b"", headers=None, kind=""):
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "HTTP_HOST": "127.0.0.1",
            "CONTENT_TYPE": kind,
            "CONTENT_LENGTH": str(len(body)),
            "wsgi.input": io.BytesIO(body),
            "wsgi.url_scheme": "http",
            "wsgi.errors": sys.stderr,
            **(headers or {}),
        }
        if self.cookies:
            environ["HTTP_COOKIE"] = api.cookie_header(self.cookies)
        answer: list = []
        parts = self.application(
            environ, lambda status, given, exc_info=None: answer.extend((status, given))
        )
        text = b"".join(parts).decode()
        parts.close()
        for name, value in answer[1]:
            if name.lower() == "set-cookie":
                jar = SimpleCookie()
                jar.load(value)
                self.cookies |= {key: morsel.value for key, morsel in jar.items()}
        return answer[0], text


def _entrance(side: str, client: _Client, plan: dict):
    """How ``side`` posts hand ``number`` of game ``(id, token)``: a function of both."""
    callers = plan["callers"]

    def json_post(path: str, headers: dict):
        def post(game, number):
            body = {"makers": "A" if number % 2 else "B", "tricks_won": 3, "number": number}
            key = {"HTTP_IDEMPOTENCY_KEY": uuid.uuid4().hex}
            return client(
                "POST",
                path.format(id=game[0]),
                json.dumps(body).encode(),
                {**key, **headers(game)},
                "application/json",
            ), "201"

        return post

    if side == "floor":
        return json_post("/floor/{id}/hands/", lambda game: {})
    if side == "stack":
        return json_post("/stack/{id}/hands/", lambda game: {})
    if side == "skeleton":
        return json_post("/skeleton/{id}/hands/", lambda game: {"HTTP_X_CAPTAIN_TOKEN": game[1]})
    if side == "token":
        token = {"HTTP_AUTHORIZATION": f"Token {plan['token']}"}
        return json_post("/api/v1/games/{id}/hands/", lambda game: token)
    if side == "captain":
        return json_post(
            "/api/v1/games/{id}/hands/", lambda game: {"HTTP_X_CAPTAIN_TOKEN": game[1]}
        )
    if side == "session":
        status, page = client("GET", "/manage/login/")
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        login = urlencode(
            {
                "csrfmiddlewaretoken": found[1],
                "username": plan["username"],
                "password": plan["password"],
                "next": "",
            }
        ).encode()
        origin = {"HTTP_ORIGIN": api.ORIGIN}
        status, _ = client(
            "POST", "/manage/login/", login, origin, "application/x-www-form-urlencoded"
        )
        if not status.startswith("302"):
            raise SystemExit(f"logging in answered {status}")
        headers = {**origin, "HTTP_X_CSRFTOKEN": client.cookies["csrftoken"]}
        return json_post("/api/v1/games/{id}/hands/", lambda game: headers)
    # form: the captain page's hand form, read from the page of the first game
    status, page = client("GET", f"/t/{plan['games']['form'][0][1]}/")
    _action, fields = api.hand_form(page)
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_ORIGIN": api.ORIGIN}

    def form_post(game, number):
        values = {
            "key": uuid.uuid4().hex,
            "number": number,
            "caller": callers["A" if number % 2 else "B"],
        }
        body = urlencode([(name, template.format(**values)) for name, template in fields])
        answer = client(
            "POST",
            f"/t/{game[1]}/hands/",
            body.encode(),
            headers,
            "application/x-www-form-urlencoded",
        )
        if 'class="flash ok"' not in answer[1]:
            raise SystemExit(f"the form answered {answer[0]}: {api.flash_error(answer[1])}")
        return answer, "200"

    return form_post


ENVIRONMENTS = {
    "floor": api.FLOOR_ENV,
    "stack": {**api.ENV, "DJANGO_SETTINGS_MODULE": "benchmarks.stack_settings"},
    "skeleton": {**api.ENV, "DJANGO_SETTINGS_MODULE": "benchmarks.stack_settings"},
}
"""Each side's settings; the product's (``api.ENV``) for the others."""

PROFILE = os.environ.get("BENCH_PROFILE")
"""A folder: instead of counting under callgrind, profile each side's measured posts with
cProfile into ``<folder>/<side>.prof`` (where the instructions go, by Python function)."""


def _counting(on: bool, side: str) -> None:
    if PROFILE:
        import cProfile

        global _profiler
        if on:
            _profiler = cProfile.Profile(time.process_time)  # CPU, not waits
            _profiler.enable()
        else:
            _profiler.disable()
            _profiler.dump_stats(Path(PROFILE) / f"{side}.prof")
        return
    switch = "on" if on else "off"
    subprocess.run(["callgrind_control", "-i", switch, str(os.getpid())], capture_output=True)


_profiler = None


def child(side: str, plan: dict) -> None:
    """Post in this process (run under callgrind), counting only the measured posts."""
    from config.wsgi import application  # as gunicorn serves both (the settings decide)

    if side != "floor":
        from django.core.cache import cache

        from scoring.games import jobs

        cache.set(jobs.standings_pending_key(plan["season"]), 1, timeout=None)  # none is queued
    games = plan["games"][side]
    hands = [(game, number) for game in games for number in range(1, api.HANDS_PER_GAME + 1)]
    if len(hands) < WARM_UP + POSTS:
        raise SystemExit("not enough games planned")
    post = _entrance(side, _Client(application), plan)
    for count, (game, number) in enumerate(hands[: WARM_UP + POSTS]):
        if count == WARM_UP:
            _counting(True, side)
        (status, _body), expected = post(game, number)
        if not status.startswith(expected):
            raise SystemExit(f"{side} answered {status}: {_body[:300]}")
    _counting(False, side)


def counted(side: str, env: dict, plan: dict) -> int:
    """Instructions per post of ``side``, from its own process under callgrind (or 0, with
    ``BENCH_PROFILE``: the process profiles itself)."""
    valgrind = [
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        "--callgrind-out-file=/dev/null",
    ]
    done = subprocess.run(
        [
            *([] if PROFILE else valgrind),
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
    if PROFILE and not done.returncode:
        return 0
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
        count = (WARM_UP + POSTS) // api.HANDS_PER_GAME + 1
        season = bench.night()  # games to 10, each ending at its 19th hand (10-9)
        games = {
            side: [(game.pk, game.captain_token) for game in bench.made(count, season)]
            for side in SIDES
        }
        games["floor"] = [(pk, "") for pk in bench.floor_ids(count)]
        games["stack"] = games["floor"]  # the bare view looks nothing up
        plan = {
            "games": games,
            "token": bench.token,
            "season": season.pk,
            "username": bench.username,
            "password": bench.password,
            "callers": bench.callers,
        }
        print(f"Instructions per hand POST in the web process ({POSTS} counted, callgrind)")
        floor = None
        for side in SIDES:
            counts = counted(side, ENVIRONMENTS.get(side, api.ENV), plan)
            floor = counts if side == "floor" else floor
            ratio = f"   {counts / floor:.1f}×" if floor and side != "floor" else ""
            if PROFILE:
                print(f"  {LABELS[side]:34} profiled: {PROFILE}/{side}.prof", flush=True)
                continue
            print(f"  {LABELS[side]:34} {counts / 1e6:6.2f} M{ratio}", flush=True)
    finally:
        bench.close()
        api.drop_database()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], json.loads(sys.argv[3]))
    else:
        main()
