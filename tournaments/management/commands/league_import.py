"""``manage.py league_import <FILE>``: restore a league from an archive written by
``league_export``, into this database (SQLite or PostgreSQL), in one transaction."""

import sys

from django.core.management.base import BaseCommand, CommandError

from core.errors import DomainError
from tournaments.services.archive import archive_lines, archive_reader, league_import


class Command(BaseCommand):
    help = (
        "Restore a league from an archive written by manage.py league_export (gzip-compressed "
        "or not; - reads standard input). All or nothing: when the archive cannot be imported "
        "(a newer format, a damaged or cut-short file, the league, rows or accounts already "
        "here) nothing is written and the reason is printed."
    )

    def add_arguments(self, parser):
        parser.add_argument("archive", help="the archive's file, or - for standard input")
        parser.add_argument(
            "--use-existing-accounts",
            action="store_true",
            help="an account of the archive whose username exists here is taken to be that "
            "account (kept as it is, password included) instead of refusing the import",
        )

    def handle(self, *args, archive, use_existing_accounts, **options):
        try:
            if archive == "-":
                summary = league_import(
                    lines=archive_lines(sys.stdin.buffer),
                    use_existing_accounts=use_existing_accounts,
                )
            else:
                with archive_reader(archive) as lines:
                    summary = league_import(
                        lines=lines, use_existing_accounts=use_existing_accounts
                    )
        except OSError as error:
            raise CommandError(
                f"nothing was imported: {archive} cannot be read: {error}"
            ) from error
        except DomainError as error:
            raise CommandError(f"nothing was imported: {error.message}") from error
        rows = sum(summary.counts.values())
        self.stdout.write(
            f"Imported the league {summary.league_name!r} ({summary.league_slug}): {rows} rows."
        )
        if summary.accounts_created:
            state = (
                "with their passwords" if summary.passwords else "without passwords (reset them)"
            )
            self.stdout.write(f"Accounts created, {state}: {', '.join(summary.accounts_created)}.")
        if summary.accounts_linked:
            self.stdout.write(
                f"Existing accounts used, unchanged: {', '.join(summary.accounts_linked)}."
            )
