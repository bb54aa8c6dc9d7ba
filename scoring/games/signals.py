"""The one sanctioned signal: ``game_finished``, sent on commit when a game's final result changes.

It lets ``tournaments`` advance a bracket without ``scoring`` importing it (DESIGN.md).
Receivers get ``game_id`` and ``change``: ``"finished"`` (the game just ended),
``"winner_changed"`` (a correction or a rules change gave a finished game another winner) or
``"reopened"`` (an undo took a finished game back to in progress). Receivers must be idempotent and
reconcile from the database: a signal can be lost if a process dies right after the commit.
"""

from django.dispatch import Signal

game_finished = Signal()
