"""The throwaway PostgreSQL database a benchmark builds its data in, and Django set up on it.

One place for what every PostgreSQL benchmark does before and after its rounds: make the
database (or, with ``keep``, find one a run kept), drop it, migrate it and set Django up on it.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class BenchDatabase:
    """A database ``name`` on the server that ``admin_url`` (a maintenance database) reaches."""

    def __init__(self, admin_url: str, name: str) -> None:
        self.admin_url = admin_url
        self.name = name
        self.url = admin_url.rsplit("/", 1)[0] + "/" + name

    def recreate(self, *, keep: bool = False) -> bool:
        """Make an empty database; with ``keep``, say whether a kept one is there instead."""
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as connection:
            if (
                keep
                and connection.execute(
                    "SELECT 1 FROM pg_database WHERE datname = %s", (self.name,)
                ).fetchone()
            ):
                return True
            connection.execute(f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")
            connection.execute(f"CREATE DATABASE {self.name}")
        return False

    def drop(self) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as connection:
            connection.execute(f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")


def setup_django(env: dict[str, str], *, without: tuple[str, ...] = ()) -> None:
    """Migrate the database ``env`` names (in a child process, as a deploy would), then set
    Django up in this process with ``env`` in its environment, less the variables ``without``."""
    child = {**os.environ, **env}
    for name in without:
        child.pop(name, None)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=child, check=True)
    os.environ.update(env)
    for name in without:
        os.environ.pop(name, None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
