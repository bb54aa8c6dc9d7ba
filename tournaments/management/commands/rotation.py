"""``manage.py rotation``: a partner rotation for players numbered 1..N, without a league."""

import csv
import json

from django.core.management.base import BaseCommand, CommandError

from core.errors import DomainError
from tournaments.domain.rotation import build_rotation, rotation_report


class Command(BaseCommand):
    help = (
        "Print a partner rotation for players numbered 1..N with its quality report. "
        'JSON: {"players": N, "rounds": [{"tables": [[a, b, c, d], ...], "byes": [...]}, '
        '...], "report": {...}}; each table lists its seats clockwise, a and c partner '
        "against b and d, seat a deals first. CSV: one row per table, columns round, table, "
        "seat_1..seat_4 (clockwise; seats 1 and 3 partner against 2 and 4), then one row per "
        "bye with table 'bye' and the player in seat_1; the report is not in the CSV."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True, help="number of players, 4 to 64")
        parser.add_argument("--rounds", type=int, default=None, help="rounds (default: full cycle)")
        parser.add_argument("--format", choices=["json", "csv"], default="json")
        parser.add_argument("--seed", type=int, default=0, help="same seed, same rotation")

    def handle(self, *args, **options):
        players = list(range(1, options["players"] + 1))
        try:
            rotation = build_rotation(players, options["rounds"], seed=options["seed"])
        except DomainError as error:
            raise CommandError(error.message) from error
        if options["format"] == "json":
            document = {
                "players": len(players),
                "rounds": [
                    {"tables": [list(table) for table in round_.tables], "byes": list(round_.byes)}
                    for round_ in rotation.rounds
                ],
                "report": rotation_report(rotation, players).as_dict(),
            }
            self.stdout.write(json.dumps(document))
            return
        writer = csv.writer(self.stdout, lineterminator="\n")
        writer.writerow(["round", "table", "seat_1", "seat_2", "seat_3", "seat_4"])
        for number, round_ in enumerate(rotation.rounds, start=1):
            for table_number, table in enumerate(round_.tables, start=1):
                writer.writerow([number, table_number, *table])
            for player in round_.byes:
                writer.writerow([number, "bye", player, "", "", ""])
