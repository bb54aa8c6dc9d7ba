"""Creating a bracket: seeding it (from the standings or by hand), checking its options, writing
its entries and matches as a draft, reseeding the draft, and publishing it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from core.errors import ConflictError, DomainError
from league.access import require_league_organiser
from league.domain.words import ordinal
from league.models import Night, Season, Team
from scoring.standings.domain.standings.plain import short_reasons
from scoring.standings.models import StandingSnapshot
from scoring.standings.services.recompute import season_standings_recompute
from tournaments.domain.brackets import play, structure_as_dict
from tournaments.domain.swiss import SwissEntry, swiss_pairings
from tournaments.models import Bracket, BracketEntry, BracketMatch
from tournaments.selectors.bracket_structure import bracket_structure, structure_from_options
from tournaments.selectors.season_progress import season_progress
from tournaments.services.brackets.advance import bracket_reconcile
from tournaments.services.brackets.loaded import bracket_load
from tournaments.services.brackets.swiss import swiss_round_matches
from tournaments.services.locks import bracket_lock

SUPPORTED_KINDS = (
    Bracket.Kind.SINGLE,
    Bracket.Kind.DOUBLE,
    Bracket.Kind.ROUND_ROBIN,
    Bracket.Kind.POOLS,
    Bracket.Kind.SWISS,
)


@dataclass(frozen=True)
class Seeding:
    """Teams in seed order, each with its standing (rank, reason and the reason in a few plain
    words) when seeded from one; the cut note likewise, in full and short."""

    teams: list[Team]
    ranks: list[int | None]
    reasons: list[str]
    short_reasons: list[str]
    cut_note: str = ""
    cut_note_short: str = ""


@dataclass(frozen=True)
class SeedCandidate:
    """A ranked team of the standings, not withdrawn, as seeding from the standings reads it:
    its rank, its reason and the reason in a few plain words."""

    team: Team
    rank: int
    reason: str
    short_reason: str


def standings_seed_candidates(*, season: Season) -> list[SeedCandidate] | None:
    """The season's ranked teams (withdrawn ones left out) in the order of its stored standings,
    the order seeding from the standings takes them; ``None`` while no game has finished."""
    snapshot = StandingSnapshot.objects.filter(season=season).first()
    if snapshot is None or not any(row["games"] for row in snapshot.standings["rows"]):
        return None
    teams = {team.pk: team for team in season.teams.filter(is_withdrawn=False)}
    standings = snapshot.standings
    shorts = short_reasons(standings["rows"], standings["tiebreaks"])
    return [
        SeedCandidate(teams[row["entrant"]], row["rank"], row["reason"], short)
        for row, short in zip(standings["rows"], shorts, strict=True)
        if row["rank"] is not None and row["entrant"] in teams
    ]


def seeding_from_standings(*, season: Season, team_count: int) -> Seeding:
    """The top ``team_count`` teams of the season's current standings, and why the cut falls
    where it does (from the standings rows' own reasons, in full and in a few plain words)."""
    season_standings_recompute(season_id=season.pk)
    rows = standings_seed_candidates(season=season)
    if rows is None:
        raise DomainError(
            "This season has no standings yet (no game has finished): set the seeds by hand.",
            field="seeding",
        )
    if team_count < 2:
        raise DomainError("A bracket needs at least 2 teams.", field="team_count")
    if len(rows) < team_count:
        raise DomainError(
            f"Only {len(rows)} teams are ranked in the standings: fewer than {team_count}.",
            field="team_count",
        )
    chosen = rows[:team_count]
    cut_note = cut_note_short = ""
    if len(rows) > team_count:
        last_in, first_out = rows[team_count - 1], rows[team_count]
        cut_note = (
            f"The cut falls after {ordinal(team_count)}: {last_in.team.name} is in, "
            f"{first_out.team.name} ({ordinal(first_out.rank)}) is out: {first_out.reason}."
        )
        cut_note_short = f"{first_out.team.name} is out: {first_out.short_reason}"
    return Seeding(
        teams=[row.team for row in chosen],
        ranks=[row.rank for row in chosen],
        reasons=[row.reason for row in chosen],
        short_reasons=[row.short_reason for row in chosen],
        cut_note=cut_note,
        cut_note_short=cut_note_short,
    )


def seeding_by_hand(*, season: Season, teams: Sequence[Team | int]) -> Seeding:
    """Teams in the order given (seed 1 first): each a team of ``season``, once, not withdrawn."""
    ids = [team.pk if isinstance(team, Team) else int(team) for team in teams]
    if len(set(ids)) != len(ids):
        raise DomainError("Each team can have only one seed.", field="teams")
    found = {team.pk: team for team in season.teams.filter(pk__in=ids)}
    for team_id in ids:
        team = found.get(team_id)
        if team is None:
            raise DomainError(f"Team #{team_id} is not a team of this season.", field="teams")
        if team.is_withdrawn:
            raise DomainError(f"{team} has withdrawn from the season.", field="teams")
    if len(ids) < 2:
        raise DomainError("A bracket needs at least 2 teams.", field="teams")
    return Seeding(
        teams=[found[team_id] for team_id in ids],
        ranks=[None] * len(ids),
        reasons=[""] * len(ids),
        short_reasons=[""] * len(ids),
    )


def _check_options(
    *,
    kind,
    best_of,
    third_place,
    grand_final_reset,
    cycles,
    pool_count=0,
    advancing_per_pool=0,
    swiss_rounds=0,
) -> None:
    if kind not in Bracket.Kind.values:
        raise DomainError(f"The kind is one of: {', '.join(Bracket.Kind.values)}.", field="kind")
    if best_of not in (1, 3, 5):
        raise DomainError("A match is one game, best of 3 or best of 5.", field="best_of")
    if third_place and kind not in (Bracket.Kind.SINGLE, Bracket.Kind.POOLS):
        raise DomainError("A third-place match is for single elimination.", field="third_place")
    if grand_final_reset and kind != Bracket.Kind.DOUBLE:
        raise DomainError(
            "A grand final reset is for double elimination.", field="grand_final_reset"
        )
    round_robins = (Bracket.Kind.ROUND_ROBIN, Bracket.Kind.POOLS)
    if cycles not in (1, 2) or (cycles == 2 and kind not in round_robins):
        raise DomainError(
            "Only a round robin (or pools) is played once or twice (cycles).", field="cycles"
        )
    if kind == Bracket.Kind.POOLS:
        if pool_count < 1:
            raise DomainError("Say how many pools (1 or more).", field="pool_count")
        if advancing_per_pool < 1:
            raise DomainError(
                "Say how many teams of each pool go through (1 or more).",
                field="advancing_per_pool",
            )
    elif pool_count or advancing_per_pool:
        raise DomainError("Pools are for a pools-then-knockout bracket.", field="pool_count")
    if kind == Bracket.Kind.SWISS:
        if swiss_rounds < 1:
            raise DomainError(
                "Say how many Swiss rounds to play (1 or more).", field="swiss_rounds"
            )
    elif swiss_rounds:
        raise DomainError("Rounds are set for Swiss brackets only.", field="swiss_rounds")


def _check_swiss_rounds(rounds: int, team_count: int) -> None:
    """Each team meets a different opponent every round: ``n − 1`` rounds at most (``n`` when
    ``n`` is odd, each team sitting out once)."""
    most = team_count - 1 + team_count % 2
    if rounds > most:
        raise DomainError(
            f"{team_count} teams can play at most {most} Swiss rounds without a rematch.",
            field="swiss_rounds",
        )


def _write_entries_and_matches(bracket: Bracket, seeding: Seeding) -> None:
    BracketEntry.objects.bulk_create(
        BracketEntry(
            bracket=bracket,
            seed=seed,
            team=team,
            standing_rank=rank,
            standing_reason=reason[:300],
            standing_reason_short=short[:120],
        )
        for seed, (team, rank, reason, short) in enumerate(
            zip(seeding.teams, seeding.ranks, seeding.reasons, seeding.short_reasons, strict=True),
            start=1,
        )
    )
    structure = bracket_structure(bracket, len(seeding.teams))
    team_of = dict(enumerate(seeding.teams, start=1))
    if structure is None:  # Swiss: round 1 is paired from the seeds
        first = swiss_pairings([SwissEntry(team=seed, score=0) for seed in team_of])
        BracketMatch.objects.bulk_create(swiss_round_matches(bracket, first, 1, 0, team_of))
        return
    state = play(structure, {})

    def team(occupant) -> Team | None:
        return team_of.get(occupant) if isinstance(occupant, int) else None

    BracketMatch.objects.bulk_create(
        [
            BracketMatch(
                bracket=bracket,
                first_team=team(state.matches[described["code"]].first),
                second_team=team(state.matches[described["code"]].second),
                status=str(state.matches[described["code"]].status),
                code=described["code"],
                order=order,
                part=described["bracket"],
                round=described["round"],
                pool=described["pool"] or "",
                first_slot=described["slots"][0],
                second_slot=described["slots"][1],
                is_bye=described["is_bye"],
                reset_of=described["reset_of"] or "",
                winner_place=described["winner_place"],
                loser_place=described["loser_place"],
            )
            for order, described in enumerate(structure_as_dict(structure)["matches"])
        ],
        batch_size=500,
    )


def bracket_create(
    *,
    season: Season,
    user,
    kind: str,
    name: str = "",
    team_count: int | None = None,
    teams: Sequence[Team | int] | None = None,
    best_of: int = 1,
    third_place: bool = False,
    grand_final_reset: bool = False,
    cycles: int = 1,
    pool_count: int = 0,
    advancing_per_pool: int = 0,
    swiss_rounds: int = 0,
    confirm_unfinished: bool = False,
) -> Bracket:
    """A draft bracket of a team season, seeded from the standings (the top ``team_count``) or by
    hand (``teams`` in seed order). Nothing is played until it is published.

    Seeding from the standings before the season is complete (nights left, games being played or
    not started: :func:`tournaments.selectors.season_progress.season_progress`) is refused with
    what is unfinished (409 ``season_unfinished``) unless ``confirm_unfinished`` says the organiser
    read that and seeds from the standings as they are.

    Pools: ``pool_count`` pools, the top ``advancing_per_pool`` of each into a single-elimination
    knockout (with ``third_place`` if asked). Swiss: ``swiss_rounds`` rounds, the first paired
    from the seeds (1 v n/2 + 1 …)."""
    require_league_organiser(user=user, league_id=season.league_id)
    if season.format != Season.Format.TEAMS:
        raise DomainError("Brackets are for team seasons (fixed partnerships).", field="season")
    _check_options(
        kind=kind,
        best_of=best_of,
        third_place=third_place,
        grand_final_reset=grand_final_reset,
        cycles=cycles,
        pool_count=pool_count,
        advancing_per_pool=advancing_per_pool,
        swiss_rounds=swiss_rounds,
    )
    if (teams is None) == (team_count is None):
        raise DomainError(
            "Seed from the standings (a number of teams) or by hand (the teams in order).",
            field="seeding",
        )
    if teams is not None:
        seeding = seeding_by_hand(season=season, teams=teams)
    else:
        progress = season_progress(season=season)
        if not progress.is_complete and not confirm_unfinished:
            raise ConflictError(
                f"The season is not finished: {progress.words()}. Seeds from the standings now "
                "may not be the final ones: confirm to seed from the standings as they are.",
                code="season_unfinished",
            )
        seeding = seeding_from_standings(season=season, team_count=team_count)
    structure_from_options(  # size errors
        kind,
        len(seeding.teams),
        third_place,
        grand_final_reset,
        cycles,
        pool_count,
        advancing_per_pool,
    )
    if kind == Bracket.Kind.SWISS:
        _check_swiss_rounds(swiss_rounds, len(seeding.teams))
    name = " ".join(name.split()) or f"{Bracket.Kind(kind).label} of {len(seeding.teams)}"
    try:
        with transaction.atomic():
            bracket = Bracket.objects.create(
                season=season,
                name=name[:120],
                kind=kind,
                best_of=best_of,
                third_place=third_place,
                grand_final_reset=grand_final_reset,
                cycles=cycles,
                pool_count=pool_count,
                advancing_per_pool=advancing_per_pool,
                swiss_rounds=swiss_rounds,
                seeding=Bracket.Seeding.MANUAL if teams is not None else Bracket.Seeding.STANDINGS,
                cut_note=seeding.cut_note,
                cut_note_short=seeding.cut_note_short[:300],
                created_by=user if user is not None and user.is_authenticated else None,
            )
            _write_entries_and_matches(bracket, seeding)
    except IntegrityError as error:
        raise ConflictError(f"This season already has a bracket called {name!r}.") from error
    return bracket


def bracket_seeds_set(*, bracket: Bracket, teams: Sequence[Team | int], user) -> Bracket:
    """Reorder a draft's seeds by hand (``teams`` in seed order, the same number of teams)."""
    require_league_organiser(user=user, league_id=bracket.season.league_id)
    seeding = seeding_by_hand(season=bracket.season, teams=teams)
    with transaction.atomic():
        bracket = bracket_lock(bracket.pk)
        if bracket.status != Bracket.Status.DRAFT:
            raise ConflictError("The seeds are fixed once the bracket is published.")
        if len(seeding.teams) != bracket.entries.count():
            raise DomainError(
                f"Give all {bracket.entries.count()} teams, in seed order.", field="teams"
            )
        bracket.matches.all().delete()
        bracket.entries.all().delete()
        bracket.seeding, bracket.cut_note, bracket.cut_note_short = Bracket.Seeding.MANUAL, "", ""
        bracket.save(update_fields=["seeding", "cut_note", "cut_note_short"])
        _write_entries_and_matches(bracket, seeding)
    return bracket


def _night_of(bracket: Bracket, night: Night | int | None) -> Night | None:
    """The night a bracket is to be played on: one of its season's, in use."""
    if night is None:
        return None
    night_id = night.pk if isinstance(night, Night) else night
    found = Night.objects.filter(pk=night_id, season_id=bracket.season_id).first()
    if found is None:
        raise DomainError("Pick a night of this bracket's season.", field="night")
    if found.archived_at is not None:
        raise DomainError(
            f"The night of {found.date:%d %b %Y} is archived: restore it or pick another.",
            field="night",
        )
    return found


def bracket_publish(*, bracket: Bracket, user, night: Night | int | None = None) -> Bracket:
    """Publish a draft: every match whose two teams are known gets its first game and captain
    link; the rest follow as results come in. With a ``night`` (of the bracket's season, not
    archived), the bracket is played on it: each game takes a free table of the night, so the
    night's table cards open the bracket's games (``tournaments.services.tables``)."""
    require_league_organiser(user=user, league_id=bracket.season.league_id)
    played_on = _night_of(bracket, night)
    with transaction.atomic():
        bracket = bracket_lock(bracket.pk)
        if bracket.status != Bracket.Status.DRAFT:
            raise ConflictError("This bracket is already published.", code="published")
        bracket.status, bracket.published_at = Bracket.Status.PUBLISHED, timezone.now()
        bracket.night = played_on
        bracket.save(update_fields=["status", "published_at", "night"])
        bracket_reconcile(bracket_load(bracket), user=user)
    return bracket
