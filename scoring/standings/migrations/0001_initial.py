"""The standings' models, taken over from the games app (label ``scoring``) with their tables as
they are (``scoring_standingsnapshot``, ``scoring_standingline``, ``scoring_standinggame``): the
state moves, the database does not. Their content types move too, so permissions given on them
before keep working."""

import django.db.models.deletion
from django.db import migrations, models


MOVED = ("standinggame", "standingsnapshot", "standingline")


def content_types_move(apps, schema_editor):
    content_types = apps.get_model("contenttypes", "ContentType")
    content_types.objects.filter(app_label="scoring", model__in=MOVED).update(
        app_label="standings"
    )


def content_types_back(apps, schema_editor):
    content_types = apps.get_model("contenttypes", "ContentType")
    content_types.objects.filter(app_label="standings", model__in=MOVED).update(
        app_label="scoring"
    )


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('league', '0009_player_links_rsvps'),
        ('scoring', '0019_standings_move_out'),
        ('contenttypes', '0002_remove_content_type_name'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='StandingGame',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('finished_at', models.DateTimeField(null=True)),
                        ('seat_0_id', models.BigIntegerField()),
                        ('seat_1_id', models.BigIntegerField()),
                        ('seat_2_id', models.BigIntegerField()),
                        ('seat_3_id', models.BigIntegerField()),
                        ('team_a_id', models.BigIntegerField(null=True)),
                        ('team_b_id', models.BigIntegerField(null=True)),
                        ('score_a', models.IntegerField()),
                        ('score_b', models.IntegerField()),
                        ('winner', models.CharField(blank=True, max_length=1)),
                        ('night_id', models.BigIntegerField(null=True)),
                        ('first_number', models.IntegerField(null=True)),
                        ('a0', models.BigIntegerField(default=0)),
                        ('a1', models.BigIntegerField(default=0)),
                        ('a2', models.BigIntegerField(default=0)),
                        ('a3', models.BigIntegerField(default=0)),
                        ('b0', models.BigIntegerField(default=0)),
                        ('b1', models.BigIntegerField(default=0)),
                        ('b2', models.BigIntegerField(default=0)),
                        ('b3', models.BigIntegerField(default=0)),
                        ('c0', models.BigIntegerField(default=0)),
                        ('c1', models.BigIntegerField(default=0)),
                        ('c2', models.BigIntegerField(default=0)),
                        ('c3', models.BigIntegerField(default=0)),
                        ('c4', models.BigIntegerField(default=0)),
                        ('c5', models.BigIntegerField(default=0)),
                        ('c6', models.BigIntegerField(default=0)),
                        ('c7', models.BigIntegerField(default=0)),
                        ('game', models.OneToOneField(db_constraint=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='scoring.game')),
                        ('season', models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='league.season')),
                    ],
                    options={
                        'db_table': 'scoring_standinggame',
                    },
                ),
                migrations.CreateModel(
                    name='StandingSnapshot',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('results_version', models.PositiveBigIntegerField()),
                        ('computed_at', models.DateTimeField()),
                        ('duration_ms', models.PositiveIntegerField(default=0)),
                        ('standings', models.JSONField()),
                        ('ratings', models.JSONField(default=list)),
                        ('nights', models.JSONField(default=list, help_text='Per night: games and points per entrant.')),
                        ('race', models.JSONField(blank=True, default=dict, help_text='The playoff race (scoring.standings.services.race): proofs, odds and the stakes of coming games.')),
                        ('race_version', models.PositiveBigIntegerField(blank=True, help_text='The results_version the race was computed from.', null=True)),
                        ('race_games', models.CharField(blank=True, default='', help_text="A digest of the season's games still to play and nights the race was computed from (scoring.standings.services.race_games): when the season's differ, the race is due.", max_length=32)),
                        ('basis', models.JSONField(blank=True, default=dict, help_text='What the snapshot was ranked under (rulebook, standing rules, format): when it changes, the next recompute starts from scratch rather than from the stored totals.')),
                        ('season', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='snapshot', to='league.season')),
                    ],
                    options={
                        'db_table': 'scoring_standingsnapshot',
                    },
                ),
                migrations.CreateModel(
                    name='StandingLine',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('standing', 'Standings row'), ('player', 'Player stats'), ('team', 'Team stats'), ('rating', 'Rating')], max_length=16)),
                        ('entrant_id', models.PositiveBigIntegerField()),
                        ('data', models.JSONField()),
                        ('digest', models.CharField(default='', help_text='A hash of data: a recompute rewrites changed lines.', max_length=32)),
                        ('season', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='standing_lines', to='league.season')),
                    ],
                    options={
                        'db_table': 'scoring_standingline',
                        'constraints': [models.UniqueConstraint(fields=('season', 'kind', 'entrant_id'), name='standing_line_unique')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_move, content_types_back),
    ]
