"""Services that write brackets: the only writers of brackets, their entries, matches, match games
and corrections. Each one locks the bracket row, asks the engine (``tournaments.domain``), writes,
and creates the games of the matches that became ready through
``scoring.games.services.game_create``. Reading a bracket is ``tournaments.selectors.brackets``.

The rooms of this package:

- ``create``: seeding (from the standings or by hand), options, ``bracket_create``,
  ``bracket_seeds_set``, ``bracket_publish``;
- ``advance``: the one advance (``matches_advance``), taken by ``bracket_advance`` when a game
  ends and by ``bracket_sweep`` for what a lost signal left behind; ``bracket_reconcile``, its
  step over a whole bracket, which publishing, corrections and withdrawals also take;
- ``store``: storing what a reconcile changed, and the rule that marks a bracket finished;
- ``match_games``: reading a match's result from its games, calling off the ones that no longer
  count, creating the next ones;
- ``swiss``: pairing and playing Swiss rounds;
- ``corrections``: the correction preview, ``bracket_correct``, ``bracket_withdraw_team``;
- ``loaded``: a locked bracket with its entries and matches in memory (``LoadedBracket``).

Every row lock is taken through ``tournaments.services.locks``, which gives their order.

Import a name from the module that owns it; the re-exports below are a convenience.

Words used here (see ``tournaments.models.brackets`` and ``tournaments.domain.brackets``):

- *results*: the engine's mapping of match code → winning seed, read from the matches' winners.
  Every write replays the results through the structure (``play``), or advances a knockout match
  alone (``advance``), and stores what changed: the teams now known in each match, its status,
  and (once complete) the bracket's end.
- *game in play*: a counting game of a match that has not finished. A ready match with none gets
  its next game: its first, or the next of a best-of-N (a drawn game, possible under a rulebook
  of a fixed number of hands, is simply followed by another).
- *void a link*: a match game that stops counting (its match was reset by a correction, forfeited,
  or its teams changed, or it was already won). The game row is kept as it was played; an
  unfinished one is called off (``scoring.games.services.game_void``: voided, its captain link
  revoked), so nobody scores a game that no longer counts.
- *reconcile*: read a match's result from its finished counting games, whatever the signal said
  (a game finished, its winner changed, it was reopened; or a signal was lost). A ready match a
  team has won is decided; a match decided by its games that they no longer support is marked
  *needs review* (see ``tournaments.models.brackets``) and waits for the organiser, who confirms
  or corrects it through the correction flow; later matches are never reset silently. Every write
  reconciles the ready matches before it creates games, so no game is created for a match
  already won.
- *playoff games*: bracket games do not count in the season standings
  (``counts_for_standings=False``); a team schedule's games are the season, so they do
  (``tournaments.services.schedules``).
- *forfeit*: a withdrawn team loses every match it has not played, as soon as that match is ready.
  Results it already played are kept.
- *pool table* and *Swiss record*: the standings over a bracket's matches
  (``tournaments.selectors.bracket_standings``). A finished pool's ranking fills the knockout's
  "2nd in pool A" slots; the next Swiss round is paired from the records once every match of the
  round before is decided. Correcting a Swiss result resets nothing: the later rounds' pairings
  stand, as they do at a real Swiss event.

Supported kinds: single and double elimination, round robin, pools then a single-elimination
knockout, and Swiss rounds.
"""

from tournaments.services.brackets.advance import (
    bracket_advance,
    bracket_sweep,
    brackets_to_reconcile,
)
from tournaments.services.brackets.corrections import (
    CorrectionPreview,
    ResetMatch,
    bracket_correct,
    bracket_correction_preview,
    bracket_withdraw_team,
)
from tournaments.services.brackets.create import (
    SUPPORTED_KINDS,
    Seeding,
    bracket_create,
    bracket_publish,
    bracket_seeds_set,
    seeding_by_hand,
    seeding_from_standings,
)

__all__ = [
    "SUPPORTED_KINDS",
    "CorrectionPreview",
    "ResetMatch",
    "Seeding",
    "bracket_advance",
    "bracket_correct",
    "bracket_correction_preview",
    "bracket_create",
    "bracket_publish",
    "bracket_seeds_set",
    "bracket_sweep",
    "bracket_withdraw_team",
    "brackets_to_reconcile",
    "seeding_by_hand",
    "seeding_from_standings",
]
