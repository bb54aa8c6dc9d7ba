"""A league archive: one file that holds a whole league, to back it up or to move it to another
database (``manage.py league_export`` / ``league_import``, ``tournaments.services.archive``).

Words used here:

- *archive*: a JSON Lines file (UTF-8, one JSON object a line). The first line is the *header*;
  every other line is one stored row, exactly as Django's ``jsonl`` serializer writes it
  (``{"model": "scoring.hand", "pk": 17, "fields": {…}}``), keys sorted, so the same league
  always gives the same bytes. Rows keep their ids (links, QR codes and the ids inside JSON
  fields stay valid); accounts are written by their username (Django's natural keys), without
  an id, and every reference to an account is its ``[username]``. A name ending in ``.gz`` is
  the same file compressed with gzip.
- *record kinds*: the models in the archive, in the order they are written and read
  (:data:`ARCHIVE_MODELS`): what a row refers to comes before it, but for a hand's
  ``replaced_by`` (a later hand) and a rulebook's ``previous``, which the database checks at the
  end of the import.
- *format version* (:data:`ARCHIVE_VERSION`): what the lines mean. A reader reads every version up
  to its own and refuses a newer one.
- *schema*: the newest migration of each app whose rows are in the archive, as the program that
  wrote it knew them. A reader that does not know one of them is older than the archive's writer
  (its models may lack a field the archive has) and refuses; a newer reader fills the fields the
  archive lacks with their defaults.
- *counts*: how many rows of each kind the header promises; a file with fewer lines was cut short.

Versions: 1 is the first. 2 names the standings' kinds by the app that holds them since games and
standings became two apps (``standings.standingsnapshot``, ``standings.standingline``,
``standings.standinggame``; ``scoring.…`` in version 1): :data:`KINDS_RENAMED` is the step, and a
version 1 archive imports through it. 3 keeps a stats line's partner and opponent records as
numbers (``scoring.standings.domain.stats.PAIR_STORED_FIELDS``; objects before, as the API shows
them): :func:`record_upgraded` is the step.

What a future version must do. Bump :data:`ARCHIVE_VERSION` when a line's
meaning changes in a way a migration's defaults do not cover: a model added to or removed from
:data:`ARCHIVE_MODELS`, a field removed or renamed, a new field that has no default, a value or a
JSON field's shape read differently, accounts written another way. With the bump, write the step
that turns a record (and the header) of the version before into one of the new version, and have
the reader run every older archive's lines through the chain of steps before Django's
deserializer sees them (``header_parse`` accepts the older versions it can upgrade); keep the
archive of each old version among the tests (``tests/archive/``) importing. Never reuse a
version number. A kind added whose rows an older archive simply lacks, and whose absence means
what a missing row means in the database (a season without money rules has the default ones:
``tournaments.seasonmoney``; a night without table cards makes them when its tents are first
printed: ``tournaments.tablecard``; a player without email consents gets no email:
``league.emailconsent``; a night without sent emails sends them again:
``tournaments.nightemail``; a round without a clock was played untimed:
``tournaments.roundclock``), needs no bump: an older archive reads as holding none of them.

Pure Python: the service turns rows into lines and back with Django's serializers.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from core.errors import ConflictError, DomainError
from scoring.standings.domain.stats import STATS_LINE_KINDS, stats_line_stored

ARCHIVE_FORMAT = "euchre-league-archive"
"""The header's ``format``: what says this file is a league archive at all."""

ARCHIVE_VERSION = 3
"""The format version this program writes, and the newest it reads."""

KINDS_RENAMED: dict[int, dict[str, str]] = {
    1: {
        "scoring.standingsnapshot": "standings.standingsnapshot",
        "scoring.standingline": "standings.standingline",
        "scoring.standinggame": "standings.standinggame",
    },
}
"""The step from each older format version to the next: record kinds renamed."""


LEFT_OUT: dict[str, tuple[str, frozenset[str]]] = {
    "standings.standingline": ("kind", frozenset({"standing"})),
}
"""Rows an older archive may hold that this program no longer stores, by kind: the field and
its values that mark them. A standings row's own line: the rows live in the snapshot alone since
``standings.0003``. Such a row is read and counted (the header promised it), never written."""


def record_left_out(label: str, record: dict) -> bool:
    """Whether a record of kind ``label`` is one this program no longer stores (``LEFT_OUT``)."""
    if label not in LEFT_OUT:
        return False
    name, values = LEFT_OUT[label]
    fields = record.get("fields")
    return isinstance(fields, dict) and fields.get(name) in values


PAIRS_AS_NUMBERS = 3
"""The version from which a stats line's pair records are numbers (``standings.0004``)."""


def record_upgraded(label: str, record: dict, version: int) -> None:
    """Turn a record of kind ``label`` (as this program names it) of a ``version`` archive into
    one of this version, in place: a stats line's pair records become numbers."""
    if version >= PAIRS_AS_NUMBERS or label != "standings.standingline":
        return
    fields = record.get("fields")
    if not isinstance(fields, dict) or fields.get("kind") not in STATS_LINE_KINDS:
        return
    data = fields.get("data")
    if isinstance(data, dict):
        try:
            fields["data"] = stats_line_stored(data)
        except (KeyError, TypeError) as error:
            raise ArchiveError(
                f"a stats line's records are damaged ({error})", code="archive_damaged"
            ) from None


def kind_upgraded(label: str, version: int) -> str:
    """A record kind of a ``version`` archive as this program names it."""
    for step in range(version, ARCHIVE_VERSION):
        label = KINDS_RENAMED.get(step, {}).get(label, label)
    return label


ACCOUNTS = "auth.user"
"""The record kind of accounts (the organisers' and everyone the league's rows name)."""

ACCOUNT_FIELDS = (
    "username",
    "first_name",
    "last_name",
    "email",
    "password",
    "is_active",
    "date_joined",
)
"""What the archive keeps of an account: enough to sign in as before. Its rights on the site
(staff, superuser, groups, permissions), its last login and its API tokens stay behind: an
archive moves a league, not the site's administration."""

ARCHIVE_MODELS: tuple[tuple[str, str], ...] = (
    (ACCOUNTS, ""),
    ("league.league", "pk"),
    ("league.leaguerole", "league"),
    ("league.invitation", "league"),
    ("league.rulebook", "league"),
    ("league.season", "league"),
    ("league.player", "league"),
    ("league.emailconsent", "player__league"),
    ("league.team", "season__league"),
    ("league.night", "season__league"),
    ("league.attendance", "night__season__league"),
    ("league.selfcheckin", "night__season__league"),
    ("league.rsvp", "night__season__league"),
    ("tournaments.tablecard", "night__season__league"),
    ("tournaments.nightemail", "night__season__league"),
    ("tournaments.teamschedule", "season__league"),
    ("tournaments.seasonmoney", "season__league"),
    ("tournaments.nightplan", "night__season__league"),
    ("tournaments.plannedround", "plan__night__season__league"),
    ("tournaments.seat", "round__plan__night__season__league"),
    ("scoring.game", "season__league"),
    ("scoring.hand", "game__season__league"),
    ("scoring.resultchange", "season__league"),
    ("tournaments.bracket", "season__league"),
    ("tournaments.bracketentry", "bracket__season__league"),
    ("tournaments.bracketmatch", "bracket__season__league"),
    ("tournaments.bracketmatchgame", "match__bracket__season__league"),
    ("tournaments.bracketcorrection", "bracket__season__league"),
    ("tournaments.roundclock", "night__season__league|bracket__season__league"),
    ("standings.standingsnapshot", "season__league"),
    ("standings.standingline", "season__league"),
    ("standings.standinggame", "season__league"),
    ("league.auditentry", "league"),
)
"""Every record kind, in the archive's order, with the lookup from a row to its league (``a|b``:
either path, for a row that belongs to a night or to a bracket; accounts belong to no league:
they are the ones the league's rows name). Rulebooks are the league's own,
and any shared one (no league) a season or a hand of the league uses.

The standings (snapshots, their lines and the games they counted) are kept although a recompute
could rebuild them: a restored league shows its standings, playoff race and projections at once,
exactly as before, and the next hand folds into them as it would have; they are consistent only
together with the seasons' ``results_version`` and the pending result changes, which are kept
too, so the sweep finds after a restore exactly the work it would have found before."""

LEFT_BEHIND: frozenset[str] = frozenset({"league.apitoken"})
"""Record kinds of the league apps that no archive holds: an organiser's API tokens belong to the
account on this site, not to a league (like the account's rights, see :data:`ACCOUNT_FIELDS`)."""

MODEL_ORDER = {label: index for index, (label, _) in enumerate(ARCHIVE_MODELS)}


class ArchiveError(DomainError):
    """The file is not an archive this program can import, or is damaged."""

    code = "archive"


@dataclass(frozen=True)
class ArchiveHeader:
    """The archive's first line."""

    league_slug: str
    league_name: str
    schema: Mapping[str, tuple[str, ...]]
    counts: Mapping[str, int]
    passwords: bool = True
    version: int = ARCHIVE_VERSION
    format: str = field(default=ARCHIVE_FORMAT)

    def as_line(self) -> str:
        """The header as the archive's first line (keys sorted, a newline at the end)."""
        document = {
            "format": self.format,
            "version": self.version,
            "league": {"slug": self.league_slug, "name": self.league_name},
            "schema": {app: list(names) for app, names in sorted(self.schema.items())},
            "counts": {label: self.counts.get(label, 0) for label, _ in ARCHIVE_MODELS},
            "passwords": "hashed" if self.passwords else "removed",
        }
        return json.dumps(document, sort_keys=True, ensure_ascii=False) + "\n"


def header_parse(line: str) -> ArchiveHeader:
    """The header of an archive from its first line, or why the file is not one this program
    reads: not an archive at all, a damaged header, or a newer format version."""
    not_an_archive = ArchiveError(
        "this file is not a league archive (it should start with a line naming the format "
        f"{ARCHIVE_FORMAT!r}; make one with manage.py league_export)"
    )
    try:
        document = json.loads(line)
    except ValueError:
        raise not_an_archive from None
    if not isinstance(document, dict) or document.get("format") != ARCHIVE_FORMAT:
        raise not_an_archive
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ArchiveError(f"the archive's header is damaged: version {version!r}")
    if version > ARCHIVE_VERSION:
        raise ArchiveError(
            f"the archive is format version {version}, newer than this program reads "
            f"(up to {ARCHIVE_VERSION}): import it with the version of the program that wrote it, "
            "or a later one",
            code="archive_too_new",
        )
    try:
        league = document["league"]
        schema = {
            str(app): tuple(str(name) for name in names)
            for app, names in document["schema"].items()
        }
        counts = {
            kind_upgraded(str(label), version): int(count)
            for label, count in document["counts"].items()
        }
        if document["passwords"] not in ("hashed", "removed"):
            raise ValueError(f"passwords {document['passwords']!r}")
        header = ArchiveHeader(
            league_slug=str(league["slug"]),
            league_name=str(league["name"]),
            schema=schema,
            counts=counts,
            passwords=document["passwords"] == "hashed",
            version=version,
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ArchiveError(f"the archive's header is damaged: {error!r}") from None
    unknown = sorted(set(counts) - set(MODEL_ORDER))
    if unknown:
        raise ArchiveError(f"the archive's header names unknown kinds of rows: {unknown}")
    if any(count < 0 for count in counts.values()) or counts.get("league.league") != 1:
        raise ArchiveError("the archive's header is damaged: it must hold exactly one league")
    return header


def schema_problem(
    schema: Mapping[str, tuple[str, ...]], known: set[tuple[str, str]]
) -> str | None:
    """Why an archive written under ``schema`` cannot be read by a program that knows the
    migrations ``known`` (``(app, name)``), or ``None`` when it can."""
    missing = sorted(
        f"{app}.{name}"
        for app, names in schema.items()
        for name in names
        if (app, name) not in known
    )
    if not missing:
        return None
    return (
        "the archive was written by a newer version of this program (it knows the migrations "
        f"{', '.join(missing)}, this one does not): upgrade this installation, migrate, and "
        "import again"
    )


def record_kind_check(label: str, last: str | None) -> None:
    """A record of kind ``label`` may follow one of kind ``last``: a known kind, in the
    archive's order."""
    if label not in MODEL_ORDER:
        raise ArchiveError(f"the archive holds a row of {label!r}, which no league archive holds")
    if last is not None and MODEL_ORDER[label] < MODEL_ORDER[last]:
        raise ArchiveError(
            f"the archive is damaged: a row of {label} after the rows of {last} (out of order)"
        )


def counts_check(promised: Mapping[str, int], seen: Mapping[str, int]) -> None:
    """The rows read are exactly those the header promised, or the archive was cut short (or
    lines were added to it)."""
    wrong = [
        f"{seen.get(label, 0)} of {promised.get(label, 0)} {label}"
        for label, _ in ARCHIVE_MODELS
        if seen.get(label, 0) != promised.get(label, 0)
    ]
    if wrong:
        raise ArchiveError(
            "the archive is incomplete or was changed: its header promises other numbers of rows "
            f"than it holds ({'; '.join(wrong)}); was it cut short?",
            code="archive_incomplete",
        )


def taken_ids_message(label: str, ids: list) -> ConflictError:
    """The refusal when rows of the archive already exist in the database."""
    shown = ", ".join(str(pk) for pk in ids[:10]) + (" …" if len(ids) > 10 else "")
    return ConflictError(
        f"rows of the archive already exist in this database ({label} with id {shown}); "
        "a league is imported into a database that does not hold it, e.g. an empty one",
        code="rows_exist",
    )


def accounts_message(usernames: list[str]) -> ConflictError:
    """The refusal when accounts of the archive already exist (and may be someone else's)."""
    shown = ", ".join(sorted(usernames))
    return ConflictError(
        f"accounts of the archive already exist in this database: {shown}. If they are the same "
        "people, import with --use-existing-accounts (their passwords and rights here are kept); "
        "otherwise rename those accounts first",
        code="accounts_exist",
    )
