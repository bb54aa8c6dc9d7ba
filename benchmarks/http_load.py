"""The load generator of ``bench_api_hands.py``, run as a process of its own so that it does not
share an interpreter (or a GIL) with what it measures.

Reads a JSON plan on stdin and writes a JSON result on stdout. Each client is one keep-alive
HTTP/1.1 connection (reopened when the server closes it, as a sync gunicorn worker does; the
reconnection counts in that request's time) that posts hands one after another to its own games,
``hands_per_game`` each with numbers 1, 2, … and a fresh Idempotency-Key, until ``seconds`` are
up. Requests are written as raw bytes and answers read by their Content-Length (or chunks). The
client is not free: it shares the box with the servers, and ``bench_api_hands.py`` prints its CPU
per request beside theirs ("load": 0.6-1.0 ms on a 2-core VM, and 15-35% more in the hands'
rounds than in the floor's, for the same requests).

Plan: ``{"port", "path" (with {game}), "token" (or null), "seconds", "hands_per_game",
"clients": [[game ids of client 0], …]}``. Result: ``{"count", "elapsed", "latencies" (seconds,
sorted), "statuses": {status: count}}``.
"""

import asyncio
import json
import sys
import time
import uuid


async def _read_response(reader) -> tuple[int, bool]:
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
    if chunked:  # an answer without a Content-Length on a connection kept alive
        while size := int((await reader.readline()).split(b";")[0], 16):
            await reader.readexactly(size + 2)
        await reader.readline()
    elif length:
        await reader.readexactly(length)
    return status, keep_alive


async def _client(plan, games, deadline, latencies, statuses) -> None:
    port, token = plan["port"], plan["token"]
    head = "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    if token:
        head += f"Authorization: Token {token}\r\n"
    reader = writer = None
    for game in games:
        path = plan["path"].format(game=game)
        for number in range(1, plan["hands_per_game"] + 1):
            if time.perf_counter() >= deadline:
                if writer is not None:
                    writer.close()
                return
            body = json.dumps(
                {"makers": "A" if number % 2 else "B", "tricks_won": 3, "number": number}
            ).encode()
            request = (
                head.format(path=path)
                + f"Idempotency-Key: {uuid.uuid4().hex}\r\nContent-Length: {len(body)}\r\n\r\n"
            ).encode() + body
            started = time.perf_counter()
            if writer is None:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(request)
            status, keep_alive = await _read_response(reader)
            latencies.append(time.perf_counter() - started)
            statuses[status] = statuses.get(status, 0) + 1
            if not keep_alive:
                writer.close()
                reader = writer = None
            if status != 201:
                break  # this game will take no more (it should not happen): the next one
    if writer is not None:
        writer.close()


async def run(plan: dict) -> dict:
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    started = time.perf_counter()
    deadline = started + plan["seconds"]
    await asyncio.gather(
        *(_client(plan, games, deadline, latencies, statuses) for games in plan["clients"])
    )
    elapsed = time.perf_counter() - started
    return {
        "count": len(latencies),
        "elapsed": elapsed,
        "latencies": sorted(latencies),
        "statuses": statuses,
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(run(json.load(sys.stdin)))))
