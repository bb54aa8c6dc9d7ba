"""The standings rows leave the per-entrant lines: they live in the snapshot alone (a game moved
the rank and Buchholz of nearly every entrant, so every fold rewrote nearly every such line)."""

from django.db import migrations, models


def rows_lines_delete(apps, schema_editor):
    apps.get_model("standings", "StandingLine").objects.filter(kind="standing").delete()


def rows_lines_create(apps, schema_editor):
    """Back: a line for each row of each snapshot, as the layout before read them (an empty
    digest: the next fold rewrites the lines whose row it changes)."""
    line = apps.get_model("standings", "StandingLine")
    snapshots = apps.get_model("standings", "StandingSnapshot").objects.all()
    for season_id, standings in snapshots.values_list("season_id", "standings").iterator():
        line.objects.bulk_create(
            [
                line(season_id=season_id, kind="standing", entrant_id=row["entrant"], data=row)
                for row in standings.get("rows", ())
            ],
            batch_size=500,
        )


class Migration(migrations.Migration):
    dependencies = [
        ("standings", "0002_standing_game_played"),
    ]

    operations = [
        migrations.RunPython(rows_lines_delete, rows_lines_create),
        migrations.AlterField(
            model_name="standingline",
            name="kind",
            field=models.CharField(
                choices=[("player", "Player stats"), ("team", "Team stats"), ("rating", "Rating")],
                max_length=16,
            ),
        ),
    ]
