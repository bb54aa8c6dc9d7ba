"""A backup restores: scripts/pg-backup (what the compose `backup` service runs) dumps the test
database with PostgreSQL's own pg_dump, pg_restore loads the dump into a new database, and every
table there holds as many rows as here, and the league's archive written from there is the one
written from here, byte for byte (the PostgreSQL pass of the suite; tests marked ``services``)."""

import os
import shutil
import subprocess
import sys
from io import StringIO
from pathlib import Path

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection
from psycopg import sql

from tests.archive.support import enrich_demo, export_text, small_league
from tests.conftest import require

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("pg_dump", "pg_restore", "createdb", "dropdb")


def client_environment(database: str, **extra) -> dict[str, str]:
    """libpq's environment for ``database`` on the test database's server."""
    settings = connection.settings_dict
    return {
        **os.environ,
        "PGHOST": settings["HOST"] or "localhost",
        "PGPORT": str(settings["PORT"] or 5432),
        "PGUSER": settings["USER"] or "",
        "PGPASSWORD": settings["PASSWORD"] or "",
        "PGDATABASE": database,
        **extra,
    }


def table_counts(database: str) -> dict[str, int]:
    """Rows in each table of the database's public schema."""
    env = client_environment(database)
    with psycopg.connect(
        host=env["PGHOST"],
        port=env["PGPORT"],
        user=env["PGUSER"],
        password=env["PGPASSWORD"] or None,
        dbname=database,
    ) as conn:
        tables = [
            name
            for (name,) in conn.execute(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1"
            )
        ]
        return {
            table: conn.execute(
                sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(table))
            ).fetchone()[0]
            for table in tables
        }


def test_a_dump_of_the_backup_service_restores_every_row(tmp_path):
    require(connection.vendor == "postgresql", "needs PostgreSQL (DATABASE_URL)")
    require(all(shutil.which(tool) for tool in TOOLS), f"needs PostgreSQL's client: {TOOLS}")
    call_command("demo_league", stdout=StringIO())
    enrich_demo()
    small_league("elsewhere")
    here = connection.settings_dict["NAME"]
    restored = f"{here}_restored"

    dumped = subprocess.run(
        ["sh", str(ROOT / "scripts" / "pg-backup"), "once"],
        env=client_environment(here, BACKUP_DIR=str(tmp_path), BACKUP_KEEP="3"),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert dumped.returncode == 0, dumped.stderr
    (dump,) = tmp_path.glob("euchre-*.dump")

    env = client_environment("postgres")
    subprocess.run(["dropdb", "--if-exists", restored], env=env, check=True, timeout=60)
    subprocess.run(["createdb", restored], env=env, check=True, timeout=60)
    try:
        loaded = subprocess.run(
            ["pg_restore", "--no-owner", "--exit-on-error", f"--dbname={restored}", str(dump)],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert loaded.returncode == 0, loaded.stderr
        counts = table_counts(here)
        assert table_counts(restored) == counts
        assert counts["scoring_hand"] > 100 and counts["league_league"] == 2

        settings = connection.settings_dict
        password = f":{settings['PASSWORD']}" if settings["PASSWORD"] else ""
        url = (
            f"postgres://{settings['USER']}{password}@{settings['HOST'] or 'localhost'}:"
            f"{settings['PORT'] or 5432}/{restored}"
        )
        for league in ("rosies", "elsewhere"):
            there = subprocess.run(
                [sys.executable, "manage.py", "league_export", league],
                cwd=ROOT,
                env={**os.environ, "DATABASE_URL": url},
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert there.returncode == 0, there.stderr
            assert there.stdout == export_text(league)
    finally:
        subprocess.run(["dropdb", "--if-exists", "--force", restored], env=env, timeout=60)
