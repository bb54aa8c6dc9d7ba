"""``manage.py league_export <league> [-o FILE]``: the whole league in one archive (its format:
``tournaments.domain.archive``), to back it up or to move it with ``league_import``."""

from django.core.management.base import BaseCommand, CommandError

from core.errors import DomainError
from tournaments.services.archive import archive_writer, league_export


class Command(BaseCommand):
    help = (
        "Write one archive of a league: its rulebooks, seasons, roster, teams, nights, plans, "
        "games, hands with their history, result changes, standings, brackets, audit trail, "
        "organiser roles and the accounts they need (with their password hashes unless "
        "--without-passwords). The archive is sensitive: keep it as you keep the database. "
        "Restore it with manage.py league_import."
    )

    def add_arguments(self, parser):
        parser.add_argument("league", help="the league's address (slug) or id")
        parser.add_argument(
            "-o",
            "--output",
            default="-",
            help="the archive's file (default: standard output); a name ending in .gz is "
            "compressed with gzip",
        )
        parser.add_argument(
            "--without-passwords",
            action="store_true",
            help="write the accounts with unusable passwords (organisers reset theirs after an "
            "import); the archive then holds no password hashes",
        )

    def handle(self, *args, league, output, without_passwords, **options):
        passwords = not without_passwords
        try:
            if output == "-":
                header = league_export(
                    league=league, stream=Plain(self.stdout), passwords=passwords
                )
            else:
                with archive_writer(output) as stream:
                    header = league_export(league=league, stream=stream, passwords=passwords)
        except DomainError as error:
            raise CommandError(error.message) from error
        rows = sum(header.counts.values())
        where = "standard output" if output == "-" else output
        self.stderr.write(
            f"Exported the league {header.league_name!r} ({header.league_slug}): {rows} rows, "
            f"archive format version {header.version}, to {where}."
        )


class Plain:
    """The command's standard output, written as is (Django's wrapper ends every write with a
    newline of its own)."""

    def __init__(self, out):
        self.out = out

    def write(self, text: str) -> None:
        self.out.write(text, ending="")
