"""A whole league in one archive, and back: ``league_export`` writes it, ``league_import`` restores
it into any database (SQLite or PostgreSQL). The format, its version and what a future version
must do are in :mod:`tournaments.domain.archive`.

The rows are turned into lines and back by Django's serialization framework: written by its
``jsonl`` serializer (natural keys for accounts), read back by its deserializer once each line is
checked to be a row of a kind, in the order, an archive holds. Every field of every row is kept
as stored, and a row is written back raw, without its ``save()``, its signals' side effects or
``auto_now`` stamping.

- *export*: one consistent read of the league (PostgreSQL: one repeatable-read, read-only
  snapshot; SQLite: one transaction), so the header's counts and the lines agree even while
  captains enter hands.
- *import*: one transaction. It writes nothing and says why when the file is not an archive, is
  damaged or cut short, is of a newer format or schema, when the league or any of its rows (by
  id) or accounts (by username) already exist, or when a row does not belong to the league it
  claims. Accounts never gain rights on the site from an archive (no staff, no superuser).
"""

from __future__ import annotations

import datetime
import gzip
import io
import json
import os
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from django.apps import apps
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.models import Q

from core.errors import ConflictError, NotFoundError
from league.models import League
from tournaments.domain.archive import (
    ACCOUNT_FIELDS,
    ACCOUNTS,
    ARCHIVE_MODELS,
    ArchiveError,
    ArchiveHeader,
    accounts_message,
    counts_check,
    header_parse,
    kind_upgraded,
    record_kind_check,
    record_left_out,
    record_upgraded,
    schema_problem,
    taken_ids_message,
)

UNUSABLE_PASSWORD = "!"
"""An account's password in an archive written without passwords: Django reads a password that
starts with ``!`` as unusable, so the account signs in only after a reset."""

CHUNK = 1000
"""Rows written between two checks that their ids are free (and read per query on export)."""

GZIP_MAGIC = b"\x1f\x8b"


class ArchiveEncoder(DjangoJSONEncoder):
    """Django's JSON encoder, but a time keeps its microseconds (Django's keeps milliseconds):
    a restored row's timestamps are the stored ones, to the microsecond."""

    def default(self, o):
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


def archive_model(label: str):
    return apps.get_model(label)


def archived_fields(model) -> list[str]:
    """The fields of ``model`` an archive keeps: every stored one but those the database works
    out itself (generated columns)."""
    if model._meta.label_lower == ACCOUNTS:
        return list(ACCOUNT_FIELDS)
    return [each.name for each in model._meta.local_fields if each.serialize and not each.generated]


def account_references(model) -> list[str]:
    """Names of ``model``'s references to an account."""
    accounts = archive_model(ACCOUNTS)
    return [
        each.name
        for each in model._meta.local_fields
        if each.is_relation and each.related_model is accounts
    ]


def schema_now() -> dict[str, tuple[str, ...]]:
    """The newest migration of each app with rows in an archive, as this program has them."""
    archived_apps = {label.split(".")[0] for label, _ in ARCHIVE_MODELS}
    leaves = MigrationLoader(None, ignore_no_migrations=True).graph.leaf_nodes()
    return {
        app: tuple(sorted(name for leaf_app, name in leaves if leaf_app == app))
        for app in sorted(archived_apps)
    }


@contextmanager
def one_snapshot() -> Iterator[None]:
    """Every read inside sees the database at one moment: on PostgreSQL a repeatable-read,
    read-only transaction (no lock, never waits for a writer); on SQLite a transaction (writers
    wait until the export is written). Inside a transaction already open nothing changes."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


# --- export --------------------------------------------------------------------------------------


def league_for_archive(*, league: str | int) -> League:
    """The league named by its address (slug) or id."""
    found = League.objects.filter(slug=str(league)).first()
    if found is None and str(league).isdigit():
        found = League.objects.filter(pk=int(league)).first()
    if found is None:
        raise NotFoundError(f"no league with the address or id {league!r}")
    return found


def rulebook_ids(league: League) -> set[int]:
    """The league's rulebooks, any shared one its seasons or hands use, and the versions each
    replaced."""
    rulebook = archive_model("league.rulebook")
    season, hand = archive_model("league.season"), archive_model("scoring.hand")
    ids = set(rulebook.objects.filter(league=league).values_list("pk", flat=True))
    ids |= set(season.objects.filter(league=league).values_list("rulebook_id", flat=True))
    ids |= set(
        hand.objects.filter(game__season__league=league)
        .values_list("rulebook_id", flat=True)
        .distinct()
    )
    while True:
        previous = set(
            rulebook.objects.filter(pk__in=ids, previous__isnull=False).values_list(
                "previous_id", flat=True
            )
        )
        if previous <= ids:
            return ids
        ids |= previous


def of_league(path: str, league_id: int) -> Q:
    """The rows whose ``path`` (``ARCHIVE_MODELS``'s; ``a|b`` for either) leads to the league."""
    condition = Q(pk__in=[])
    for one in path.split("|"):
        condition |= Q(**{one: league_id})
    return condition


def league_rows(league: League) -> list[tuple[str, object]]:
    """``(label, queryset)`` of every record kind of the league, in the archive's order, each
    ordered by id (accounts by username)."""
    rows = []
    for label, path in ARCHIVE_MODELS:
        if label == ACCOUNTS:
            continue
        model = archive_model(label)
        if label == "league.rulebook":
            queryset = model.objects.filter(pk__in=rulebook_ids(league))
        else:
            queryset = model.objects.filter(of_league(path, league.pk))
        references = account_references(model)
        if references:
            queryset = queryset.select_related(*references)
        rows.append((label, queryset.order_by("pk")))
    accounts = archive_model(ACCOUNTS)
    named = Q(pk__in=[])
    for label, queryset in rows:
        for reference in account_references(archive_model(label)):
            named |= Q(pk__in=queryset.order_by().values(f"{reference}_id"))
    rows.insert(0, (ACCOUNTS, accounts.objects.filter(named).order_by("username")))
    return rows


def league_export(*, league: str | int, stream: TextIO, passwords: bool = True) -> ArchiveHeader:
    """Write the archive of ``league`` (its address or id) to ``stream``; returns its header.

    ``passwords=False`` writes every account with an unusable password (the header says so):
    the archive then holds no password hashes, and organisers reset their passwords after an
    import."""
    with one_snapshot():
        found = league_for_archive(league=league)
        rows = league_rows(found)
        header = ArchiveHeader(
            league_slug=found.slug,
            league_name=found.name,
            schema=schema_now(),
            counts={label: queryset.count() for label, queryset in rows},
            passwords=passwords,
        )
        stream.write(header.as_line())
        for label, queryset in rows:
            objects: Iterable = queryset.iterator(chunk_size=CHUNK)
            if label == ACCOUNTS and not passwords:
                objects = without_passwords(objects)
            serializers.serialize(
                "jsonl",
                objects,
                stream=stream,
                fields=archived_fields(queryset.model),
                use_natural_foreign_keys=True,
                use_natural_primary_keys=label == ACCOUNTS,
                sort_keys=True,
                cls=ArchiveEncoder,
            )
    return header


def without_passwords(accounts: Iterable) -> Iterator:
    for account in accounts:
        account.password = UNUSABLE_PASSWORD
        yield account


@contextmanager
def archive_writer(path: str | os.PathLike) -> Iterator[TextIO]:
    """A text stream onto ``path`` (gzip-compressed when its name ends in ``.gz``, with no time
    or name in the gzip header, so the same league gives the same bytes). Written beside it and
    moved into place at the end: a failed export never leaves half an archive under the name."""
    path = Path(path)
    partial = path.with_name(path.name + ".partial")
    try:
        with open(partial, "wb") as raw:
            if path.name.endswith(".gz"):
                with (
                    gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as packed,
                    io.TextIOWrapper(packed, encoding="utf-8", newline="\n") as text,
                ):
                    yield text
            else:
                with io.TextIOWrapper(raw, encoding="utf-8", newline="\n") as text:
                    yield text
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


# --- import --------------------------------------------------------------------------------------


@dataclass
class ImportSummary:
    """What an import wrote."""

    league_slug: str
    league_name: str
    counts: dict[str, int] = field(default_factory=dict)
    accounts_created: list[str] = field(default_factory=list)
    accounts_linked: list[str] = field(default_factory=list)
    passwords: bool = True


@contextmanager
def archive_reader(path: str | os.PathLike) -> Iterator[Iterator[str]]:
    """The lines of the archive at ``path``, gzip-compressed or not."""
    with open(path, "rb") as raw:
        yield archive_lines(raw)


def archive_lines(raw: io.BufferedReader) -> Iterator[str]:
    """The lines of an archive read from the binary stream ``raw`` (gzip-compressed or not); a
    file that cannot be read as UTF-8 text or as gzip is a damaged archive."""
    source = gzip.GzipFile(fileobj=raw, mode="rb") if raw.peek(2)[:2] == GZIP_MAGIC else raw
    iterator = iter(io.TextIOWrapper(source, encoding="utf-8", newline="\n"))
    while True:
        try:
            line = next(iterator)
        except StopIteration:
            return
        except (UnicodeDecodeError, EOFError, OSError, zlib.error) as error:
            raise ArchiveError(f"the archive cannot be read: {error}") from None
        yield line


def known_migrations() -> set[tuple[str, str]]:
    return set(MigrationLoader(None, ignore_no_migrations=True).graph.nodes)


def database_is_migrated() -> bool:
    executor = MigrationExecutor(connection)
    return not executor.migration_plan(executor.loader.graph.leaf_nodes())


class Restorer:
    """Writes the deserialized rows of one archive, a chunk of one kind at a time, each chunk's
    ids checked free first; keeps the counts."""

    def __init__(self, header: ArchiveHeader, use_existing_accounts: bool):
        self.header = header
        self.use_existing_accounts = use_existing_accounts
        self.seen: Counter[str] = Counter()
        self.left_out: Counter[str] = Counter()  # read, counted against the header, not written
        self.summary = ImportSummary(
            league_slug=header.league_slug,
            league_name=header.league_name,
            passwords=header.passwords,
        )
        self.league: League | None = None
        self.last: str | None = None
        self.chunk: list = []
        self.rulebook_ids: list[int] = []
        self.line = 1

    def records(self, lines: Iterable[str]) -> Iterator[dict]:
        """The rows of the archive's lines as Django's serializers read them, each checked to be
        a row of a kind an archive holds, in the archive's order. The rows of a kind are written
        before the first row of the next kind is read, since it may name them (an account)."""
        for self.line, text in enumerate(lines, start=2):
            if not text.strip():
                continue
            try:
                record = json.loads(text)
            except ValueError as error:
                raise ArchiveError(
                    f"the archive is damaged at line {self.line}: {error}", code="archive_damaged"
                ) from None
            label = record.get("model") if isinstance(record, dict) else None
            if not isinstance(label, str):
                raise ArchiveError(
                    f"the archive is damaged at line {self.line}: not a row",
                    code="archive_damaged",
                )
            label = record["model"] = kind_upgraded(label, self.header.version)
            if record_left_out(label, record):
                self.left_out[label] += 1
                continue
            try:
                record_upgraded(label, record, self.header.version)
            except ArchiveError as error:
                raise ArchiveError(
                    f"the archive is damaged at line {self.line}: {error}", code=error.code
                ) from None
            record_kind_check(label, self.last)
            if label != self.last:
                self.flush()
                self.last = label
            yield record

    def add(self, deserialized) -> None:
        self.seen[self.last] += 1
        self.chunk.append(deserialized)
        if len(self.chunk) >= CHUNK:
            self.flush()

    def flush(self) -> None:
        chunk, self.chunk = self.chunk, []
        if not chunk:
            return
        if self.last == ACCOUNTS:
            self.write_accounts(chunk)
            return
        model = type(chunk[0].object)
        ids = [each.object.pk for each in chunk]
        if None in ids:
            raise ArchiveError(f"the archive is damaged: a row of {self.last} has no id")
        taken = sorted(model._meta.default_manager.filter(pk__in=ids).values_list("pk", flat=True))
        if taken:
            raise taken_ids_message(self.last, taken)
        if self.last == "league.rulebook":
            self.rulebook_ids += ids
        for each in chunk:
            if self.last == "league.league":
                self.check_league(each.object)
            each.save(save_m2m=False, force_insert=True)

    def check_league(self, league: League) -> None:
        if self.league is not None or league.slug != self.header.league_slug:
            raise ArchiveError(
                "the archive is damaged: its league row is not the league its header names "
                f"({league.slug!r}, header {self.header.league_slug!r})"
            )
        self.league = league

    def write_accounts(self, chunk) -> None:
        names = [each.object.get_username() for each in chunk]
        model = type(chunk[0].object)
        existing = set(
            model._meta.default_manager.filter(
                **{f"{model.USERNAME_FIELD}__in": names}
            ).values_list(model.USERNAME_FIELD, flat=True)
        )
        if existing and not self.use_existing_accounts:
            raise accounts_message(sorted(existing))
        for each in chunk:
            account = each.object
            name = account.get_username()
            if name in existing:
                self.summary.accounts_linked.append(name)
                continue
            # An archive moves a league, never rights on the site, whatever its lines say.
            account.is_staff = account.is_superuser = False
            each.save(save_m2m=False, force_insert=True)
            self.summary.accounts_created.append(name)

    def finish(self) -> None:
        self.flush()
        counts_check(self.header.counts, self.seen + self.left_out)
        self.check_rows_belong_to_the_league()
        self.summary.counts = {label: self.seen[label] for label, _ in ARCHIVE_MODELS}

    def check_rows_belong_to_the_league(self) -> None:
        """Every row imported belongs to the imported league: none joins another league of this
        database (a role, a hand, a seat…). The league is new here, so the rows of it are
        exactly the rows imported; a row pointing elsewhere makes its kind's count fall short."""
        for label, path in ARCHIVE_MODELS:
            if label == ACCOUNTS:
                continue
            model = archive_model(label)
            rows = model._meta.default_manager.all()
            if label == "league.rulebook":
                # The league's own rulebooks, and the shared ones (no league) its rows use.
                rows = rows.filter(pk__in=self.rulebook_ids)
                if rows.exclude(league=self.league).exclude(league__isnull=True).exists():
                    raise ArchiveError("the archive is damaged: it holds another league's rulebook")
                continue
            found = rows.filter(of_league(path, self.league.pk)).count()
            if found != self.seen[label]:
                raise ArchiveError(
                    f"the archive is damaged: {self.seen[label] - found} of its {label} rows "
                    "belong to another league of this database"
                )


def ids_after_the_imported(models) -> None:
    """New rows get ids after the imported ones: each table's id sequence is moved past its
    largest id, and never back (a row another transaction is writing keeps the id it took).
    SQLite's AUTOINCREMENT already never hands out an id below the largest one written."""
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            for statement in connection.ops.sequence_reset_sql(no_style(), models):
                cursor.execute(statement)
            return
        quote = connection.ops.quote_name
        for model in models:
            table, column = model._meta.db_table, model._meta.pk.column
            cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [quote(table), column])
            (sequence,) = cursor.fetchone()
            if sequence is None:
                continue
            cursor.execute(
                f"SELECT setval(%s::regclass, top) FROM (SELECT MAX({quote(column)}) AS top "
                f"FROM {quote(table)}) AS imported "
                "WHERE top > COALESCE(pg_sequence_last_value(%s::regclass), 0)",
                [sequence, sequence],
            )


def league_import(*, lines: Iterable[str], use_existing_accounts: bool = False) -> ImportSummary:
    """Restore the archive whose lines are ``lines`` into this database, in one transaction, or
    write nothing and raise a :class:`~core.errors.DomainError` that says why.

    ``use_existing_accounts``: an account of the archive whose username exists here is that
    account (unchanged: its password and rights here are kept), instead of a refusal."""
    lines = iter(lines)
    first = next(lines, None)
    if first is None or not first.strip():
        raise ArchiveError("the archive is empty (not even its header line)")
    header = header_parse(first)
    problem = schema_problem(header.schema, known_migrations())
    if problem:
        raise ArchiveError(problem, code="archive_too_new")
    if not database_is_migrated():
        raise ArchiveError(
            "this database is not migrated to this program's schema: run manage.py migrate, "
            "then import again",
            code="not_migrated",
        )
    restorer = Restorer(header, use_existing_accounts)
    try:
        with transaction.atomic():
            if League.objects.filter(slug=header.league_slug).exists():
                raise ConflictError(
                    f"a league with the address {header.league_slug!r} already exists in this "
                    "database; import into a database without it (delete or rename it first)",
                    code="league_exists",
                )
            for deserialized in serializers.deserialize(
                "python", restorer.records(lines), handle_forward_references=False
            ):
                restorer.add(deserialized)
            restorer.finish()
            models = [archive_model(label) for label, _ in ARCHIVE_MODELS]
            connection.check_constraints(table_names=[model._meta.db_table for model in models])
            ids_after_the_imported(models)
    except DeserializationError as error:
        cause = str(error) or str(error.__cause__)
        raise ArchiveError(
            f"the archive is damaged at line {restorer.line}: {cause}", code="archive_damaged"
        ) from None
    except IntegrityError as error:
        raise ConflictError(
            f"the archive's rows do not fit this database (near line {restorer.line}): {error}",
            code="rows_conflict",
        ) from None
    except DatabaseError as error:
        raise ArchiveError(
            f"the archive's rows cannot be stored (near line {restorer.line}): {error}",
            code="archive_damaged",
        ) from None
    return restorer.summary
