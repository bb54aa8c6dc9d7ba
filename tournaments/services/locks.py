"""Every row lock the tournaments app takes, and the order it takes them in.

Lock order: a transaction that needs more than one of these rows locks them from the top of this
list down, never back up, so two transactions never wait for each other in a circle.

1. a season (:func:`season_lock`): a team schedule's creation, so two of one season queue;
2. a night (:func:`night_lock`): parent of its plan, planned rounds, seats and games;
3. a planned round of that night (:func:`planned_round_lock`, :func:`planned_rounds_lock`);
4. a bracket (:func:`bracket_lock`, :func:`bracket_of_game_lock`): parent of its entries,
   matches, match games and corrections;
5. last, a game, which ``scoring.services`` locks itself when a night or a bracket calls a game
   off or records it (``game_void``).

Each lock is ``select_for_update()``; where related rows are read in the same query, ``of=``
names the locked row alone. On SQLite ``select_for_update()`` does nothing (its write transactions
are immediate and take the whole database), so the constraints carry correctness there.
"""

from __future__ import annotations

from django.db.models import Count, F, QuerySet

from league.models import Night, Season
from tournaments.models import Bracket, BracketMatchGame, NightPlan, PlannedRound


def season_lock(season_id: int) -> Season | None:
    """The season, its row locked; ``None`` if there is none."""
    return Season.objects.select_for_update().filter(pk=season_id).first()


def night_lock(night_id: int) -> Night:
    """The night with its season and rulebook, the three rows locked (a night's change waits
    for a change of its season's rules)."""
    return Night.objects.select_for_update().select_related("season__rulebook").get(pk=night_id)


def planned_round_lock(plan: NightPlan, number: int) -> PlannedRound | None:
    """Round ``number`` of the night's plan, its row locked (the night locked first)."""
    return PlannedRound.objects.select_for_update().filter(plan=plan, number=number).first()


def planned_rounds_lock(plan: NightPlan, status: str) -> QuerySet[PlannedRound]:
    """The plan's rounds of ``status``, their rows locked as they are read (the night first)."""
    return plan.planned_rounds.select_for_update().filter(status=status)


def _with_entry_counts(bracket: Bracket) -> Bracket:
    """``bracket`` with ``team_count`` (its entries) and ``withdrawn_count`` (those withdrawn)
    read, under its lock."""
    counts = bracket.entries.aggregate(teams=Count("pk"), withdrawn=Count("withdrawn_at"))
    bracket.team_count, bracket.withdrawn_count = counts["teams"], counts["withdrawn"]
    return bracket


def bracket_lock(bracket_id: int) -> Bracket:
    """The bracket with its season and league, its row alone locked, with ``team_count`` (its
    entries) and ``withdrawn_count`` (those withdrawn) read after the lock."""
    bracket = (
        Bracket.objects.select_for_update(of=("self",))
        .select_related("season__league")
        .get(pk=bracket_id)
    )
    return _with_entry_counts(bracket)


def bracket_of_game_lock(game_id: int) -> tuple[Bracket, str] | None:
    """The bracket of the match the game counts for, locked and read as by :func:`bracket_lock`,
    and that match's code; ``None`` if the game counts for no match."""
    bracket = (
        Bracket.objects.select_for_update(of=("self",))
        .select_related("season__league")
        .filter(
            matches__game_links__game_id=game_id,
            matches__game_links__status=BracketMatchGame.Status.COUNTING,
        )
        .annotate(match_code=F("matches__code"))
        .first()
    )
    if bracket is None:
        return None
    return _with_entry_counts(bracket), bracket.match_code
