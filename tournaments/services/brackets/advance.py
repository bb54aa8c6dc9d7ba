"""Advancing a bracket: replay its results through the structure and store what changed
(``_sync``), when a game ends (``bracket_advance``) or from the periodic sweep
(``bracket_sweep``) that picks up what a lost signal left behind."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection

from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from league.errors import DomainError
from scoring.models import Game
from tournaments.domain.brackets import BracketState, MatchState, MatchStatus, advance, play
from tournaments.models import Bracket, BracketMatch, BracketMatchGame
from tournaments.selectors.bracket_structure import bracket_structure
from tournaments.services.brackets import _rows
from tournaments.services.brackets._loading import IN_PLAY, MATCH_FIELDS, _load, _Loaded
from tournaments.services.brackets.match_games import (
    _counting_links,
    _create_next_games,
    _reconcile_games,
    _team_names,
    _void,
    _void_unneeded,
)
from tournaments.services.brackets.swiss import _sync_swiss


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
        values = _row_values(loaded, played)
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


def bracket_advance(*, game_id: int) -> Bracket | None:
    """A game's final result changed (it finished, its winner changed, or it was reopened): if
    it counts for a match, reconcile the bracket from the database (``_reconcile_games``): a
    ready match a team has won is decided and its winner (and, in a double elimination, its
    loser) moves on; a decided match its games no longer support is marked for review; the
    matches that became ready get their games. Idempotent, and the same whatever the ``change``
    was, so a repeated or lost signal does no harm."""
    with transaction.atomic():
        # The link read and the lock in one query; derived writes, so the commit does not wait
        # for the disk (the sweep redoes an advance a crash would lose).
        locked = _rows.lock_bracket_of_game(game_id)
        if locked is None:
            return None
        bracket, code = locked
        _reconcile_locked(bracket, {code}, replay=False)
    return bracket


def _reconcile(bracket_id: int, check: Collection[str], *, replay: bool = True) -> Bracket:
    """Reconcile the matches ``check`` of the bracket, locked. ``replay``: replay the whole
    bracket (``_sync``); otherwise advance only what one match's games changed (``_advance``),
    falling back to the replay where that path does not apply."""
    with transaction.atomic():
        bracket = _rows.lock_bracket(bracket_id, derived=True)
        _reconcile_locked(bracket, check, replay=replay)
    return bracket


def _reconcile_locked(bracket: Bracket, check: Collection[str], *, replay: bool) -> None:
    """``_reconcile`` of a bracket already locked."""
    if bracket.status == Bracket.Status.DRAFT:
        return
    if replay or len(check) != 1 or not _advance(bracket, next(iter(check))):
        _sync(_load(bracket), check=check)


def _advance(bracket: Bracket, code: str) -> bool:
    """Reconcile match ``code`` with its games and, if that decides it, move its winner (and
    loser) on: load only that match and those it feeds (``Structure.downstream``), store what
    changed, call off its stray games, give the matches that became ready their games. The
    same writes as ``_sync`` makes for this change, at the cost of the matches it touches.

    Returns ``False`` (having written nothing) where this path does not apply: Swiss rounds, a
    pool match (its pool's ranking may fill the knockout), a bracket with a withdrawn team
    (forfeits), a match neither ready nor decided, or stored states that a replay must repair.
    The sweep (``bracket_sweep``) still replays, and repairs whatever this path could miss."""
    if bracket.withdrawn_count:
        return False
    structure = bracket_structure(bracket, bracket.team_count)
    if structure is None or code not in structure.by_code or structure.by_code[code].pool:
        return False
    codes = [code, *structure.downstream[code]]
    found, links, known = _rows.matches_with_links(  # their game links and teams' entries too
        bracket.pk, codes, ("bracket_id", "code", "order", "round", *MATCH_FIELDS)
    )
    rows = {row.code: row for row in found}
    match = rows.get(code)
    if match is None or len(rows) != len(codes):
        return False
    if match.status not in (BracketMatch.Status.READY, BracketMatch.Status.DECIDED):
        return False
    loaded = _Loaded(bracket, structure, known, {code: match})
    was_ready = match.status == BracketMatch.Status.READY
    seed = loaded.seed_by_team.get
    states = {  # as stored, before the games are read
        row.code: MatchState(
            row.code, MatchStatus(row.status), seed(row.first_team_id), seed(row.second_team_id)
        )
        for row in rows.values()
    }
    touched = _reconcile_games(loaded, {code}, links)
    changed = [match] if touched else []
    ready = [match] if match.status == BracketMatch.Status.READY else []
    open_after = bool(ready)  # a match still to play here: the bracket is not complete
    if was_ready and match.status == BracketMatch.Status.DECIDED:
        try:
            played = advance(
                structure, states, code=code, winner=loaded.seed_by_team[match.winner_id]
            )
        except DomainError:
            return False
        for other, state in played.items():
            if other == code:
                continue
            row = rows[other]
            values = _row_values(loaded, state)
            if any(getattr(row, name) != value for name, value in values.items()):
                for name, value in values.items():
                    setattr(row, name, value)
                changed.append(row)
            if state.status is MatchStatus.READY:
                ready.append(row)
            open_after = open_after or state.status in (MatchStatus.READY, MatchStatus.WAITING)
    _rows.update_matches(changed, MATCH_FIELDS)
    decided = match.status == BracketMatch.Status.DECIDED
    if decided and not match.needs_review and match.pk in loaded.in_play:  # a stray game
        names = _team_names(loaded)
        stray = [link for link in _counting_links([match]) if link.game.status in IN_PLAY]
        _void(stray, f"not needed: {names[match.winner_id]} already won {code}")
    _create_next_games(loaded, ready, links)  # their links unchanged since read
    if (
        was_ready
        and not open_after
        and match.status == BracketMatch.Status.DECIDED
        and bracket.status == Bracket.Status.PUBLISHED
        and not bracket.matches.filter(
            status__in=(BracketMatch.Status.WAITING, BracketMatch.Status.READY)
        ).exists()
    ):
        bracket.status, bracket.finished_at = Bracket.Status.FINISHED, timezone.now()
        bracket.save(update_fields=["status", "finished_at"])
    return True


def _row_values(loaded: _Loaded, played: MatchState) -> dict:
    """A match row's fields as the engine's state of it gives them."""
    return {
        "first_team_id": loaded.team_id(played.first),
        "second_team_id": loaded.team_id(played.second),
        "status": str(played.status),
        "winner_id": loaded.team_id(played.winner)
        if played.status is MatchStatus.DECIDED
        else None,
    }


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
