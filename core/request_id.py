"""The *request id*: one short string naming a request, carried by every log record written while
it is served and by the background jobs it sends, so a hand can be followed from its POST into the
standings recompute it triggered.

- A request brings its own in ``X-Request-ID`` when it is *well formed* (1 to 64 letters, digits
  and ``._:-``, as proxies and tracing headers write them); otherwise one is made (a UUID4's hex).
  Either way it is echoed in the answer's ``X-Request-ID`` (``config.observability``).
- Jobs carry it in their message headers (``core.enqueue``); a worker binds it while the job
  runs (``config.celery``), so the job's log records carry it too.

Plumbing every app may use: no Django, no Celery here, only a context variable.
"""

from __future__ import annotations

import re
import uuid
from contextvars import ContextVar, Token

HEADER = "X-Request-ID"
"""The HTTP header a request id comes in and goes out with."""
JOB_HEADER = "request_id"
"""The Celery message header a job carries its request id in."""
WELL_FORMED = re.compile(r"[A-Za-z0-9._:-]{1,64}")

_current: ContextVar[str | None] = ContextVar("request_id", default=None)


def request_id_current() -> str | None:
    """The request id bound now (in a request, or in a job sent by one), or ``None``."""
    return _current.get()


def request_id_for(incoming: str | None) -> str:
    """``incoming`` when it is well formed, else a new id."""
    if incoming and WELL_FORMED.fullmatch(incoming):
        return incoming
    return uuid.uuid4().hex


def request_id_bind(value: str | None) -> Token:
    """Bind ``value`` as the current request id; give the token to :func:`request_id_unbind`."""
    return _current.set(value)


def request_id_unbind(token: Token) -> None:
    """Put back the request id bound before the matching :func:`request_id_bind`."""
    _current.reset(token)
