"""A database migrated under the layout before the split (one ``scoring`` app holding games and
standings) migrates to the split one (``scoring.games``, label ``scoring``; ``scoring.standings``,
label ``standings``) with every row intact, on SQLite and on PostgreSQL.

The move is a change of state only (``scoring.0019_standings_move_out`` and
``standings.0001_initial``): no table is dropped, renamed or rewritten. So the database as the old
layout left it is the demo's database migrated back to ``scoring.0018`` with no ``standings``
migration: the same tables, ``django_migrations`` without the two new rows and the standings'
content types under ``scoring``. From there the migration forward must keep every row of every
table as it was, give the standings' content types (and the permissions on them) to the new app,
and leave the product reading the old rows: the public standings page shows the demo's standings.
"""

import hashlib
import json
from io import StringIO

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from league.models import Season
from scoring.standings.domain.stats import PAIR_LISTS
from scoring.standings.models import StandingLine, StandingSnapshot
from scoring.standings.selectors import line_shown

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_SPLIT = [("scoring", "0018_time_called"), ("standings", None)]
MOVED = ("standinggame", "standingsnapshot", "standingline")


def migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def latest() -> list[tuple[str, str]]:
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def _line_shown(row: dict) -> dict:
    """A line's row (by column) with its data as the API shows it: ``standings.0004`` stores a
    stats line's pair records as numbers (the same records), which the old layout stored as
    objects."""
    data = json.loads(row["data"]) if isinstance(row["data"], str) else row["data"]
    if any(data.get(name) and isinstance(data[name][0], int) for name in PAIR_LISTS):
        data = line_shown(row["kind"], data)
    return row | {"data": json.dumps(data, sort_keys=True)}


def every_row() -> dict[str, tuple[int, str]]:
    """Each table's row count and a digest of its rows in primary-key order (the migration
    bookkeeping and the content types left out: those are what the migration may change; and the
    lines of standings rows, which the old layout kept and ``standings.0003`` takes out: they
    are the snapshot's rows, which stay). A line's data is read as shown (:func:`_line_shown`)."""
    found = {}
    skipped = {"django_migrations", "django_content_type", "django_session"}
    with connection.cursor() as cursor:
        for table in sorted(set(connection.introspection.table_names()) - skipped):
            if table.startswith("sqlite_"):
                continue
            quoted = connection.ops.quote_name(table)
            where = " WHERE kind <> 'standing'" if table == "scoring_standingline" else ""
            cursor.execute(f"SELECT * FROM {quoted}{where}")
            # Each row by column name: SQLite rebuilds a table to alter a column, which may
            # change the columns' order, not the rows.
            columns = [column[0] for column in cursor.description]
            named = (dict(zip(columns, row, strict=True)) for row in cursor.fetchall())
            if table == "scoring_standingline":
                named = map(_line_shown, named)
            rows = sorted(repr(sorted(row.items())) for row in named)
            found[table] = (len(rows), hashlib.sha256("\n".join(rows).encode()).hexdigest())
    return found


def test_the_demo_database_of_the_old_layout_migrates_with_every_row_intact():
    call_command("demo_league", stdout=StringIO())
    season = Season.objects.filter(snapshot__isnull=False).order_by("pk").first()
    assert season is not None
    snapshot = StandingSnapshot.objects.get(season=season)
    lines = StandingLine.objects.count()
    assert lines > 0
    permission_ids = set(
        Permission.objects.filter(content_type__app_label="standings").values_list("pk", flat=True)
    )
    assert len(permission_ids) == 4 * len(MOVED)  # add, change, delete, view of each model

    migrate(BEFORE_SPLIT)
    try:
        # The database as the old layout left it: the standings' rows in the scoring app's
        # tables, their content types (and permissions) under "scoring", no "standings" migration.
        assert set(
            ContentType.objects.filter(model__in=MOVED).values_list("app_label", flat=True)
        ) == {"scoring"}
        with connection.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM django_migrations WHERE app = 'standings'")
            assert cursor.fetchone() == (0,)
            cursor.execute("SELECT COUNT(*) FROM scoring_standingline WHERE kind <> 'standing'")
            assert cursor.fetchone() == (lines,)
            # The old layout's lines of the snapshots' rows, one a row (made by 0003 going back).
            cursor.execute(
                "SELECT season_id, entrant_id, data FROM scoring_standingline "
                "WHERE kind = 'standing'"
            )
            kept = {(season_id, entrant): data for season_id, entrant, data in cursor.fetchall()}
        rows = {
            (season_id, row["entrant"]): row
            for season_id, standings in StandingSnapshot.objects.values_list(
                "season_id", "standings"
            )
            for row in standings["rows"]
        }
        assert rows
        assert {
            key: json.loads(data) if isinstance(data, str) else data for key, data in kept.items()
        } == rows
        # Under the old layout a stats line lists its pair records as objects (made so by
        # standings.0004 going back).
        old_lines = StandingLine.objects.filter(kind="player").values_list("data", flat=True)
        assert all(isinstance(record, dict) for record in old_lines[0]["opponents"])
        before = every_row()
        assert before["scoring_standingsnapshot"][0] >= 1
        assert before["scoring_hand"][0] > 0
    finally:
        migrate(latest())

    assert every_row() == before  # every table, every row, as it was
    assert set(ContentType.objects.filter(model__in=MOVED).values_list("app_label", flat=True)) == {
        "standings"
    }
    assert (
        set(
            Permission.objects.filter(content_type__app_label="standings").values_list(
                "pk", flat=True
            )
        )
        == permission_ids
    )  # the same permission rows, now the standings app's
    reread = StandingSnapshot.objects.get(season=season)
    assert (reread.pk, reread.results_version, reread.standings) == (
        snapshot.pk,
        snapshot.results_version,
        snapshot.standings,
    )
    assert StandingLine.objects.count() == lines
    numbers = StandingLine.objects.filter(kind="player").values_list("data", flat=True)[0]
    assert numbers["opponents"] and all(isinstance(n, int) for n in numbers["opponents"])
    assert not StandingLine.objects.filter(kind="standing").exists()
    page = Client().get(f"/l/{season.league.slug}/s/{season.pk}/")
    assert page.status_code == 200
    first = snapshot.standings["rows"][0]["name"]
    assert first in page.content.decode()
