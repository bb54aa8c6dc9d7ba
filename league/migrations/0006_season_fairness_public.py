from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0005_archived"),
    ]

    operations = [
        migrations.AddField(
            model_name="season",
            name="fairness_public",
            field=models.BooleanField(
                default=False,
                help_text="Show the season's fairness report (partners, byes, strength of "
                "schedule) on its public page and to anyone through the API; organisers always "
                "see it.",
            ),
        ),
    ]
