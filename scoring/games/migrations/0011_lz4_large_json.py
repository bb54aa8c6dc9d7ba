"""The snapshot's largest parts and the per-entrant lines are compressed with lz4 on PostgreSQL
(14 and later, when built with it): a large season's player stats run to tens of megabytes, which
the default compression (pglz) takes seconds to write; lz4 takes a fraction. Values already
stored keep their compression until rewritten. Nothing to do on other databases."""

from django.db import DatabaseError, migrations, transaction

COLUMNS = (
    ("scoring_standingsnapshot", "player_stats"),
    ("scoring_standingsnapshot", "team_stats"),
    ("scoring_standingsnapshot", "standings"),
    ("scoring_standingline", "data"),
)


def use_lz4(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql" or connection.pg_version < 140000:
        return
    for table, column in COLUMNS:
        try:
            with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
                cursor.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION lz4")
        except DatabaseError:  # a server built without lz4 keeps pglz
            return


class Migration(migrations.Migration):
    dependencies = [("scoring", "0010_standing_game")]

    operations = [migrations.RunPython(use_lz4, migrations.RunPython.noop, elidable=True)]
