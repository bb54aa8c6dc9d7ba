"""Swiss rounds: pairing the next round from the records (``swiss.swiss_pairings``) once every
match of the round before is decided, and playing it. Correcting a Swiss result resets nothing:
the later rounds' pairings stand, as they do at a real Swiss event."""

from __future__ import annotations

from collections import Counter

from django.utils import timezone

from league.errors import DomainError
from league.models import Team
from scoring.domain.standings import Standings
from scoring.models import Game
from tournaments.domain.swiss import SwissEntry, swiss_pairings
from tournaments.models import Bracket, BracketMatch
from tournaments.selectors.bracket_standings import swiss_standings
from tournaments.services.brackets._loading import MATCH_FIELDS, _Loaded
from tournaments.services.brackets.match_games import (
    _counting_links,
    _create_next_games,
    _void,
    _void_unneeded,
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
        standings = swiss_standings(matches, loaded.seed_by_team, loaded.names, loaded.points())
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
