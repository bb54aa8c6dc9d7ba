"""Stats lines keep their partner and opponent records as numbers.

A player's or team's stats line (``StandingLine`` of kind ``player`` or ``team``) listed each
pair record as an object (``{"other_id", "games", "wins", "losses", "draws"}``); it now lists
``other_id, wins, losses, draws`` one record after the other in one list of numbers
(``scoring.standings.domain.stats.PAIR_STORED_FIELDS``; ``games`` is the sum of the last three).
A player of a large season met a thousand others: 60 kB of JSON a line before, 12 kB after. The
API and the pages show the records as objects, as before (``stats_line_shown``).

The lines' digests are taken from their counts, which do not change: they stay as they are.
Written out here rather than imported, so the migration means the same whatever the code
becomes.
"""

from django.db import migrations

KINDS = ("player", "team")
LISTS = ("partners", "opponents")
STORED = ("other_id", "wins", "losses", "draws")


def _as_numbers(records: list) -> list[int]:
    if not records or not isinstance(records[0], dict):
        return records  # already numbers (or empty)
    return [record[name] for record in records for name in STORED]


def _as_objects(numbers: list) -> list[dict]:
    if not numbers or isinstance(numbers[0], dict):
        return numbers
    return [
        {"other_id": other, "games": wins + losses + draws, "wins": wins, "losses": losses,
         "draws": draws}
        for other, wins, losses, draws in zip(
            numbers[0::4], numbers[1::4], numbers[2::4], numbers[3::4], strict=True
        )
    ]  # fmt: skip


def _convert(apps, change) -> None:
    line = apps.get_model("standings", "StandingLine")
    lines = line.objects.filter(kind__in=KINDS).order_by("pk")
    batch = []
    for pk, data in lines.values_list("pk", "data").iterator(chunk_size=200):
        data = {name: change(value) if name in LISTS else value for name, value in data.items()}
        batch.append(line(pk=pk, data=data))
        if len(batch) == 200:
            line.objects.bulk_update(batch, ["data"])
            batch = []
    line.objects.bulk_update(batch, ["data"])


def pairs_as_numbers(apps, schema_editor) -> None:
    _convert(apps, _as_numbers)


def pairs_as_objects(apps, schema_editor) -> None:
    _convert(apps, _as_objects)


class Migration(migrations.Migration):
    dependencies = [
        ("standings", "0003_standing_lines_without_rows"),
    ]

    operations = [migrations.RunPython(pairs_as_numbers, pairs_as_objects)]
