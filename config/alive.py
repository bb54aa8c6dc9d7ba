"""``python -m config.alive worker|beat``: exit 0 while this host's worker (or beat) beats, 1 when
its heartbeat key has expired (``config.celery``): the compose health check of each worker and of
the beat. It asks Redis, not the process: a worker that is up but cannot reach Redis, or whose
event loop hangs, is not healthy either."""

import socket
import sys


def beating(kind: str, host: str) -> bool:
    from config.celery import HEARTBEAT_PREFIX, heartbeat_redis

    client = heartbeat_redis()
    if client is None:
        return True  # the embedded default: nothing runs apart from the web process
    name = f"celery@{host}" if kind == "worker" else host
    try:
        return bool(client.exists(f"{HEARTBEAT_PREFIX}{kind}:{name}"))
    except OSError:
        return False


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in ("worker", "beat"):
        print("usage: python -m config.alive worker|beat", file=sys.stderr)
        return 2
    alive = beating(argv[0], socket.gethostname())
    print(f"{argv[0]} on {socket.gethostname()}: {'beating' if alive else 'no heartbeat'}")
    return 0 if alive else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
