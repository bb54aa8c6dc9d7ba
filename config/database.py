"""How the service connects to PostgreSQL: one function, read by the settings and by the
hand-entry benchmark's floor (``benchmarks/floor_settings.py``), so that both connect alike."""

from typing import Any

import dj_database_url

POOLING_MODES = frozenset({"session", "transaction"})


def postgres_database(url: str, *, pooling: str = "session") -> dict[str, Any]:
    """Django's ``DATABASES["default"]`` for ``url``: persistent, health-checked connections.

    Statements are bound on the client and never prepared on the server (Django's default cursor,
    said here so that no option turns it on): a prepared statement lives in one server session,
    which a transaction pooler hands to another client after each transaction. Behind a
    transaction pooler (``pooling="transaction"``), ``QuerySet.iterator()`` must not open a
    server-side cursor either (Django declares it WITH HOLD outside a transaction: it would
    outlive the transaction)."""
    if pooling not in POOLING_MODES:
        raise RuntimeError(f"DATABASE_POOLING is session or transaction, not {pooling!r}")
    database = dj_database_url.parse(url, conn_max_age=60)
    database["CONN_HEALTH_CHECKS"] = True
    database.setdefault("OPTIONS", {}).update(server_side_binding=False, prepare_threshold=None)
    database["DISABLE_SERVER_SIDE_CURSORS"] = pooling == "transaction"
    return database
