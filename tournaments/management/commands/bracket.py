"""``manage.py bracket``: print an empty bracket for seeds 1..N, for a blank sheet.

A bracket without a league: no database is read or written. The command parses its arguments,
asks the engine for the structure and prints it, as JSON (every match with its code, bracket,
round and two slots: a seed, a bye, or the winner/loser of an earlier match) or as plain text.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from core.errors import DomainError
from tournaments.domain.brackets import Structure, structure_as_dict
from tournaments.domain.elimination import double_elimination, single_elimination
from tournaments.domain.round_robin import round_robin

KINDS = ("single", "double", "round-robin")


class Command(BaseCommand):
    help = "Print the empty structure of a bracket for seeds 1..N (JSON or text)."
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--kind", choices=KINDS, required=True)
        parser.add_argument("--teams", type=int, required=True, help="number of teams (seeds)")
        parser.add_argument(
            "--third-place", action="store_true", help="single elimination: a third-place match"
        )
        parser.add_argument(
            "--grand-final-reset",
            action="store_true",
            help="double elimination: a second grand final if the losers' bracket champion "
            "wins the first",
        )
        parser.add_argument(
            "--cycles", type=int, choices=(1, 2), default=1, help="round robin: once or twice"
        )
        parser.add_argument("--format", choices=("json", "text"), default="json")

    def handle(self, *args, **options):
        kind = options["kind"]
        if options["third_place"] and kind != "single":
            raise CommandError("--third-place applies to single elimination only.")
        if options["grand_final_reset"] and kind != "double":
            raise CommandError("--grand-final-reset applies to double elimination only.")
        if options["cycles"] != 1 and kind != "round-robin":
            raise CommandError("--cycles applies to round robin only.")
        try:
            structure = self.build(kind, options)
        except DomainError as error:
            raise CommandError(error.message) from error
        if options["format"] == "json":
            self.stdout.write(json.dumps(structure_as_dict(structure), indent=2))
        else:
            self.stdout.write(self.as_text(structure))

    def build(self, kind: str, options: dict) -> Structure:
        if kind == "single":
            return single_elimination(options["teams"], third_place=options["third_place"])
        if kind == "double":
            return double_elimination(
                options["teams"], grand_final_reset=options["grand_final_reset"]
            )
        return round_robin(options["teams"], cycles=options["cycles"])

    def as_text(self, structure: Structure) -> str:
        lines = []
        for match in structure.matches:
            note = " (bye)" if match.is_bye else ""
            if match.reset_of:
                note = f" (only if the second slot wins {match.reset_of})"
            lines.append(
                f"{match.code:<8} {match.bracket:<12} round {match.round:<3} "
                f"{match.first.label} v {match.second.label}{note}"
            )
        return "\n".join(lines)
