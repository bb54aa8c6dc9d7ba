"""Player and team stats are stored only on their per-entrant lines (``StandingLine``, written
with every snapshot since 0007, which also split the snapshots stored before it): the snapshot's
copies of every line (tens of megabytes in a large season) are gone, and with them the work of
assembling them after each recompute. Nothing reads them any more."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0011_lz4_large_json'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='standingsnapshot',
            name='player_stats',
        ),
        migrations.RemoveField(
            model_name='standingsnapshot',
            name='team_stats',
        ),
    ]
