"""Reads for the standings and the public pages (services write; selectors read): leagues and
seasons as the public sees them, a season's snapshot and its lines, the versions cached pages are
keyed on, a night's stakes in the playoff race."""

from django.db.models import OuterRef, Subquery

from scoring.games.models import Game
from scoring.games.selectors import results_version_expression
from scoring.standings.domain.stats import stats_line_shown
from scoring.standings.models import StandingLine


def line_shown(kind: str, data):
    """A stored line of ``kind`` as the API and the pages show it: a stats line's pair records
    as objects (``stats_line_shown``); any other line as stored."""
    return stats_line_shown(data) if kind in StandingLine.STATS_KINDS and data else data


# --------------------------------------------------------------------------------------------
# Public reads: leagues, seasons, snapshots, nights, players and teams (no login; read only)
def league_public_list():
    """Every league, by name, with its number of seasons."""
    from django.db.models import Count

    from league.models import League

    return League.objects.annotate(season_count=Count("seasons")).order_by("name")


def league_public_get(*, slug: str):
    """A league by its slug, or ``NotFoundError``."""
    from core.errors import NotFoundError
    from league.models import League

    league = League.objects.filter(slug=slug).first()
    if league is None:
        raise NotFoundError("no such league")
    return league


def season_public_get(*, league, season_id: int):
    """A season of ``league`` with its snapshot loaded (``snapshot`` may be absent)."""
    from core.errors import NotFoundError
    from league.models import Season

    season = (
        Season.objects.not_archived()
        .filter(league=league, pk=season_id)
        .select_related("rulebook")
        .first()
    )
    if season is None:
        raise NotFoundError("no such season in this league")
    return season


def season_snapshot_get(*, season):
    """The season's standings snapshot, or ``None`` before any game has finished."""
    from scoring.standings.models import StandingSnapshot

    return StandingSnapshot.objects.filter(season=season).first()


def season_standings_head(*, season):
    """The season's snapshot with its version and time, ``standings_meta`` (the standings but
    their rows: the tie-break chain, the seed...) and ``rows``, the standings rows as a
    :class:`StandingsRows` read a slice at a time; or ``None``. Never the stats, ratings, nights
    or race (megabytes in a large season), and on PostgreSQL not the whole rows either."""
    from django.db import connection
    from django.db.models import IntegerField, JSONField
    from django.db.models.expressions import RawSQL

    from scoring.standings.models import StandingSnapshot

    fields = ("season_id", "results_version", "computed_at")
    snapshots = StandingSnapshot.objects.filter(season=season)
    if connection.vendor != "postgresql":
        snapshot = snapshots.only(*fields, "standings").first()
        if snapshot is not None:
            rows = snapshot.standings.get("rows", [])
            snapshot.standings_meta = {k: v for k, v in snapshot.standings.items() if k != "rows"}
            snapshot.rows = StandingsRows(snapshot.pk, len(rows), rows)
        return snapshot
    snapshot = (
        snapshots.only(*fields)
        .annotate(
            standings_meta=RawSQL("standings - 'rows'", [], output_field=JSONField()),
            row_count=RawSQL(
                "COALESCE(jsonb_array_length(standings -> 'rows'), 0)",
                [],
                output_field=IntegerField(),
            ),
        )
        .first()
    )
    if snapshot is not None:
        snapshot.rows = StandingsRows(snapshot.pk, snapshot.row_count)
    return snapshot


class StandingsRows:
    """A snapshot's standings rows as a sequence of ``count`` rows of which a slice is read at
    a time (as the API's paginator asks): on PostgreSQL the database cuts the slice out of the
    stored standings, so a page of a large season decodes its own rows only (a 1M-hand
    season's rows are 0.7 MB of JSON). ``rows``: the rows already read."""

    def __init__(self, snapshot_pk: int, count: int, rows: list | None = None) -> None:
        self.snapshot_pk, self.count, self.rows = snapshot_pk, count, rows

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index: slice) -> list[dict]:
        if self.rows is not None:
            return self.rows[index]
        start, stop, step = index.indices(self.count)
        if stop <= start:
            return []
        from django.db.models import JSONField
        from django.db.models.expressions import RawSQL

        from scoring.standings.models import StandingSnapshot

        page = RawSQL(
            "jsonb_path_query_array(standings, '$.rows[$a to $b]', "
            "jsonb_build_object('a', %s, 'b', %s))",
            [start, stop - 1],
            output_field=JSONField(),
        )
        rows = (
            StandingSnapshot.objects.filter(pk=self.snapshot_pk)
            .annotate(page=page)
            .values_list("page", flat=True)
            .first()
        )
        return (rows or [])[::step]


def season_lines(*, season_id: int, kind: str, entrant_ids) -> list[dict]:
    """The stored lines (``StandingLine.data``) of one kind for some entrants of a season, in the
    order of ``entrant_ids`` (an entrant with no line is left out)."""
    order = {entrant: index for index, entrant in enumerate(entrant_ids)}
    found = StandingLine.objects.filter(
        season_id=season_id, kind=kind, entrant_id__in=list(order)
    ).values_list("entrant_id", "data")
    return [
        line_shown(kind, data) for _entrant, data in sorted(found, key=lambda pair: order[pair[0]])
    ]


def season_all_lines(*, season_id: int, kind: str) -> list[dict]:
    """Every stored line of one kind in a season, in entrant order: e.g. every player's stats,
    as the engines list them (``scoring.standings.domain.stats.player_stats``). Tens of megabytes in
    a large season: for exports, checks and benchmarks, never a page."""
    lines = (
        StandingLine.objects.filter(season_id=season_id, kind=kind)
        .order_by("entrant_id")
        .values_list("data", flat=True)
    )
    return [line_shown(kind, data) for data in lines]


def player_lines(*, season_ids, player_id: int) -> dict[int, dict[str, dict]]:
    """One player's stored lines in some seasons: ``{season_id: {kind: data}}`` (two queries),
    and in an individual season its standings row (``standing``, from the snapshot: a team
    season's rows are its teams')."""
    from league.models import Season

    found: dict[int, dict[str, dict]] = {}
    rows = StandingLine.objects.filter(season_id__in=list(season_ids), entrant_id=player_id)
    rows = rows.exclude(kind=StandingLine.Kind.TEAM)
    for season_id, kind, data in rows.values_list("season_id", "kind", "data"):
        found.setdefault(season_id, {})[kind] = line_shown(kind, data)
    individual = Season.objects.filter(pk__in=list(season_ids), format=Season.Format.INDIVIDUAL)
    rows = standing_rows_of(season_ids=individual.values("pk"), entrant_id=player_id)
    for season_id, row in rows.items():
        found.setdefault(season_id, {})["standing"] = row
    return found


def standing_rows_of(*, season_ids, entrant_id: int) -> dict[int, dict]:
    """One entrant's (a player's or a team's) row of the standings in some seasons' snapshots:
    ``{season_id: row}``, a season without a row for it left out. On PostgreSQL the database
    finds the row in the stored standings, so only that row is decoded (a 1M-hand season's rows
    are 0.7 MB of JSON); elsewhere (the embedded default, small leagues) each snapshot's rows are
    read and searched."""
    from django.db import connection
    from django.db.models import JSONField
    from django.db.models.expressions import RawSQL

    from scoring.standings.models import StandingSnapshot

    snapshots = StandingSnapshot.objects.filter(season_id__in=season_ids)
    if connection.vendor != "postgresql":
        return {
            season_id: row
            for season_id, standings in snapshots.values_list("season_id", "standings")
            for row in standings.get("rows", ())
            if row["entrant"] == entrant_id
        }
    row = RawSQL(
        "jsonb_path_query_first(standings, '$.rows[*] ? (@.entrant == $e)', "
        "jsonb_build_object('e', %s))",
        [entrant_id],
        output_field=JSONField(),
    )
    found = snapshots.annotate(row=row).values_list("season_id", "row")
    return {season_id: row for season_id, row in found if row is not None}


def season_page_versions(
    *, season_id: int
) -> tuple[int, int | None, int | None, str | None, int | None]:
    """``(results_version, snapshot results_version, race_version, race_games, newest game)``:
    one query, for the keys of cached pages that show the playoff race (it is stored after the
    snapshot, and worked out again, at the same version, when the season's games still to play
    change) and the games being played (a round started creates games before any result: the
    id of the season's newest game, read from its ``game_season_newest`` index)."""
    from league.models import Season

    newest = (
        Game.objects.filter(season_id=OuterRef("pk")).order_by("-created_at", "id").values("pk")[:1]
    )
    found = (
        Season.objects.filter(pk=season_id)
        .annotate(version=results_version_expression(), newest_game=Subquery(newest))
        .values_list(
            "version",
            "snapshot__results_version",
            "snapshot__race_version",
            "snapshot__race_games",
            "newest_game",
        )
        .first()
    )
    return found if found is not None else (0, None, None, None, None)


def night_race_stakes(*, night) -> list[dict]:
    """The night's coming games that the season's playoff race weighed, the most at stake first,
    each with a ``sentence`` ("decides a playoff place"); empty when the race is not worked out
    or is behind the standings."""
    from scoring.standings.domain.race import stake_sentence
    from scoring.standings.models import StandingSnapshot

    snapshot = (
        StandingSnapshot.objects.filter(season_id=night.season_id)
        .only("results_version", "race_version", "race")
        .first()
    )
    if snapshot is None or snapshot.race_version != snapshot.results_version:
        return []
    race = snapshot.race or {}
    if race.get("status") != "ok":
        return []
    return [
        {**stake, "sentence": stake_sentence(stake["leverage"])}
        for stake in race.get("stakes", [])
        if stake["night"] == night.pk
    ]
