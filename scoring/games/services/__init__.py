"""Services that write games and hands. They own the transactions; nothing else writes these rows.

Every write follows the same pattern: lock the game row, read its counting hands, ask the scoring
engine, write facts and derived points together, log the change (one ``ResultChange`` row, never
a lock on the season's row), and after commit enqueue the standings recompute (and send
``game_finished`` when the game ended). Uniqueness lives in the database (one counting hand
number per game, one client key per hand), so two captains at one table or a phone that retries
can never record a hand twice.

Recording the next hand, the hot path, reads no hand: the game row keeps its running state (score,
scored hands, last hand number, next dealer) and the engine folds the new hand into it
(``game_state_after``) under the row's lock. Undo and correct, rare, replay the counting hands
and store the running state they give.

The services by what they write:

- :mod:`~scoring.games.services.hand_facts`: a hand's facts as submitted, and the answer a write
  gives;
- :mod:`~scoring.games.services.game_state`: the steps every write of a game shares;
- :mod:`~scoring.games.services.hands`: hand entry (record, undo, correct);
- :mod:`~scoring.games.services.games`: a game's life (create, final score, confirm, dispute, void);
- :mod:`~scoring.games.services.season_rules`: a season's rulebook change and the re-derivation.

Callers import this package (``from scoring import services``); every service is named here.
"""

from scoring.games.domain.hand_input import HandInput
from scoring.games.services.game_state import (
    RESULT_CHANGES,
    enqueue_standings,
    game_rules,
    result_change_record,
    rulebook_rules,
)
from scoring.games.services.games import (
    game_confirm,
    game_create,
    game_dispute,
    game_new,
    game_record_final_score,
    game_reissue_captain_token,
    game_settle_dispute,
    game_void,
)
from scoring.games.services.hand_facts import (
    FACT_FIELDS,
    HandResult,
    engine_facts_without_table,
    hand_input_of,
)
from scoring.games.services.hands import hand_correct, hand_record, hand_undo
from scoring.games.services.season_rules import season_change_rules, season_rederive_points

__all__ = [
    "FACT_FIELDS",
    "RESULT_CHANGES",
    "HandInput",
    "HandResult",
    "engine_facts_without_table",
    "enqueue_standings",
    "game_confirm",
    "game_create",
    "game_dispute",
    "game_new",
    "game_record_final_score",
    "game_reissue_captain_token",
    "game_rules",
    "game_settle_dispute",
    "game_void",
    "hand_correct",
    "hand_input_of",
    "hand_record",
    "hand_undo",
    "result_change_record",
    "rulebook_rules",
    "season_change_rules",
    "season_rederive_points",
]
