"""How the service connects to PostgreSQL: one function, read by the settings and by the
hand-entry benchmark's floor (``benchmarks/floor_settings.py``), so that both connect alike."""

import os
from typing import Any

import dj_database_url

POOLING_MODES = frozenset({"session", "transaction"})
PREPARE_THRESHOLD = 5
"""psycopg's default: a statement is prepared the fifth time one connection runs it."""


def pooling_from_environment() -> str:
    """``DATABASE_POOLING`` as the environment gives it (``session`` when unset or blank):
    ``transaction`` when ``DATABASE_URL`` names a transaction-pooling PgBouncer."""
    return os.environ.get("DATABASE_POOLING", "").strip().lower() or "session"


def postgres_database(url: str, *, pooling: str = "session") -> dict[str, Any]:
    """Django's ``DATABASES["default"]`` for ``url``: persistent, health-checked connections.

    On a connection of its own (``pooling="session"``, the default) statements are bound on the
    server (Django's ``server_side_binding``) and psycopg prepares one the
    ``PREPARE_THRESHOLD``-th time a connection runs it (psycopg's ``prepare_threshold``): a hand's
    few statements, run again and again on a connection kept for a minute, are then parsed and
    planned once instead of at every hand. Behind a transaction pooler (``pooling="transaction"``)
    nothing may outlive a transaction, which a prepared statement does (it lives in one server
    session, which the pooler hands to another client after each transaction): statements are
    bound on the client and never prepared, and ``QuerySet.iterator()`` must not open a
    server-side cursor either (Django declares it WITH HOLD outside a transaction)."""
    if pooling not in POOLING_MODES:
        raise RuntimeError(f"DATABASE_POOLING is session or transaction, not {pooling!r}")
    database = dj_database_url.parse(url, conn_max_age=60)
    database["CONN_HEALTH_CHECKS"] = True
    pooled = pooling == "transaction"
    database.setdefault("OPTIONS", {}).update(
        server_side_binding=not pooled, prepare_threshold=None if pooled else PREPARE_THRESHOLD
    )
    database["DISABLE_SERVER_SIDE_CURSORS"] = pooled
    return database
