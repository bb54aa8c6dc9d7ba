"""A Redis cache that a Redis outage cannot turn into a 500.

Django's ``RedisCache`` raises ``redis.exceptions.ConnectionError`` (or ``TimeoutError``) from
every call while Redis is unreachable, so a page that reads its cache, and every rate limit
(django-ratelimit counts in the cache), would fail with it. :class:`FailSoftRedisCache` catches
those errors (the pattern of django-redis's ``IGNORE_EXCEPTIONS``) and answers from a per-process
*fallback* cache instead, a ``LocMemCache`` alias named in ``OPTIONS["FALLBACK"]``:

- pages cached in Redis are missed and built again (from the stored standings snapshot), and kept
  in the process's own memory for as long as the outage lasts;
- rate limits go on counting, per process (so an address guessing captain links is still slowed
  down; across N web processes it gets at most N times the limit): they *fail open* to the
  fallback instead of refusing everyone, or letting everyone through;
- without a ``FALLBACK`` alias a read is a miss and a write does nothing.

After a failure Redis is left alone for ``RETRY_SECONDS`` (a small circuit breaker), so a Redis
that hangs rather than refuses costs one socket timeout per process per window, not one per call.
A warning is logged at most once per ``WARN_SECONDS`` per process.
"""

from __future__ import annotations

import logging
import threading
import time

from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("config.cache")

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, ConnectionError, TimeoutError, OSError)
"""What Redis raises when it is down, refusing, or hanging (redis-py's errors and the socket's)."""

_state_lock = threading.Lock()
_down_until: dict[str, float] = {}  # per server list: skip Redis until this monotonic time
_warned_at: dict[str, float] = {}


class FailSoftRedisCache(RedisCache):
    """``RedisCache`` whose calls fall back to a local cache (or miss) while Redis is unreachable.

    Extra ``OPTIONS`` (taken out before the rest reach redis-py's connection pool):
    ``FALLBACK`` (a cache alias, e.g. a ``LocMemCache``), ``RETRY_SECONDS`` (default 5),
    ``WARN_SECONDS`` (default 60).
    """

    def __init__(self, server, params):
        params = dict(params)
        options = dict(params.get("OPTIONS", {}))
        self._fallback_alias = options.pop("FALLBACK", None)
        self._retry_seconds = float(options.pop("RETRY_SECONDS", 5))
        self._warn_seconds = float(options.pop("WARN_SECONDS", 60))
        params["OPTIONS"] = options
        super().__init__(server, params)
        self._name = ",".join(self._servers)

    # -- the guard ---------------------------------------------------------------------------

    def _fallback(self):
        return caches[self._fallback_alias] if self._fallback_alias else None

    def _is_down(self) -> bool:
        return _down_until.get(self._name, 0.0) > time.monotonic()

    def _mark_down(self, error: Exception) -> None:
        now = time.monotonic()
        with _state_lock:
            _down_until[self._name] = now + self._retry_seconds
            warn = now - _warned_at.get(self._name, -self._warn_seconds) >= self._warn_seconds
            if warn:
                _warned_at[self._name] = now
        if warn:
            logger.warning(
                "cache: Redis unreachable (%s: %s); using %s, trying Redis again every %ss",
                error.__class__.__name__,
                error,
                f"the per-process '{self._fallback_alias}' cache"
                if self._fallback_alias
                else "misses",
                int(self._retry_seconds),
            )

    def _call(self, name: str, miss, *args, **kwargs):
        """``RedisCache.<name>(*args)``, or the fallback's (or ``miss``) while Redis is down."""
        if not self._is_down():
            try:
                return getattr(super(), name)(*args, **kwargs)
            except UNREACHABLE as error:
                self._mark_down(error)
        fallback = self._fallback()
        if fallback is not None:
            return getattr(fallback, name)(*args, **kwargs)
        if isinstance(miss, BaseException):
            raise miss
        return miss

    # -- the cache API -----------------------------------------------------------------------

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        # Without a fallback, say "added": a caller that coalesces work (only the first adder
        # acts) then acts, rather than waiting forever for work nobody queued.
        return self._call("add", True, key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._call("get", default, key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set", None, key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("touch", False, key, timeout, version)

    def delete(self, key, version=None):
        return self._call("delete", False, key, version)

    def get_many(self, keys, version=None):
        return self._call("get_many", {}, keys, version)

    def has_key(self, key, version=None):
        return self._call("has_key", False, key, version)

    def incr(self, key, delta=1, version=None):
        return self._call("incr", ValueError(f"Key '{key}' not found."), key, delta, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set_many", list(data), data, timeout, version)

    def delete_many(self, keys, version=None):
        return self._call("delete_many", None, keys, version)

    def clear(self):
        return self._call("clear", False)


def forget_outages() -> None:
    """Forget every Redis marked down: the next call tries it again (tests start each case
    with it)."""
    with _state_lock:
        _down_until.clear()
