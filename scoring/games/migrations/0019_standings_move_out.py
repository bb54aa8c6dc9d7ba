"""The standings' models (StandingSnapshot, StandingLine, StandingGame) leave the games app
(label ``scoring``) for the standings app (label ``standings``): this app forgets them, and
``standings.0001_initial`` takes them over with the same tables. Nothing in the database changes:
no table is dropped, renamed or rewritten, and every row stays where it is."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0018_time_called'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
            migrations.RemoveField(
                model_name='standingline',
                name='season',
            ),
            migrations.RemoveField(
                model_name='standingsnapshot',
                name='season',
            ),
            migrations.DeleteModel(
                name='StandingGame',
            ),
            migrations.DeleteModel(
                name='StandingLine',
            ),
            migrations.DeleteModel(
                name='StandingSnapshot',
            ),
            ],
            database_operations=[],
        ),
    ]
