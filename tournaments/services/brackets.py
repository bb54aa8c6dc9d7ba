"""Services that write brackets: the only writers of brackets, their entries, matches, match games
and corrections. Each one locks the bracket row, asks the engine (``tournaments.domain``), writes,
and creates the games of the matches that became ready through ``scoring.services.game_create``.

Words used here (see ``tournaments.models.brackets`` and ``tournaments.domain.brackets``):

- *results*: the engine's mapping of match code → winning seed, read from the matches' winners.
  Every write replays the results through the structure (``play``) and stores what changed: the
  teams now known in each match, its status, and (once complete) the bracket's end.
- *game in play*: a counting game of a match that has not finished. A ready match with none gets
  its next game: its first, or the next of a best-of-N (a drawn game, possible under a rulebook
  of a fixed number of hands, is simply followed by another).
- *void a link*: a match game that stops counting (its match was reset by a correction, forfeited,
  or its teams changed, or it was already won). The game row is kept as it was played; an
  unfinished one is called off (``scoring.services.game_void``: voided, its captain link revoked),
  so nobody scores a game that no longer counts.
- *reconcile*: read a match's result from its finished counting games, whatever the signal said
  (a game finished, its winner changed, it was reopened; or a signal was lost). A ready match a
  team has won is decided; a match decided by its games that they no longer support is marked
  *needs review* (see ``tournaments.models.brackets``) and waits for the organiser, who confirms
  or corrects it through the correction flow; later matches are never reset silently. Every write
  reconciles the ready matches before it creates games, so no game is created for a match
  already won.
- *playoff games*: bracket games do not count in the season standings
  (``counts_for_standings=False``); a team schedule's games are the season, so they do.
- *forfeit*: a withdrawn team loses every match it has not played, as soon as that match is ready.
  Results it already played are kept.

- *pool table*: a pool's standings, from its decided matches, by ``compute_standings`` with
  ``POOL_TIEBREAKS`` (wins, then point difference, then head-to-head). A pool whose matches are
  all decided is *finished*: its ranking fills the knockout's "2nd in pool A" slots.
- *Swiss record*: a team's wins (a bye counts as one), its opponents and byes, ranked with
  ``SWISS_TIEBREAKS``; the next round is paired from it (``swiss.swiss_pairings``) once every
  match of the round before is decided. Correcting a Swiss result resets nothing: the later
  rounds' pairings stand, as they do at a real Swiss event.

Supported kinds: single and double elimination, round robin, pools then a single-elimination
knockout, and Swiss rounds. ``season_schedule_create`` builds a team season's schedule.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from league import services as league_services
from league.access import is_league_organiser, require_league_organiser
from league.errors import ConflictError, DomainError, NotFoundError
from league.models import Night, Season, Team
from scoring import services as scoring_services
from scoring.domain.standings import Bye, GameRecord, SeasonRules, Standings, compute_standings
from scoring.models import Game, StandingSnapshot
from scoring.standings import season_standings_recompute
from tournaments.domain.brackets import (
    BracketState,
    MatchStatus,
    Structure,
    correct_result,
    ordinal,
    play,
    structure_as_dict,
)
from tournaments.domain.elimination import double_elimination, single_elimination
from tournaments.domain.round_robin import pools_knockout, round_robin
from tournaments.domain.schedule import season_schedule
from tournaments.domain.swiss import SwissEntry, swiss_pairings
from tournaments.models import (
    Bracket,
    BracketCorrection,
    BracketEntry,
    BracketMatch,
    BracketMatchGame,
    TeamSchedule,
)

SUPPORTED_KINDS = (
    Bracket.Kind.SINGLE,
    Bracket.Kind.DOUBLE,
    Bracket.Kind.ROUND_ROBIN,
    Bracket.Kind.POOLS,
    Bracket.Kind.SWISS,
)
POOL_TIEBREAKS = ("wins", "point_diff", "head_to_head")
"""How a pool ranks its teams (the coin flip ends every chain)."""
POOL_RULES = SeasonRules(tiebreaks=POOL_TIEBREAKS)
SWISS_TIEBREAKS = ("wins", "buchholz", "point_diff", "head_to_head")
"""Swiss records: wins (byes included), then opponents' strength, the usual Swiss tie-break."""
SWISS_RULES = SeasonRules(
    tiebreaks=SWISS_TIEBREAKS, bye_value="fixed", bye_points=0, bye_counts_as_win=True
)
MATCH_FIELDS = [
    "first_team",
    "second_team",
    "winner",
    "status",
    "decided_by",
    "decided_at",
    "needs_review",
    "review_reason",
]
IN_PLAY = (Game.Status.SCHEDULED, Game.Status.IN_PROGRESS)
"""Statuses of a game that may still be played (a finished or voided one is not)."""


# --------------------------------------------------------------------------------------------
# The structure, rebuilt from the bracket's options (pure, so cached)
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _structure(
    kind: str,
    team_count: int,
    third_place: bool,
    grand_final_reset: bool,
    cycles: int,
    pool_count: int = 0,
    advancing_per_pool: int = 0,
) -> Structure | None:
    if kind == Bracket.Kind.SWISS:
        return None  # paired one round at a time
    if kind == Bracket.Kind.POOLS:
        return pools_knockout(
            team_count,
            pool_count=pool_count,
            advancing_per_pool=advancing_per_pool,
            third_place=third_place,
            cycles=cycles,
        )
    if kind == Bracket.Kind.SINGLE:
        return single_elimination(team_count, third_place=third_place)
    if kind == Bracket.Kind.DOUBLE:
        return double_elimination(team_count, grand_final_reset=grand_final_reset)
    if kind == Bracket.Kind.ROUND_ROBIN:
        return round_robin(team_count, cycles=cycles)
    raise DomainError(
        f"{Bracket.Kind(kind).label} brackets cannot be built here yet: choose single or double "
        "elimination or a round robin.",
        field="kind",
    )


def bracket_structure(bracket: Bracket, team_count: int | None = None) -> Structure | None:
    """The engine's structure of ``bracket`` (its entries are counted unless ``team_count``);
    ``None`` for Swiss rounds, which are paired one at a time."""
    if team_count is None:
        team_count = bracket.entries.count()
    return _structure(
        bracket.kind,
        team_count,
        bracket.third_place,
        bracket.grand_final_reset,
        bracket.cycles,
        bracket.pool_count,
        bracket.advancing_per_pool,
    )


# --------------------------------------------------------------------------------------------
# Pool tables and Swiss records (the standings engine over a bracket's matches)
# --------------------------------------------------------------------------------------------


def _match_points(matches: Sequence[BracketMatch]) -> dict[int, tuple[int, int]]:
    """Points of each match's counting finished games, added up: (first team's, second's)."""
    points: dict[int, tuple[int, int]] = {}
    for row in BracketMatchGame.objects.filter(
        match__in=[match.pk for match in matches],
        status=BracketMatchGame.Status.COUNTING,
        game__status=Game.Status.FINISHED,
    ).values("match_id", "game__score_a", "game__score_b"):
        first, second = points.get(row["match_id"], (0, 0))
        points[row["match_id"]] = (first + row["game__score_a"], second + row["game__score_b"])
    return points


def _match_records(
    pairs: Sequence[tuple[BracketMatch, int, int, int]], points: dict[int, tuple[int, int]]
) -> list[GameRecord]:
    """Standings records of decided matches, each given as (match, first seed, second seed,
    winning seed). A forfeit without a game scores the season's forfeit points."""
    records = []
    for match, first, second, winner in pairs:
        side = "A" if winner == first else "B"
        played = points.get(match.pk)
        forfeit = match.decided_by == BracketMatch.DecidedBy.FORFEIT and played is None
        points_first, points_second = played or (0, 0)
        records.append(
            GameRecord(
                game_id=match.order,
                side_a=(first,),
                side_b=(second,),
                points_a=points_first,
                points_b=points_second,
                winner=None if forfeit else side,
                forfeited_by=("B" if side == "A" else "A") if forfeit else None,
            )
        )
    return records


@dataclass(frozen=True)
class PoolTable:
    """A pool's standings (entrants are seeds) and whether all its matches are decided."""

    name: str
    standings: Standings
    is_finished: bool

    @property
    def ranking(self) -> list[int]:
        return [row.entrant for row in self.standings.rows]


def _pool_tables(
    structure: Structure,
    matches: dict[str, BracketMatch],
    results: dict[str, int],
    names: dict[int, str],
    points: dict[int, tuple[int, int]],
) -> list[PoolTable]:
    tables = []
    for pool in structure.pools:
        in_pool = [match for match in structure.real_matches if match.pool == pool.name]
        decided = [
            (matches[match.code], match.first.seed, match.second.seed, results[match.code])
            for match in in_pool
            if match.code in results
        ]
        standings = compute_standings(
            _match_records(decided, points), POOL_RULES, entrants=pool.seeds, names=names
        )
        tables.append(PoolTable(pool.name, standings, len(decided) == len(in_pool)))
    return tables


def _finished_pool_rankings(tables: Sequence[PoolTable]) -> dict[str, list[int]]:
    return {table.name: table.ranking for table in tables if table.is_finished}


# --------------------------------------------------------------------------------------------
# Loading a bracket and replaying its results
# --------------------------------------------------------------------------------------------


@dataclass
class _Loaded:
    """A locked bracket with its entries and matches in memory."""

    bracket: Bracket
    structure: Structure | None
    entries: list[BracketEntry]
    matches: dict[str, BracketMatch]
    team_by_seed: dict[int, Team] = field(init=False)
    seed_by_team: dict[int, int] = field(init=False)
    _points: dict[int, tuple[int, int]] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.team_by_seed = {entry.seed: entry.team for entry in self.entries}
        self.seed_by_team = {entry.team_id: entry.seed for entry in self.entries}

    @property
    def names(self) -> dict[int, str]:
        return {entry.seed: entry.team.name for entry in self.entries}

    def points(self) -> dict[int, tuple[int, int]]:
        """Points of the pool (or Swiss) matches' counting finished games, loaded once."""
        if self._points is None:
            if self.structure is None:
                counted = list(self.matches.values())
            else:
                counted = [
                    self.matches[match.code] for match in self.structure.matches if match.pool
                ]
            self._points = _match_points(counted)
        return self._points

    def pool_rankings(self, results: dict[str, int]) -> dict[str, list[int]]:
        """The rankings of the finished pools given ``results`` (none outside pool brackets)."""
        if self.structure is None or not self.structure.pools:
            return {}
        tables = _pool_tables(self.structure, self.matches, results, self.names, self.points())
        return _finished_pool_rankings(tables)

    @property
    def withdrawn(self) -> set[int]:
        return {entry.seed for entry in self.entries if entry.is_withdrawn}

    def results(self) -> dict[str, int]:
        return {
            code: self.seed_by_team[match.winner_id]
            for code, match in self.matches.items()
            if match.winner_id is not None and match.status == BracketMatch.Status.DECIDED
        }

    def team_id(self, occupant) -> int | None:
        team = self.team_by_seed.get(occupant) if isinstance(occupant, int) else None
        return team.pk if team is not None else None


def _lock(bracket_id: int) -> Bracket:
    return Bracket.objects.select_for_update().select_related("season__league").get(pk=bracket_id)


def _load(bracket: Bracket) -> _Loaded:
    entries = list(
        bracket.entries.select_related("team__player_one", "team__player_two").order_by("seed")
    )
    matches = {
        match.code: match
        for match in bracket.matches.order_by("order").only(
            "bracket_id", "code", "order", "round", *MATCH_FIELDS
        )
    }
    return _Loaded(bracket, bracket_structure(bracket, len(entries)), entries, matches)


def _void(links: Sequence[BracketMatchGame], reason: str, user=None) -> None:
    """Stop ``links`` counting; call off (void) any of their games not yet finished."""
    for link in links:
        link.status = BracketMatchGame.Status.VOIDED
        link.voided_reason = reason[:300]
        if link.game.status in IN_PLAY:
            # A game that finished meanwhile is kept as played: it just stops counting.
            with contextlib.suppress(ConflictError):
                scoring_services.game_void(game=link.game, reason=reason, user=user)
    BracketMatchGame.objects.bulk_update(links, ["status", "voided_reason"])


def _reconcile_games(loaded: _Loaded, check: Collection[str] = ()) -> set[str]:
    """Read results from the games: decide every ready match a team has won (enough finished
    counting games), and check the matches in ``check`` decided by their games: one the games no
    longer support is marked as needing review (with the reason), one they support again is
    cleared. Changes the matches in memory; returns the codes changed."""
    matches = [
        match
        for match in loaded.matches.values()
        if match.status == BracketMatch.Status.READY
        or (
            match.code in check
            and match.status == BracketMatch.Status.DECIDED
            and match.decided_by == BracketMatch.DecidedBy.GAMES
        )
    ]
    if not matches:
        return set()
    wins: dict[int, Counter[int]] = {match.pk: Counter() for match in matches}
    reopened: dict[int, list[int]] = {}
    for row in BracketMatchGame.objects.filter(
        match__in=[match.pk for match in matches], status=BracketMatchGame.Status.COUNTING
    ).values("match_id", "number", "game__status", "game__winner", "game__hands_played"):
        if row["game__status"] == Game.Status.FINISHED and row["game__winner"]:
            side = 0 if row["game__winner"] == "A" else 1
            wins[row["match_id"]][side] += 1
        elif row["game__status"] == Game.Status.IN_PROGRESS:
            reopened.setdefault(row["match_id"], []).append(row["number"])
    needed, now, names = loaded.bracket.wins_needed, timezone.now(), _team_names(loaded)
    changed = set()
    for match in matches:
        teams = (match.first_team_id, match.second_team_id)
        won = next((teams[side] for side in (0, 1) if wins[match.pk][side] >= needed), None)
        if match.status == BracketMatch.Status.READY:
            if won is not None:
                match.winner_id, match.status = won, BracketMatch.Status.DECIDED
                match.decided_by, match.decided_at = BracketMatch.DecidedBy.GAMES, now
                changed.add(match.code)
            continue
        if won == match.winner_id:
            reason = ""
        elif won is not None:
            reason = (
                f"The games now give {match.code} to {names[won]}, not {names[match.winner_id]}."
            )
        elif match.pk in reopened:
            numbers = ", ".join(str(number) for number in sorted(reopened[match.pk]))
            reason = (
                f"Game {numbers} of {match.code} was reopened (a hand undone): "
                f"{names[match.winner_id]} no longer has the {needed} win"
                f"{'s' if needed > 1 else ''} that decided it."
            )
        else:
            reason = (
                f"{names[match.winner_id]} no longer has the {needed} win"
                f"{'s' if needed > 1 else ''} that decided {match.code}: a game's result changed."
            )
        if (match.needs_review, match.review_reason) != (bool(reason), reason[:300]):
            match.needs_review, match.review_reason = bool(reason), reason[:300]
            changed.add(match.code)
    return changed


def _team_names(loaded: _Loaded) -> dict[int, str]:
    return {entry.team_id: entry.team.name for entry in loaded.entries}


def _void_unneeded(loaded: _Loaded, user=None) -> None:
    """Call off the games still in play of decided matches (a stray game of a match already
    won), except those of a match waiting for the organiser's review."""
    decided = {
        match.pk: match
        for match in loaded.matches.values()
        if match.status == BracketMatch.Status.DECIDED and not match.needs_review
    }
    if not decided:
        return
    stray = list(
        BracketMatchGame.objects.filter(
            match__bracket=loaded.bracket,
            status=BracketMatchGame.Status.COUNTING,
            game__status__in=IN_PLAY,
        ).select_related("game")
    )
    names = _team_names(loaded)
    for link in stray:
        match = decided.get(link.match_id)
        if match is not None:
            _void([link], f"not needed: {names[match.winner_id]} already won {match.code}", user)


def _counting_links(matches: Sequence[BracketMatch]) -> list[BracketMatchGame]:
    return list(
        BracketMatchGame.objects.filter(
            match__in=[match.pk for match in matches], status=BracketMatchGame.Status.COUNTING
        ).select_related("game")
    )


def _sync(
    loaded: _Loaded, *, touched: set[str] = frozenset(), check: Collection[str] = (), user=None
) -> BracketState:
    """Reconcile the ready matches (and those in ``check``) with their games, replay the
    results, forfeit the ready matches of withdrawn teams, store what changed, call off the games
    of decided matches, and only then give every ready match without a game in play its next
    game."""
    touched = {*touched, *_reconcile_games(loaded, check)}
    if loaded.structure is None:
        return _sync_swiss(loaded, touched=touched, user=user)
    now = timezone.now()
    results = loaded.results()
    withdrawn = loaded.withdrawn
    forfeited: list[str] = []
    while True:
        state = play(loaded.structure, results, pool_rankings=loaded.pool_rankings(results))
        due = [code for code in state.ready if set(state.matches[code].teams) & withdrawn]
        if not due:
            break
        for code in due:
            played = state.matches[code]
            first_out, second_out = played.first in withdrawn, played.second in withdrawn
            results[code] = played.second if first_out and not second_out else played.first
            match = loaded.matches[code]
            match.decided_by, match.decided_at = BracketMatch.DecidedBy.FORFEIT, now
            forfeited.append(code)
    changed = []
    for code, played in state.matches.items():
        match = loaded.matches[code]
        values = {
            "first_team_id": loaded.team_id(played.first),
            "second_team_id": loaded.team_id(played.second),
            "status": str(played.status),
            "winner_id": loaded.team_id(played.winner)
            if played.status is MatchStatus.DECIDED
            else None,
        }
        if values["status"] != BracketMatch.Status.DECIDED and match.decided_by:
            match.decided_by, match.decided_at = BracketMatch.DecidedBy.NOTHING, None
            touched = {*touched, code}
        if values["status"] != BracketMatch.Status.DECIDED and match.needs_review:
            match.needs_review, match.review_reason = False, ""
            touched = {*touched, code}
        if code in touched or any(getattr(match, name) != value for name, value in values.items()):
            for name, value in values.items():
                setattr(match, name, value)
            changed.append(match)
    if changed:
        BracketMatch.objects.bulk_update(changed, MATCH_FIELDS)
    if forfeited:
        team_names = {entry.seed: entry.team.name for entry in loaded.entries}
        names = ", ".join(sorted(team_names[seed] for seed in withdrawn))
        unplayed = [
            link
            for link in _counting_links([loaded.matches[code] for code in forfeited])
            if link.game.status != Game.Status.FINISHED
        ]
        _void(unplayed, f"forfeited: {names} withdrew", user=user)
    bracket = loaded.bracket
    if bracket.status != Bracket.Status.DRAFT:
        _void_unneeded(loaded, user=user)
        _create_next_games(loaded, [loaded.matches[code] for code in state.ready])
    if state.is_complete and bracket.status == Bracket.Status.PUBLISHED:
        bracket.status, bracket.finished_at = Bracket.Status.FINISHED, now
        bracket.save(update_fields=["status", "finished_at"])
    elif not state.is_complete and bracket.status == Bracket.Status.FINISHED:
        bracket.status, bracket.finished_at = Bracket.Status.PUBLISHED, None
        bracket.save(update_fields=["status", "finished_at"])
    return state


def _create_next_games(loaded: _Loaded, ready: list[BracketMatch]) -> None:
    """Give each ready match without a game in play its next game (playoff games do not count
    in the season standings). A counting game called off elsewhere stops counting first."""
    ready = [match for match in ready if match.status == BracketMatch.Status.READY]
    if not ready:
        return
    numbers: dict[int, int] = Counter()
    in_play: set[int] = set()
    called_off = []
    for link in BracketMatchGame.objects.filter(match__in=[match.pk for match in ready]).values(
        "pk", "match_id", "number", "status", "game__status", "game__void_reason"
    ):
        numbers[link["match_id"]] = max(numbers[link["match_id"]], link["number"])
        if link["status"] != BracketMatchGame.Status.COUNTING:
            continue
        if link["game__status"] in IN_PLAY:
            in_play.add(link["match_id"])
        elif link["game__status"] == Game.Status.VOIDED:
            called_off.append(
                BracketMatchGame(
                    pk=link["pk"],
                    status=BracketMatchGame.Status.VOIDED,
                    voided_reason=f"called off: {link['game__void_reason'] or 'voided'}"[:300],
                )
            )
    if called_off:
        BracketMatchGame.objects.bulk_update(called_off, ["status", "voided_reason"])
    season = loaded.bracket.season
    teams = {team.pk: team for team in loaded.team_by_seed.values()}
    links = []
    for match in ready:
        if match.pk in in_play:
            continue
        number = numbers[match.pk] + 1
        first, second = teams[match.first_team_id], teams[match.second_team_id]
        game = scoring_services.game_create(
            season=season,
            seats=(first.player_one, second.player_one, first.player_two, second.player_two),
            team_a=first,
            team_b=second,
            round_number=match.round,
            first_dealer_seat=(number - 1) % 4,
            counts_for_standings=False,
        )
        links.append(BracketMatchGame(match=match, game=game, number=number))
    BracketMatchGame.objects.bulk_create(links)


# --------------------------------------------------------------------------------------------
# Swiss rounds: records, pairing the next round, playing it
# --------------------------------------------------------------------------------------------


def _swiss_standings(
    matches: Sequence[BracketMatch],
    seed_by_team: dict[int, int],
    names: dict[int, str],
    points: dict[int, tuple[int, int]],
) -> Standings:
    """Every entry's Swiss record (entrants are seeds), ranked by ``SWISS_TIEBREAKS``."""
    decided, byes = [], []
    for match in matches:
        if match.status == BracketMatch.Status.BYE and match.first_team_id:
            byes.append(Bye(entrant=seed_by_team[match.first_team_id]))
        elif match.status == BracketMatch.Status.DECIDED and match.winner_id:
            decided.append(
                (
                    match,
                    seed_by_team[match.first_team_id],
                    seed_by_team[match.second_team_id],
                    seed_by_team[match.winner_id],
                )
            )
    return compute_standings(
        _match_records(decided, points), SWISS_RULES, byes=byes, entrants=names, names=names
    )


def _swiss_round_matches(
    bracket: Bracket,
    pairing,
    round_number: int,
    first_order: int,
    team_by_seed: dict[int, Team],
) -> list[BracketMatch]:
    """The unsaved matches of a paired Swiss round: ``S{round}-{index}``, the bye last."""
    sides = [(pair.first, pair.second) for pair in pairing.pairings]
    if pairing.bye is not None:
        sides.append((pairing.bye, None))
    matches = []
    for index, (first, second) in enumerate(sides, start=1):
        matches.append(
            BracketMatch(
                bracket=bracket,
                code=f"S{round_number}-{index}",
                order=first_order + index - 1,
                part=BracketMatch.Part.SWISS,
                round=round_number,
                first_slot={"kind": "seed", "label": f"Seed {first}", "seed": first},
                second_slot={"kind": "bye", "label": "Bye"}
                if second is None
                else {"kind": "seed", "label": f"Seed {second}", "seed": second},
                is_bye=second is None,
                first_team=team_by_seed[first],
                second_team=None if second is None else team_by_seed[second],
                status=BracketMatch.Status.BYE if second is None else BracketMatch.Status.READY,
            )
        )
    return matches


def _sync_swiss(loaded: _Loaded, *, touched: set[str] = frozenset(), user=None) -> None:
    """Forfeit the ready matches of withdrawn teams, give every ready match its next game, and
    once a round is all decided pair the next one from the records (or finish the bracket)."""
    bracket, now = loaded.bracket, timezone.now()
    withdrawn_teams = {entry.team_id for entry in loaded.entries if entry.is_withdrawn}
    forfeited = []
    for match in loaded.matches.values():
        out = {match.first_team_id, match.second_team_id} & withdrawn_teams
        if match.status != BracketMatch.Status.READY or not out:
            continue
        first_out, second_out = match.first_team_id in out, match.second_team_id in out
        match.winner_id = (
            match.second_team_id if first_out and not second_out else match.first_team_id
        )
        match.status = BracketMatch.Status.DECIDED
        match.decided_by, match.decided_at = BracketMatch.DecidedBy.FORFEIT, now
        forfeited.append(match)
    changed = {match.pk: match for match in forfeited}
    changed.update((loaded.matches[code].pk, loaded.matches[code]) for code in touched)
    if changed:
        BracketMatch.objects.bulk_update(list(changed.values()), MATCH_FIELDS)
    if forfeited:
        names = ", ".join(sorted(entry.team.name for entry in loaded.entries if entry.is_withdrawn))
        unplayed = [
            link for link in _counting_links(forfeited) if link.game.status != Game.Status.FINISHED
        ]
        _void(unplayed, f"forfeited: {names} withdrew", user=user)
    if bracket.status == Bracket.Status.DRAFT:
        return
    _void_unneeded(loaded, user=user)
    matches = list(loaded.matches.values())
    current = max((match.round for match in matches), default=0)
    open_matches = [match for match in matches if match.status == BracketMatch.Status.READY]
    if not open_matches and current < bracket.swiss_rounds:
        active = [entry for entry in loaded.entries if not entry.is_withdrawn]
        standings = _swiss_standings(matches, loaded.seed_by_team, loaded.names, loaded.points())
        pairing = None
        if len(active) >= 2:
            pairing = _swiss_pairing(standings, matches, loaded, {e.seed for e in active})
        if pairing is not None:
            new = _swiss_round_matches(
                bracket, pairing, current + 1, len(matches), loaded.team_by_seed
            )
            BracketMatch.objects.bulk_create(new)
            for match in new:
                loaded.matches[match.code] = match
            open_matches = [match for match in new if match.status == BracketMatch.Status.READY]
    _create_next_games(loaded, open_matches)
    is_complete = not open_matches
    if is_complete and bracket.status == Bracket.Status.PUBLISHED:
        bracket.status, bracket.finished_at = Bracket.Status.FINISHED, now
        bracket.save(update_fields=["status", "finished_at"])


def _swiss_pairing(standings: Standings, matches, loaded: _Loaded, active: set[int]):
    """The next round's pairing of the ``active`` seeds from ``standings``, or ``None`` when no
    pairing avoids a rematch (the event then ends with the rounds played)."""
    opponents: dict[int, set[int]] = {seed: set() for seed in active}
    byes: Counter[int] = Counter()
    for match in matches:
        if match.status == BracketMatch.Status.BYE and match.first_team_id:
            byes[loaded.seed_by_team[match.first_team_id]] += 1
        elif match.first_team_id and match.second_team_id:
            first = loaded.seed_by_team[match.first_team_id]
            second = loaded.seed_by_team[match.second_team_id]
            opponents.setdefault(first, set()).add(second)
            opponents.setdefault(second, set()).add(first)
    entries = [
        SwissEntry(
            team=row.entrant,
            score=row.wins,
            opponents=frozenset(opponents[row.entrant]),
            byes=byes[row.entrant],
        )
        for row in standings.rows
        if row.entrant in active
    ]
    try:
        return swiss_pairings(entries)
    except DomainError as error:
        if error.code == "no_pairing":
            return None
        raise


# --------------------------------------------------------------------------------------------
# Creating, seeding and publishing
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seeding:
    """Teams in seed order, each with its standing (rank and reason) when seeded from one."""

    teams: list[Team]
    ranks: list[int | None]
    reasons: list[str]
    cut_note: str = ""


def seeding_from_standings(*, season: Season, team_count: int) -> Seeding:
    """The top ``team_count`` teams of the season's current standings, and why the cut falls
    where it does (from the standings rows' own reasons)."""
    season_standings_recompute(season_id=season.pk)
    snapshot = StandingSnapshot.objects.filter(season=season).first()
    if snapshot is None or not any(row["games"] for row in snapshot.standings["rows"]):
        raise DomainError(
            "This season has no standings yet (no game has finished): set the seeds by hand.",
            field="seeding",
        )
    teams = {team.pk: team for team in season.teams.filter(is_withdrawn=False)}
    rows = [
        row
        for row in snapshot.standings["rows"]
        if row["rank"] is not None and row["entrant"] in teams
    ]
    if team_count < 2:
        raise DomainError("A bracket needs at least 2 teams.", field="team_count")
    if len(rows) < team_count:
        raise DomainError(
            f"Only {len(rows)} teams are ranked in the standings: fewer than {team_count}.",
            field="team_count",
        )
    chosen = rows[:team_count]
    cut_note = ""
    if len(rows) > team_count:
        last_in, first_out = rows[team_count - 1], rows[team_count]
        cut_note = (
            f"The cut falls after {ordinal(team_count)}: {last_in['name']} is in, "
            f"{first_out['name']} ({ordinal(first_out['rank'])}) is out: "
            f"{first_out['reason']}."
        )
    return Seeding(
        teams=[teams[row["entrant"]] for row in chosen],
        ranks=[row["rank"] for row in chosen],
        reasons=[row["reason"] for row in chosen],
        cut_note=cut_note,
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
        teams=[found[team_id] for team_id in ids], ranks=[None] * len(ids), reasons=[""] * len(ids)
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
        )
        for seed, (team, rank, reason) in enumerate(
            zip(seeding.teams, seeding.ranks, seeding.reasons, strict=True), start=1
        )
    )
    structure = bracket_structure(bracket, len(seeding.teams))
    team_of = dict(enumerate(seeding.teams, start=1))
    if structure is None:  # Swiss: round 1 is paired from the seeds
        first = swiss_pairings([SwissEntry(team=seed, score=0) for seed in team_of])
        BracketMatch.objects.bulk_create(_swiss_round_matches(bracket, first, 1, 0, team_of))
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
) -> Bracket:
    """A draft bracket of a team season, seeded from the standings (the top ``team_count``) or by
    hand (``teams`` in seed order). Nothing is played until it is published.

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
        seeding = seeding_from_standings(season=season, team_count=team_count)
    _structure(  # size errors
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
        bracket = _lock(bracket.pk)
        if bracket.status != Bracket.Status.DRAFT:
            raise ConflictError("The seeds are fixed once the bracket is published.")
        if len(seeding.teams) != bracket.entries.count():
            raise DomainError(
                f"Give all {bracket.entries.count()} teams, in seed order.", field="teams"
            )
        bracket.matches.all().delete()
        bracket.entries.all().delete()
        bracket.seeding, bracket.cut_note = Bracket.Seeding.MANUAL, ""
        bracket.save(update_fields=["seeding", "cut_note"])
        _write_entries_and_matches(bracket, seeding)
    return bracket


def bracket_publish(*, bracket: Bracket, user) -> Bracket:
    """Publish a draft: every match whose two teams are known gets its first game and captain
    link; the rest follow as results come in."""
    require_league_organiser(user=user, league_id=bracket.season.league_id)
    with transaction.atomic():
        bracket = _lock(bracket.pk)
        if bracket.status != Bracket.Status.DRAFT:
            raise ConflictError("This bracket is already published.", code="published")
        bracket.status, bracket.published_at = Bracket.Status.PUBLISHED, timezone.now()
        bracket.save(update_fields=["status", "published_at"])
        _sync(_load(bracket), user=user)
    return bracket


# --------------------------------------------------------------------------------------------
# Advancing when a game ends
# --------------------------------------------------------------------------------------------


def bracket_advance(*, game_id: int) -> Bracket | None:
    """A game's final result changed (it finished, its winner changed, or it was reopened): if
    it counts for a match, reconcile the bracket from the database (``_reconcile_games``): a
    ready match a team has won is decided and its winner (and, in a double elimination, its
    loser) moves on; a decided match its games no longer support is marked for review; the
    matches that became ready get their games. Idempotent, and the same whatever the ``change``
    was, so a repeated or lost signal does no harm."""
    link = (
        BracketMatchGame.objects.filter(game_id=game_id, status=BracketMatchGame.Status.COUNTING)
        .values("match__bracket_id", "match__code")
        .first()
    )
    if link is None:
        return None
    return _reconcile(link["match__bracket_id"], {link["match__code"]})


def _reconcile(bracket_id: int, check: Collection[str]) -> Bracket:
    with transaction.atomic():
        bracket = _lock(bracket_id)
        if bracket.status == Bracket.Status.DRAFT:
            return bracket
        _sync(_load(bracket), check=check)
    return bracket


def brackets_to_reconcile() -> dict[int, set[str]]:
    """What a lost signal may have left behind (a selector for the periodic sweep): bracket id →
    the codes of matches to reconcile. A ready match without a game in play (its last game ended
    unnoticed: it is won, or it needs its next game) or already won; a match decided by its
    games with a game in play (reopened, or a stray game to call off) or a game won by the other
    team (its winner may have changed)."""
    found: dict[int, set[str]] = {}
    in_play = BracketMatchGame.objects.filter(
        match=OuterRef("pk"), status=BracketMatchGame.Status.COUNTING, game__status__in=IN_PLAY
    )
    for row in (
        BracketMatch.objects.filter(
            status=BracketMatch.Status.READY, bracket__status=Bracket.Status.PUBLISHED
        )
        .exclude(Exists(in_play))
        .values("bracket_id", "code")
    ):
        found.setdefault(row["bracket_id"], set()).add(row["code"])
    wins: Counter[tuple[int, str, str]] = Counter()
    for row in BracketMatchGame.objects.filter(
        status=BracketMatchGame.Status.COUNTING,
        game__status=Game.Status.FINISHED,
        match__status=BracketMatch.Status.READY,
        match__bracket__status=Bracket.Status.PUBLISHED,
    ).values("match__bracket_id", "match__bracket__best_of", "match__code", "game__winner"):
        key = (row["match__bracket_id"], row["match__code"], row["game__winner"])
        wins[key] += 1
        if row["game__winner"] and wins[key] == row["match__bracket__best_of"] // 2 + 1:
            found.setdefault(key[0], set()).add(key[1])  # won, yet a game is still in play
    decided = BracketMatchGame.objects.filter(
        status=BracketMatchGame.Status.COUNTING,
        match__status=BracketMatch.Status.DECIDED,
        match__decided_by=BracketMatch.DecidedBy.GAMES,
        match__needs_review=False,
        match__bracket__status__in=(Bracket.Status.PUBLISHED, Bracket.Status.FINISHED),
    )
    other_won = (Q(game__winner="A") & ~Q(game__team_a=F("match__winner"))) | (
        Q(game__winner="B") & ~Q(game__team_b=F("match__winner"))
    )
    for row in decided.filter(
        Q(game__status__in=IN_PLAY) | (Q(game__status=Game.Status.FINISHED) & other_won)
    ).values("match__bracket_id", "match__code"):
        found.setdefault(row["match__bracket_id"], set()).add(row["match__code"])
    return found


def bracket_sweep() -> list[int]:
    """Reconcile every bracket a lost ``game_finished`` may have left behind (the periodic
    sweep); returns their ids. Idempotent: a bracket in order is not written to."""
    found = brackets_to_reconcile()
    for bracket_id, codes in sorted(found.items()):
        _reconcile(bracket_id, codes)
    return sorted(found)


# --------------------------------------------------------------------------------------------
# Corrections and withdrawals
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ResetMatch:
    """A later match a correction resets: its teams and winner before, and its games."""

    code: str
    teams: tuple[str, ...]
    winner: str | None
    games_kept: int
    games_voided: int


@dataclass(frozen=True)
class CorrectionPreview:
    """What correcting match ``code`` to ``new_winner`` would do, before the organiser agrees.

    ``reset`` lists the decided later matches whose results are thrown away; ``stopped`` the
    undecided matches whose games in play stop counting because a team in them changes. Games
    already finished in them are kept as played (they stop counting for the bracket); unplayed
    ones are voided and their captain links revoked. ``called_off`` counts the corrected match's
    own games still in play (a reopened game), called off once the organiser decides.

    A match that needs review may be "corrected" to the winner it has: the organiser confirms the
    result as it stands, and nothing later changes.
    """

    bracket: Bracket
    code: str
    old_winner: Team
    new_winner: Team
    reset: tuple[ResetMatch, ...]
    stopped: tuple[ResetMatch, ...]
    results: dict[str, int]
    called_off: int = 0

    @property
    def is_confirmation(self) -> bool:
        """The organiser keeps the winner (a match that needed review)."""
        return self.old_winner == self.new_winner

    @property
    def reset_codes(self) -> list[str]:
        return [match.code for match in self.reset]


def _preview(loaded: _Loaded, code: str, winner: Team | int) -> CorrectionPreview:
    winner_id = winner.pk if isinstance(winner, Team) else int(winner)
    match = loaded.matches.get(code)
    if match is None:
        raise DomainError(f"There is no match {code} in this bracket.", field="match")
    if match.status != BracketMatch.Status.DECIDED:
        raise DomainError(f"Match {code} has no result to correct.", field="match")
    if winner_id not in (match.first_team_id, match.second_team_id):
        raise DomainError(f"That team did not play in match {code}.", field="winner")
    teams = {team.pk: team for team in loaded.team_by_seed.values()}
    called_off = BracketMatchGame.objects.filter(
        match=match, status=BracketMatchGame.Status.COUNTING, game__status__in=IN_PLAY
    ).count()
    if winner_id == match.winner_id:
        if not match.needs_review:
            raise DomainError(f"That team already won match {code}.", field="winner")
        return CorrectionPreview(
            bracket=loaded.bracket,
            code=code,
            old_winner=teams[match.winner_id],
            new_winner=teams[winner_id],
            reset=(),
            stopped=(),
            results=loaded.results(),
            called_off=called_off,
        )
    if loaded.structure is None:  # Swiss: the later rounds' pairings stand
        return CorrectionPreview(
            bracket=loaded.bracket,
            code=code,
            old_winner=teams[match.winner_id],
            new_winner=teams[winner_id],
            reset=(),
            stopped=(),
            results={},
            called_off=called_off,
        )
    results = loaded.results()
    new_seed = loaded.seed_by_team[winner_id]
    rankings_after = loaded.pool_rankings({**results, code: new_seed})
    correction = correct_result(
        loaded.structure,
        results,
        code=code,
        winner=new_seed,
        pool_rankings=loaded.pool_rankings(results),
        pool_rankings_after=rankings_after,
    )
    after = play(loaded.structure, correction.results, pool_rankings=rankings_after)
    affected = []
    for other, played in after.matches.items():
        row = loaded.matches[other]
        if other == code:
            continue
        same = (loaded.team_id(played.first), loaded.team_id(played.second)) == (
            row.first_team_id,
            row.second_team_id,
        )
        if other in correction.reset or (row.status == BracketMatch.Status.READY and not same):
            affected.append(row)
    links = _counting_links(affected) if affected else []
    reset, stopped = [], []
    for row in affected:
        games = [link for link in links if link.match_id == row.pk]
        finished = sum(link.game.status == Game.Status.FINISHED for link in games)
        if row.status == BracketMatch.Status.READY and not games:
            continue
        described = ResetMatch(
            code=row.code,
            teams=tuple(
                teams[team_id].name
                for team_id in (row.first_team_id, row.second_team_id)
                if team_id
            ),
            winner=teams[row.winner_id].name if row.winner_id else None,
            games_kept=finished,
            games_voided=len(games) - finished,
        )
        (reset if row.code in correction.reset else stopped).append(described)
    return CorrectionPreview(
        bracket=loaded.bracket,
        code=code,
        old_winner=teams[match.winner_id],
        new_winner=teams[winner_id],
        reset=tuple(reset),
        stopped=tuple(stopped),
        results=correction.results,
        called_off=called_off,
    )


def bracket_correction_preview(
    *, bracket: Bracket, code: str, winner: Team | int, user
) -> CorrectionPreview:
    """Which later matches changing the winner of decided match ``code`` would reset (or, for a
    match that needs review, what confirming its winner does). Writes nothing."""
    require_league_organiser(user=user, league_id=bracket.season.league_id)
    if bracket.status == Bracket.Status.DRAFT:
        raise ConflictError("A draft has no results to correct.")
    return _preview(_load(bracket), code, winner)


def bracket_correct(
    *,
    bracket: Bracket,
    code: str,
    winner: Team | int,
    reason: str,
    reset: Sequence[str],
    user,
) -> CorrectionPreview:
    """Apply a correction the organiser has seen: ``reset`` must be the preview's reset list
    (a conflict if the bracket changed since). The corrected match is decided by the correction
    (its games are kept as played); the reset matches lose their results and their games stop
    counting; the matches that become ready get new games."""
    require_league_organiser(user=user, league_id=bracket.season.league_id)
    reason = " ".join((reason or "").split())
    if not reason:
        raise DomainError("Say briefly why the result is corrected.", field="reason")
    with transaction.atomic():
        bracket = _lock(bracket.pk)
        if bracket.status == Bracket.Status.DRAFT:
            raise ConflictError("A draft has no results to correct.")
        loaded = _load(bracket)
        preview = _preview(loaded, code, winner)
        if sorted(preview.reset_codes) != sorted(reset):
            would = ", ".join(preview.reset_codes) or "no match"
            raise ConflictError(
                f"The bracket changed since the preview: correcting {code} now resets {would}. "
                "Look at the preview again.",
                code="preview_stale",
            )
        BracketCorrection.objects.create(
            bracket=bracket,
            code=code,
            old_winner=preview.old_winner,
            new_winner=preview.new_winner,
            reset=[{"code": match.code, "winner": match.winner} for match in preview.reset],
            reason=reason,
            changed_by=user if user is not None and user.is_authenticated else None,
        )
        now = timezone.now()
        corrected = loaded.matches[code]
        corrected.winner_id = preview.new_winner.pk
        corrected.decided_by, corrected.decided_at = BracketMatch.DecidedBy.CORRECTION, now
        corrected.needs_review, corrected.review_reason = False, ""
        affected = [loaded.matches[match.code] for match in (*preview.reset, *preview.stopped)]
        for match in affected:
            match.winner_id, match.status = None, BracketMatch.Status.WAITING
            match.decided_by, match.decided_at = BracketMatch.DecidedBy.NOTHING, None
            match.needs_review, match.review_reason = False, ""
        _void(_counting_links(affected), f"reset by the correction of {code}: {reason}", user)
        _sync(loaded, touched={code, *(match.code for match in affected)}, user=user)
    return preview


def bracket_withdraw_team(*, bracket: Bracket, team: Team | int, reason: str, user) -> Bracket:
    """A team withdraws: it forfeits every match it has not played (now or when it becomes
    ready); results it already played are kept."""
    require_league_organiser(user=user, league_id=bracket.season.league_id)
    reason = " ".join((reason or "").split())
    team_id = team.pk if isinstance(team, Team) else int(team)
    with transaction.atomic():
        bracket = _lock(bracket.pk)
        if bracket.status != Bracket.Status.PUBLISHED:
            raise ConflictError(
                "Only a bracket being played takes withdrawals (in a draft, change the seeds)."
            )
        entry = bracket.entries.filter(team_id=team_id).first()
        if entry is None:
            raise DomainError("That team is not in this bracket.", field="team")
        if entry.is_withdrawn:
            raise ConflictError(f"{entry.team} has already withdrawn.")
        entry.withdrawn_at, entry.withdrawal_reason = timezone.now(), reason[:300]
        entry.save(update_fields=["withdrawn_at", "withdrawal_reason"])
        _sync(_load(bracket), user=user)
    return bracket


# --------------------------------------------------------------------------------------------
# Reading a bracket (a selector: what the page and the API show)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameLine:
    number: int
    game_id: int
    status: str
    score: tuple[int, int]
    winner: int | None
    captain_token: str
    """Empty unless the summary was asked for them (the organiser's screens)."""


@dataclass(frozen=True)
class MatchLine:
    match: BracketMatch
    first: str
    second: str
    games: tuple[GameLine, ...]
    wins: tuple[int, int]

    @property
    def is_live(self) -> bool:
        return any(game.status == Game.Status.IN_PROGRESS for game in self.games)

    @property
    def score(self) -> tuple[int, int] | None:
        """What the box shows: games won (best of N) or the one game's score."""
        if all(game.status == Game.Status.SCHEDULED for game in self.games):
            return None
        if len(self.games) == 1 and self.wins in ((0, 0), (1, 0), (0, 1)):
            return self.games[0].score
        return self.wins


@dataclass(frozen=True)
class PlacingLine:
    place: int
    team: Team
    note: str = ""


@dataclass(frozen=True)
class TableLine:
    """A team's row in a pool table or the Swiss standings."""

    rank: int | None
    team: Team
    games: int
    wins: int
    losses: int
    byes: int
    point_diff: int | float
    reason: str
    is_through: bool = False


@dataclass(frozen=True)
class Table:
    """A pool's table (``Pool A``) or the Swiss standings, with its rows in ranking order."""

    title: str
    lines: list[TableLine]
    is_finished: bool


@dataclass(frozen=True)
class BracketSummary:
    bracket: Bracket
    entries: list[BracketEntry]
    matches: list[MatchLine]
    placings: list[PlacingLine]
    champion: Team | None
    tables: list[Table] = field(default_factory=list)

    @property
    def is_live(self) -> bool:
        return self.bracket.status == Bracket.Status.PUBLISHED


def bracket_summary(*, bracket: Bracket, with_captain_tokens: bool = False) -> BracketSummary:
    """The bracket as pages and the API show it: each match with its teams (or what its slots
    wait for), its games and score, and the placings so far. Captain tokens are left out (empty)
    unless ``with_captain_tokens``: only the organiser's screens ask for them."""
    entries = list(bracket.entries.select_related("team").order_by("seed"))
    teams = {entry.team_id: entry.team for entry in entries}
    matches = list(bracket.matches.order_by("order"))
    games: dict[int, list[GameLine]] = {}
    for row in (
        BracketMatchGame.objects.filter(
            match__bracket=bracket, status=BracketMatchGame.Status.COUNTING
        )
        .order_by("match_id", "number")
        .values(
            "match_id",
            "number",
            "game_id",
            "game__status",
            "game__score_a",
            "game__score_b",
            "game__winner",
            "game__captain_token",
        )
    ):
        winner = {"A": 0, "B": 1}.get(row["game__winner"])
        games.setdefault(row["match_id"], []).append(
            GameLine(
                number=row["number"],
                game_id=row["game_id"],
                status=row["game__status"],
                score=(row["game__score_a"], row["game__score_b"]),
                winner=winner,
                captain_token=row["game__captain_token"] if with_captain_tokens else "",
            )
        )
    lines = []
    for match in matches:
        played = games.get(match.pk, [])
        wins = (
            sum(game.winner == 0 for game in played),
            sum(game.winner == 1 for game in played),
        )
        lines.append(
            MatchLine(
                match=match,
                first=_side_name(match.first_team_id, match.first_slot, teams),
                second=_side_name(match.second_team_id, match.second_slot, teams),
                games=tuple(played),
                wins=wins,
            )
        )
    points = {
        match_id: (
            sum(game.score[0] for game in played if game.status == Game.Status.FINISHED),
            sum(game.score[1] for game in played if game.status == Game.Status.FINISHED),
        )
        for match_id, played in games.items()
        if any(game.status == Game.Status.FINISHED for game in played)
    }
    tables = _tables(bracket, entries, matches, points)
    placings = _placings(bracket, entries, matches, tables)
    champion = next((line.team for line in placings if line.place == 1), None)
    return BracketSummary(bracket, entries, lines, placings, champion, tables)


def _table_lines(
    standings: Standings, team_by_seed: dict[int, Team], through: int = 0
) -> list[TableLine]:
    """The table's rows; before anything is played, in seed order and unranked (a coin flip
    between teams that have not played would only confuse)."""
    rows = list(standings.rows)
    is_unplayed = not any(row.games or row.byes for row in rows)
    if is_unplayed:
        rows.sort(key=lambda row: row.entrant)
    return [
        TableLine(
            rank=None if is_unplayed else row.rank,
            team=team_by_seed[row.entrant],
            games=row.games,
            wins=row.wins,
            losses=row.losses,
            byes=row.byes,
            point_diff=row.point_diff,
            reason=row.reason if row.games or row.byes else "",
            is_through=index < through,
        )
        for index, row in enumerate(rows)
    ]


def _tables(
    bracket: Bracket,
    entries: list[BracketEntry],
    matches: list[BracketMatch],
    points: dict[int, tuple[int, int]],
) -> list[Table]:
    """The pool tables of a pools bracket, or the Swiss standings; none for other kinds."""
    team_by_seed = {entry.seed: entry.team for entry in entries}
    seed_by_team = {entry.team_id: entry.seed for entry in entries}
    names = {entry.seed: entry.team.name for entry in entries}
    if bracket.kind == Bracket.Kind.SWISS:
        standings = _swiss_standings(matches, seed_by_team, names, points)
        current = max((match.round for match in matches), default=0)
        finished = bracket.status == Bracket.Status.FINISHED
        title = (
            "Final standings"
            if finished
            else f"Standings · round {current} of {bracket.swiss_rounds} (its byes counted)"
        )
        return [Table(title, _table_lines(standings, team_by_seed), finished)]
    if bracket.kind != Bracket.Kind.POOLS:
        return []
    structure = bracket_structure(bracket, len(entries))
    by_code = {match.code: match for match in matches}
    results = {
        match.code: seed_by_team[match.winner_id]
        for match in matches
        if match.winner_id and match.status == BracketMatch.Status.DECIDED
    }
    return [
        Table(
            f"Pool {table.name}",
            _table_lines(
                table.standings,
                team_by_seed,
                bracket.advancing_per_pool if table.is_finished else 0,
            ),
            table.is_finished,
        )
        for table in _pool_tables(structure, by_code, results, names, points)
    ]


def _side_name(team_id: int | None, slot: dict, teams: dict[int, Team]) -> str:
    if team_id is not None:
        return teams[team_id].name
    return slot.get("label", "")


def _placings(
    bracket: Bracket,
    entries: list[BracketEntry],
    matches: list[BracketMatch],
    tables: list[Table],
) -> list[PlacingLine]:
    team_by_seed = {entry.seed: entry.team for entry in entries}
    seed_by_team = {entry.team_id: entry.seed for entry in entries}
    withdrawn = {entry.team_id for entry in entries if entry.is_withdrawn}
    results = {match.code: seed_by_team[match.winner_id] for match in matches if match.winner_id}
    if bracket.kind == Bracket.Kind.SWISS:
        if bracket.status != Bracket.Status.FINISHED:
            return []
        return [
            PlacingLine(
                line.rank,
                line.team,
                f"{line.wins}–{line.losses}" + (" (withdrew)" if line.team.pk in withdrawn else ""),
            )
            for line in tables[0].lines
        ]
    pool_rankings = {}
    if bracket.kind == Bracket.Kind.POOLS:
        pool_rankings = {
            table.title.removeprefix("Pool "): [seed_by_team[line.team.pk] for line in table.lines]
            for table in tables
            if table.is_finished
        }
    if bracket.kind == Bracket.Kind.ROUND_ROBIN:
        if not all(match.status != BracketMatch.Status.READY for match in matches):
            return []
        wins = Counter(match.winner_id for match in matches if match.winner_id)
        ordered = sorted(entries, key=lambda entry: (-wins[entry.team_id], entry.seed))
        lines, place = [], 0
        for index, entry in enumerate(ordered):
            if index == 0 or wins[entry.team_id] != wins[ordered[index - 1].team_id]:
                place = index + 1
            lines.append(PlacingLine(place, entry.team, f"{wins[entry.team_id]} wins"))
        return lines
    state = play(bracket_structure(bracket, len(entries)), results, pool_rankings=pool_rankings)
    lines = [
        PlacingLine(
            placing.place,
            team_by_seed[placing.seed],
            "withdrew" if team_by_seed[placing.seed].pk in withdrawn else "",
        )
        for placing in state.placings
    ]
    if bracket.kind == Bracket.Kind.POOLS and state.is_complete:
        lines += _pool_placings(tables, bracket.advancing_per_pool, withdrawn)
    return lines


def _pool_placings(tables: list[Table], advancing: int, withdrawn: set[int]) -> list[PlacingLine]:
    """The teams that did not go through, after the knockout's: every pool's next team shares
    a place (all the 3rds, then all the 4ths …)."""
    place = sum(min(advancing, len(table.lines)) for table in tables) + 1
    lines = []
    for position in range(advancing, max(len(table.lines) for table in tables)):
        tier = [(table, table.lines[position]) for table in tables if position < len(table.lines)]
        for table, line in tier:
            note = f"{ordinal(position + 1)} in pool {table.title.removeprefix('Pool ')}"
            if line.team.pk in withdrawn:
                note += ", withdrew"
            lines.append(PlacingLine(place, line.team, note))
        place += len(tier)
    return lines


def brackets_for_season(*, season: Season):
    """A season's brackets, newest first (a selector)."""
    return Bracket.objects.filter(season=season).order_by("-created_at")


def bracket_for_viewer(*, user, pk) -> Bracket:
    """The one door to a bracket for reading: a draft is the organisers' to preview, so to
    anyone else it does not exist (``NotFoundError``)."""
    bracket = (
        Bracket.objects.select_related("season__league").filter(pk=pk).first()
        if str(pk).isdigit()
        else None
    )
    if bracket is None or (
        bracket.status == Bracket.Status.DRAFT
        and not is_league_organiser(user=user, league_id=bracket.season.league_id)
    ):
        raise NotFoundError("no such bracket")
    return bracket


def brackets_for_viewer(*, user):
    """Brackets a user may read: every published or finished one, and the drafts of the leagues
    they organise (every draft for a superuser)."""
    brackets = Bracket.objects.all()
    if user is not None and user.is_authenticated and user.is_superuser:
        return brackets
    visible = ~Q(status=Bracket.Status.DRAFT)
    if user is not None and user.is_authenticated:
        visible |= Q(season__league__roles__user=user)
    return brackets.filter(visible).distinct()


# --------------------------------------------------------------------------------------------
# A team season's schedule
# --------------------------------------------------------------------------------------------


def season_schedule_create(
    *, season: Season, nights: Sequence, cycles: int = 1, rounds_per_night: int, user
) -> TeamSchedule:
    """Schedule a team season: every team meets every other once (``cycles`` 1) or twice (2),
    by Berger tables, the rounds shared out over the ``nights`` (dates; at most
    ``rounds_per_night`` rounds each, the heavier nights first). Creates the nights (a night
    already planned on one of the dates is used as it is) and every game with its captain link;
    a team with a bye sits that round out. Once per season."""
    require_league_organiser(user=user, league_id=season.league_id)
    if season.format != Season.Format.TEAMS:
        raise DomainError(
            "A schedule of team meetings is for team seasons (fixed partnerships).",
            field="season",
        )
    if cycles not in (1, 2):
        raise DomainError("Teams meet once or twice (1 or 2 cycles).", field="cycles")
    if rounds_per_night < 1:
        raise DomainError("A night holds at least one round.", field="rounds_per_night")
    dates = sorted(nights)
    if not dates:
        raise DomainError("Give the dates of the season's nights.", field="nights")
    if len(set(dates)) != len(dates):
        raise DomainError("Each date can be given once.", field="nights")
    teams = list(
        season.teams.filter(is_withdrawn=False)
        .select_related("player_one", "player_two")
        .order_by("pk")
    )
    if len(teams) < 2:
        raise DomainError("A schedule needs at least 2 teams in the season.", field="season")
    plan = season_schedule(
        team_count=len(teams),
        nights=len(dates),
        cycles=cycles,
        max_rounds_per_night=rounds_per_night,
    )
    with transaction.atomic():
        Season.objects.select_for_update().filter(pk=season.pk).first()
        try:
            with transaction.atomic():
                schedule = TeamSchedule.objects.create(
                    season=season,
                    cycles=cycles,
                    rounds_per_night=rounds_per_night,
                    created_by=user if user is not None and user.is_authenticated else None,
                )
        except IntegrityError as error:
            raise ConflictError("This season already has a schedule.", code="scheduled") from error
        planned = {
            night.date: night
            for night in Night.objects.filter(season=season, date__in=dates).order_by("-id")
        }
        byes = []
        for planned_night, date in zip(plan.nights, dates, strict=True):
            night = planned.get(date) or league_services.night_create(
                season=season, date=date, user=user
            )
            for local, played in enumerate(planned_night.rounds, start=1):
                for table, pairing in enumerate(played.pairings, start=1):
                    first, second = teams[pairing.first - 1], teams[pairing.second - 1]
                    scoring_services.game_create(
                        season=season,
                        seats=(
                            first.player_one,
                            second.player_one,
                            first.player_two,
                            second.player_two,
                        ),
                        team_a=first,
                        team_b=second,
                        night=night,
                        round_number=local,
                        table_number=table,
                        first_dealer_seat=(played.number - 1) % 4,
                    )
                if played.bye is not None:
                    byes.append(
                        {"night": night.pk, "round": local, "team": teams[played.bye - 1].pk}
                    )
        schedule.byes = byes
        schedule.save(update_fields=["byes"])
    return schedule


@dataclass(frozen=True)
class ScheduledRound:
    number: int
    games: list[Game]
    bye: Team | None


@dataclass(frozen=True)
class ScheduledNightLine:
    night: Night
    rounds: list[ScheduledRound]


@dataclass(frozen=True)
class ScheduleSummary:
    schedule: TeamSchedule
    nights: list[ScheduledNightLine]

    @property
    def game_count(self) -> int:
        return sum(len(played.games) for night in self.nights for played in night.rounds)

    def byes_of(self) -> dict[str, int]:
        """Byes per team name (balanced: they differ by at most one)."""
        counted: Counter[str] = Counter()
        for night in self.nights:
            for played in night.rounds:
                if played.bye is not None:
                    counted[played.bye.name] += 1
        return dict(counted)


def season_schedule_summary(*, season: Season) -> ScheduleSummary | None:
    """A season's schedule night by night, round by round (a selector); ``None`` if it has
    none."""
    schedule = TeamSchedule.objects.filter(season=season).first()
    if schedule is None:
        return None
    teams = {team.pk: team for team in season.teams.all()}
    byes = {(bye["night"], bye["round"]): teams.get(bye["team"]) for bye in schedule.byes}
    games = (
        Game.objects.filter(season=season, night__isnull=False, team_a__isnull=False)
        .select_related("team_a", "team_b", "night")
        .order_by("night__date", "night_id", "round_number", "table_number")
    )
    nights: dict[int, ScheduledNightLine] = {}
    rounds: dict[tuple[int, int], ScheduledRound] = {}
    for game in games:
        line = nights.setdefault(game.night_id, ScheduledNightLine(game.night, []))
        key = (game.night_id, game.round_number)
        if key not in rounds:
            rounds[key] = ScheduledRound(game.round_number, [], byes.get(key))
            line.rounds.append(rounds[key])
        rounds[key].games.append(game)
    return ScheduleSummary(schedule, list(nights.values()))
