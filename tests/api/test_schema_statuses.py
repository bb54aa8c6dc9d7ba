"""Every status the service can answer is in the OpenAPI schema, so a generated client expects it:
429 (with ``Retry-After``) on the five operations a captain token may open, 413 on every write,
400 on every operation (a NUL anywhere is one), and the web server's own answers to a request line
or a header too long for it (gunicorn's 414 and 431, text/html, before the application runs).

The last part starts gunicorn, as the image does, and sends it an over-long query."""

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CAPTAIN_OPERATIONS = {
    ("/api/v1/games/{id}/hands/", "post"),
    ("/api/v1/games/{id}/hands/undo/", "post"),
    ("/api/v1/games/{id}/hands/{number}/correct/", "post"),
    ("/api/v1/games/{id}/confirm/", "post"),
    ("/api/v1/games/{id}/dispute/", "post"),
}
PLAYER_LINK_OPERATIONS = {("/api/v1/me/{token}/rsvp/", "post")}
"""A player's own answer: its token is a secret guessed as a captain's is, and it is limited."""
WRITES = {"post", "put", "patch", "delete"}


@pytest.fixture(scope="module")
def operations():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {
        (path, method): operation
        for path, item in schema["paths"].items()
        for method, operation in item.items()
    }


def test_429_with_retry_after_is_declared_on_the_captain_operations(operations):
    declared = {key for key, operation in operations.items() if "429" in operation["responses"]}
    assert declared == CAPTAIN_OPERATIONS | PLAYER_LINK_OPERATIONS
    for key in PLAYER_LINK_OPERATIONS:
        too_many = operations[key]["responses"]["429"]
        assert too_many["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/Error"
        }
    for key in CAPTAIN_OPERATIONS:
        too_many = operations[key]["responses"]["429"]
        assert too_many["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/Error"
        }
        assert too_many["headers"]["Retry-After"]["schema"] == {"type": "integer", "minimum": 1}


def test_every_operation_declares_what_any_request_may_get(operations):
    for (path, method), operation in operations.items():
        responses = operation["responses"]
        assert "400" in responses, (path, method)
        assert ("413" in responses) == (method in WRITES), (path, method)
        for code in ("414", "431"):
            assert set(responses[code]["content"]) == {"text/html"}, (path, method, code)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _ask(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


def test_gunicorn_answers_an_over_long_query_with_414_and_an_over_long_header_with_431(tmp_path):
    port = _free_port()
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "gunicorn", "config.wsgi:application"),
            *("--bind", f"127.0.0.1:{port}", "--workers", "1"),
        ],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "DEBUG": "1", "SQLITE_PATH": str(tmp_path / "db.sqlite3")},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        # Up when its worker answers (the arbiter listens before the worker has loaded Django,
        # which takes seconds on a busy machine).
        deadline = time.monotonic() + 60
        while True:
            try:
                ready = _ask(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                if ready.startswith(b"HTTP/1.1 "):
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.2)
        query = "search=" + "x" * 5000
        long_line = _ask(port, f"GET /api/v1/teams/?{query} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert long_line.startswith(b"HTTP/1.1 414 ")
        assert b"Content-Type: text/html" in long_line
        long_header = _ask(
            port,
            b"GET /api/v1/teams/ HTTP/1.1\r\nHost: x\r\nX-Captain-Token: "
            + b"x" * 9000
            + b"\r\n\r\n",
        )
        assert long_header.startswith(b"HTTP/1.1 431 ")
        assert b"Content-Type: text/html" in long_header
    finally:
        server.terminate()
        server.wait(timeout=10)
