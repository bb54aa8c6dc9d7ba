"""The load generator of ``bench_api_hands.py``, run as a process of its own so that it does not
share an interpreter (or a GIL) with what it measures.

Reads a JSON plan on stdin and writes a JSON result on stdout. Each client is one keep-alive
HTTP/1.1 connection (reopened when the server closes it, as a sync gunicorn worker does; the
reconnection counts in that request's time) that posts hands one after another to its own games,
``hands_per_game`` each with numbers 1, 2, … until ``seconds`` are up. Requests are written as
raw bytes and answers read by their Content-Length (or chunks). The client is not free: it
shares the box with the servers, and ``bench_api_hands.py`` prints its CPU per request beside
theirs.

A hand is sent as one of two bodies (``style``):

- ``json``: ``{"makers", "tricks_won": 3, "number"}`` with a fresh ``Idempotency-Key`` header,
  as an API client sends it (``Content-Type: application/json``);
- ``form``: the captain page's hand form as its script sends it (``application/x-www-form-
  urlencoded``, from ``FormData``): ``form`` lists the fields in the page's order, each value a
  template in which ``{key}`` is a fresh client key, ``{number}`` the hand's number and
  ``{caller}`` the player who called (``callers[makers]``).

Hand ``n`` of a game is made by side A when ``n`` is odd, else by side B, 3 tricks: one point
each, so a game to 10 ends at its 19th hand, 10-9.

An answer is a success when its status is ``expect`` and, if ``marker`` is given, its body
contains it (the captain's answer is the score card again: 200 with an error flash would be a
refusal). After anything else the client moves on to its next game.

Plan: ``{"port", "seconds", "hands_per_game", "style", "headers": {name: value} (every
request), "expect", "marker" (or null), "form": [[name, template], …], "callers": {"A", "B"},
"clients": [[{"path", "headers"} of each game of client 0, …], …]}``.
Result: ``{"count", "ok", "elapsed", "latencies" (seconds, sorted), "statuses": {status:
count} ("200 unmarked" for a status without its marker), "failures": [{"status", "body"}]
(the first few)}``.
"""

import asyncio
import json
import sys
import time
import uuid
from urllib.parse import urlencode

FAILURES_KEPT = 5


async def read_response(reader) -> tuple[int, bool, bytes]:
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("the server closed the connection")
    status = int(status_line.split()[1])
    length, keep_alive, chunked = 0, True, False
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.partition(b":")
        name, value = name.strip().lower(), value.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"connection" and value == b"close":
            keep_alive = False
        elif name == b"transfer-encoding" and value == b"chunked":
            chunked = True
    parts = []
    if chunked:  # an answer without a Content-Length on a connection kept alive
        while size := int((await reader.readline()).split(b";")[0], 16):
            parts.append((await reader.readexactly(size + 2))[:-2])
        await reader.readline()
    elif length:
        parts.append(await reader.readexactly(length))
    return status, keep_alive, b"".join(parts)


def hand_body(plan: dict, number: int, key: str) -> bytes:
    """The body of hand ``number`` in the plan's style (see the module's docstring)."""
    makers = "A" if number % 2 else "B"
    if plan["style"] == "form":
        values = {"key": key, "number": number, "caller": plan["callers"][makers]}
        return urlencode(
            [(name, template.format(**values)) for name, template in plan["form"]]
        ).encode()
    return json.dumps({"makers": makers, "tricks_won": 3, "number": number}).encode()


def _head(plan: dict) -> str:
    kind = "application/x-www-form-urlencoded" if plan["style"] == "form" else "application/json"
    head = f"POST {{path}} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {kind}\r\n"
    for name, value in plan.get("headers", {}).items():
        head += f"{name}: {value}\r\n"
    return head


async def _client(plan, games, deadline, result) -> None:
    head = _head(plan)
    expect, marker = plan["expect"], plan.get("marker")
    marker = marker.encode() if marker else None
    reader = writer = None
    for game in games:
        game_head = head.format(path=game["path"]) + "".join(
            f"{name}: {value}\r\n" for name, value in game.get("headers", {}).items()
        )
        for number in range(1, plan["hands_per_game"] + 1):
            if time.perf_counter() >= deadline:
                if writer is not None:
                    writer.close()
                return
            key = uuid.uuid4().hex
            body = hand_body(plan, number, key)
            request = (
                game_head + f"Idempotency-Key: {key}\r\nContent-Length: {len(body)}\r\n\r\n"
            ).encode() + body
            started = time.perf_counter()
            if writer is None:
                reader, writer = await asyncio.open_connection("127.0.0.1", plan["port"])
            writer.write(request)
            status, keep_alive, answer = await read_response(reader)
            result["latencies"].append(time.perf_counter() - started)
            ok = status == expect and (marker is None or marker in answer)
            label = str(status) if ok or status != expect else f"{status} unmarked"
            result["statuses"][label] = result["statuses"].get(label, 0) + 1
            if not keep_alive:
                writer.close()
                reader = writer = None
            if ok:
                result["ok"] += 1
                continue
            if len(result["failures"]) < FAILURES_KEPT:
                text = answer.decode(errors="replace")
                result["failures"].append({"status": status, "path": game["path"], "body": text})
            break  # this game may take no more: the next one
    if writer is not None:
        writer.close()


async def run(plan: dict) -> dict:
    result = {"latencies": [], "statuses": {}, "failures": [], "ok": 0}
    started = time.perf_counter()
    deadline = started + plan["seconds"]
    await asyncio.gather(*(_client(plan, games, deadline, result) for games in plan["clients"]))
    elapsed = time.perf_counter() - started
    result["latencies"].sort()
    return {"count": len(result["latencies"]), "elapsed": elapsed, **result}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(run(json.load(sys.stdin)))))
