"""Receivers of ``scoring.games.signals.game_finished``: the one sanctioned signal (DESIGN.md).

A game's final result changed (``change``: it finished, its winner changed, or it was reopened).
If the game plays a bracket match, the receiver enqueues ``tournaments.bracket_advance``, which
reconciles the match from the database whatever the change was; the request that stored the hand
does none of that work. The signal is sent on commit, so the task sees the hand. A lost signal
(or message) is made good by the ``tournaments.sweep_brackets`` beat task.
"""

from django.dispatch import receiver

from core.enqueue import enqueue_safely
from scoring.games.signals import game_finished
from tournaments import tasks
from tournaments.models import BracketMatchGame


@receiver(game_finished, dispatch_uid="tournaments.bracket_advance")
def advance_bracket(sender, game_id: int, change: str = "finished", **kwargs) -> None:
    if not BracketMatchGame.objects.filter(game_id=game_id).exists():
        return  # not a bracket game (a season game, a night's game)
    enqueue_safely(tasks.bracket_advance, game_id)
