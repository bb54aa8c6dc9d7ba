"""The steps every write of a game shares: the rules a game is scored under, locking its row,
storing a hand with its derived points, copying the engine's game state onto the row, and, after
commit, asking for the standings recompute and announcing a change of the final result
(``game_finished``).

- *effects*: what a write changed in the game's life: ``finished``, ``winner_changed``,
  ``reopened`` (the :data:`RESULT_CHANGES`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections.abc import Iterable

from django.db import DEFAULT_DB_ALIAS, connection, connections, router, transaction
from django.utils import timezone

from league.domain.rules import GameLength
from league.domain.rules import Rulebook as RulebookRules
from league.models import Rulebook
from league.rows import (
    col,
    db_values,
    fetch_one,
    insert_values,
    inserted_fields,
    new,
    placeholders,
    q,
    statement,
    table,
    value_plan,
)
from scoring.domain.engine import GameState, HandScore, Outcome, Side
from scoring.models import Game, Hand, ResultChange
from scoring.selectors import dealer_after
from scoring.services.hand_facts import HandInput
from scoring.signals import game_finished
from scoring.standings import standings_recompute_soon


def rulebook_rules(rulebook: Rulebook) -> RulebookRules:
    """The rules of a rulebook's options, built once per process for each set of options (the
    rules are immutable; every hand of a night is scored under the same few)."""
    options = rulebook.options
    try:  # each value's type is in the key: True == 1, yet only one of them is a valid count
        # (in the options' order: it decides which of several errors from_options names)
        key = tuple((name, type(value), value) for name, value in options.items())
        hash(key)
    except (AttributeError, TypeError):  # not a dict of JSON scalars: from_options says why
        return RulebookRules.from_options(options)
    return _rules_of(key)


@functools.lru_cache(maxsize=256)
def _rules_of(key: tuple) -> RulebookRules:
    return RulebookRules.from_options({name: value for name, _, value in key})


def game_rules(game: Game, rulebook: Rulebook | None = None) -> RulebookRules:
    """The rules a game is scored under: its season's rulebook (or ``rulebook``), with the game's
    own length when a night chose a number of hands."""
    rules = rulebook_rules(rulebook or game.season.rulebook)
    if game.hands_per_game:
        rules = dataclasses.replace(
            rules, game_length=GameLength.HANDS, hands_per_game=game.hands_per_game
        )
    return rules


def _signed_in(user):
    """The user to record as the author of a change, or ``None`` for a captain or a job."""
    return user if user is not None and user.is_authenticated else None


def _new_hand(
    game: Game,
    number: int,
    data: HandInput,
    score: HandScore,
    *,
    dealer_seat: int,
    source: str,
    entered_by,
    client_key: str | None = None,
) -> Hand:
    """One hand row, not saved yet: the facts as entered and the points the engine derived.

    Made as ``Hand(game=game, …, rulebook=…, entered_by=…)`` would make it, by
    :func:`league.rows.new` (every field's value set as the constructor sets it, the others'
    defaults), which costs a fifth of the positional constructor, itself a third of the keyword
    one; the related objects are cached on it as their descriptors cache them.
    ``tests/api/test_new_hand.py`` compares the two."""
    rulebook = game.season.rulebook
    given = {
        "game_id": game.pk,
        "number": number,
        "makers": data.makers or "",
        "caller_id": data.caller_id,
        "caller_alone": data.caller_alone,
        "defender_alone": data.defender_alone,
        "tricks_won": data.tricks_won,
        "renege": data.renege or "",
        "thrown_in": data.thrown_in,
        "misdeal": data.misdeal,
        "ordered_up": data.ordered_up,
        "dealer_seat": dealer_seat,
        "rulebook_id": rulebook.pk,
        "outcome": score.outcome.value,
        "points_a": score.points_a,
        "points_b": score.points_b,
        "client_key": client_key,
        "source": source,
        "entered_by_id": None if entered_by is None else entered_by.pk,
    }
    hand = new(Hand, given)
    cached = hand._state.fields_cache
    cached["game"], cached["rulebook"], cached["entered_by"] = game, rulebook, entered_by
    hand._state.db = router.db_for_write(Hand, instance=game)  # as assigning ``game`` sets it
    return hand


def _create_hand(game: Game, number: int, data: HandInput, score: HandScore, **kwargs) -> Hand:
    """:func:`_new_hand`, saved."""
    hand = _new_hand(game, number, data, score, **kwargs)
    hand.save(force_insert=True)
    return hand


def _stored_score(hand: Hand) -> HandScore:
    outcome = Outcome(hand.outcome)
    return HandScore(outcome, hand.points_a, hand.points_b, "")


def _lock_game(game_id: int) -> Game:
    """Lock the game row for the rest of the transaction (a no-op on SQLite, whose IMMEDIATE
    transactions already serialise writers), read with its season and rulebook. Not its players:
    a write needs only their ids, and PostgreSQL took milliseconds to plan the join of seven
    tables."""
    return (
        Game.objects.select_for_update(of=("self",))
        .select_related("season__rulebook")
        .get(pk=game_id)
    )


_RELATIONS = ("season", "night", "team_a", "team_b", "seat_0", "seat_1", "seat_2", "seat_3")


def _lock_game_row(game: Game) -> Game:
    """Lock the game row and read it again, alone (no join).

    The related rows ``game`` already has loaded (its season and rulebook, seats, teams: the door
    that found the game read them) are kept on the fresh row rather than read again. A rulebook
    version is never edited; a season's change of rulebook re-derives every hand after it.
    """
    locked = Game.objects.select_for_update().get(pk=game.pk)
    cache = game._state.fields_cache
    for name in _RELATIONS:
        related = cache.get(name)
        if related is not None and related.pk == getattr(locked, f"{name}_id"):
            locked._state.fields_cache[name] = related
    return locked


def running_state(game: Game) -> GameState:
    """The engine's state of a game, from the running state kept on its row."""
    finished = game.status == Game.Status.FINISHED
    return GameState(
        game.score_a,
        game.score_b,
        game.hands_played,
        is_over=finished,
        winner=Side(game.winner) if finished and game.winner else None,
    )


def _apply_running(game: Game, last_hand_number: int, next_dealer_seat: int | None) -> None:
    """Set the last counting hand's number and the next dealer on the row (saved by
    :func:`_apply_state`)."""
    game.last_hand_number = last_hand_number
    game.next_dealer_seat = next_dealer_seat if last_hand_number else None


def _replayed_running(game: Game, hands: list[Hand]) -> None:
    """The running numbers from a game's counting hands in order (undo and correct replay)."""
    if hands:
        _apply_running(game, hands[-1].number, dealer_after(hands[-1]))
    else:
        _apply_running(game, 0, None)


RUNNING_FIELDS = (
    "status",
    "score_a",
    "score_b",
    "hands_played",
    "last_hand_number",
    "next_dealer_seat",
    "is_final_score_only",
)
"""The columns of a game a hand write folds a new hand into."""


class StaleGameError(Exception):
    """The game row changed since it was read: a write made from that read must start again."""


def _running_fields(game: Game) -> dict:
    return {name: getattr(game, name) for name in RUNNING_FIELDS}


STATE_FIELDS = (
    "score_a",
    "score_b",
    "hands_played",
    "last_hand_number",
    "next_dealer_seat",
    "status",
    "winner",
    "finished_at",
    "confirmation",
    "dispute_reason",
    "updated_at",
)
"""The columns of a game a write of its state sets (:func:`_apply_state`)."""


def _apply_state(
    game: Game, state: GameState, *, has_hands: bool | None = None, save: bool = True
) -> list[str]:
    """Copy the engine's game state onto the row; say what changed in the game's life.
    ``has_hands``: whether the game has any hand row at all (counting or not), when the caller
    knows; else it is read. ``save``: save the :data:`STATE_FIELDS` (a hand's record leaves
    that to :func:`_store_hand`)."""
    effects = []
    was_finished = game.status == Game.Status.FINISHED
    old_winner = game.winner
    game.score_a, game.score_b, game.hands_played = state.score_a, state.score_b, state.hands_played
    if state.is_over:
        game.status = Game.Status.FINISHED
        game.winner = state.winner.value if state.winner else ""
        if not was_finished:
            game.finished_at = timezone.now()
            game.confirmation = Game.Confirmation.PENDING
            game.dispute_reason = ""
            effects.append("finished")
        elif game.winner != old_winner:
            effects.append("winner_changed")
    else:
        game.status = (
            Game.Status.IN_PROGRESS
            if state.hands_played or (game.hands.exists() if has_hands is None else has_hands)
            else (Game.Status.SCHEDULED)
        )
        game.winner = ""
        game.finished_at = None
        if was_finished:
            game.confirmation = Game.Confirmation.PENDING
            game.dispute_reason = ""
            effects.append("reopened")
    game.updated_at = timezone.now()
    if save:
        game.save(update_fields=STATE_FIELDS)
    return effects


@statement
def _hand_write_sql(nulls: tuple[bool, ...]) -> tuple[str, ...]:
    """The statements of :func:`_store_hand`, written once per database and per shape of the
    expected running state (a ``None`` is matched with ``IS NULL``): on PostgreSQL one statement
    (the game's UPDATE, the hand's and the change's INSERTs in data-modifying ``WITH`` clauses:
    one round trip, atomic by itself); elsewhere the three in turn."""
    sets = ", ".join(f"{col(Game, name)} = %s" for name in STATE_FIELDS)
    where = " AND ".join(
        [f"{q(Game._meta.pk.column)} = %s"]
        + [
            f"{col(Game, name)} " + ("IS NULL" if null else "= %s")
            for name, null in zip(RUNNING_FIELDS, nulls, strict=True)
        ]
    )
    update = f"UPDATE {table(Game)} SET {sets} WHERE {where}"
    hand_columns = ", ".join(q(field.column) for field in inserted_fields(Hand))
    change_columns = ", ".join(q(field.column) for field in inserted_fields(ResultChange))
    hand_table, change_table = table(Hand), table(ResultChange)
    hand_pk = q(Hand._meta.pk.column)
    if connection.vendor == "postgresql":

        def typed(model) -> str:
            return ", ".join(
                f"CAST(%s AS {field.db_type(connection)})" for field in inserted_fields(model)
            )

        return (
            f"WITH g AS ({update} RETURNING 1), "
            f"h AS (INSERT INTO {hand_table} ({hand_columns}) SELECT {typed(Hand)} FROM g "
            f"RETURNING {hand_pk}), "
            f"c AS (INSERT INTO {change_table} ({change_columns}) "
            f"SELECT {typed(ResultChange)} FROM g) "
            f"SELECT {hand_pk} FROM h",
        )

    hand_values = placeholders(len(inserted_fields(Hand)))
    change_values = placeholders(len(inserted_fields(ResultChange)))
    return (
        update,
        f"INSERT INTO {hand_table} ({hand_columns}) VALUES ({hand_values})",
        f"INSERT INTO {change_table} ({change_columns}) VALUES ({change_values})",
    )


def _one_write():
    """What :func:`_store_hand` runs in: nothing more on PostgreSQL outside a transaction (its
    one statement is atomic by itself, and saves a BEGIN and a COMMIT), else ``atomic()``."""
    database = connections[DEFAULT_DB_ALIAS]  # once: see league.rows
    if database.vendor == "postgresql" and not database.in_atomic_block:
        return contextlib.nullcontext()
    return transaction.atomic()


def _store_hand(game: Game, hand: Hand, expected: dict) -> None:
    """Store a hand's record: the game's :data:`STATE_FIELDS` as they are on ``game``, only if
    its row still holds ``expected`` (its :data:`RUNNING_FIELDS` as the hand was folded into
    them; else nothing is written and :class:`StaleGameError` is raised), the new ``hand`` and
    its :class:`~scoring.models.ResultChange`. The game row is updated first, then the hand is
    inserted: every writer takes the row's lock before the hand's number.

    One statement on PostgreSQL (see :func:`_hand_write_sql`); otherwise three, to be run in a
    transaction (:func:`_one_write`). A taken number or key raises ``IntegrityError``."""
    # The connection itself, not the ``connection`` proxy: each of its attributes the fields'
    # preparation reads (hundreds per hand) would go through a thread-local lookup.
    database = connections[DEFAULT_DB_ALIAS]
    values = db_values(
        value_plan(Game, STATE_FIELDS), [getattr(game, name) for name in STATE_FIELDS], database
    )
    values.append(game.pk)
    nulls = tuple(expected[name] is None for name in RUNNING_FIELDS)
    matched = tuple(name for name, null in zip(RUNNING_FIELDS, nulls, strict=True) if not null)
    values += db_values(value_plan(Game, matched), [expected[name] for name in matched], database)
    change = new(ResultChange, {"season_id": game.season_id, "game_id": game.pk})
    hand_values, change_values = insert_values(hand, database), insert_values(change, database)
    statements = _hand_write_sql(nulls)
    if len(statements) == 1:
        row = fetch_one(statements[0], [*values, *hand_values, *change_values])
        if row is None:
            raise StaleGameError(game.pk)
    else:
        with database.cursor() as cursor:
            update, insert_hand, insert_change = statements
            cursor.execute(update, values)
            if cursor.rowcount != 1:
                raise StaleGameError(game.pk)
            cursor.execute(insert_hand, hand_values)
            row = (cursor.lastrowid,)
            cursor.execute(insert_change, change_values)
    hand.pk = row[0]
    hand._state.adding = False
    hand._state.db = database.alias


RESULT_CHANGES = ("finished", "winner_changed", "reopened")
"""Effects that change a game's final result: ``game_finished`` is sent for each of them."""


def result_change_record(game: Game) -> None:
    """Log that the game's results changed (a :class:`~scoring.models.ResultChange`, in the
    caller's transaction) and, after commit, ask for the standings recompute that folds it.

    An insert, not an update of the season's row: the tables of one season never queue on a
    shared lock, and the change is pending exactly from the moment it is committed."""
    ResultChange.objects.create(season_id=game.season_id, game_id=game.pk)
    _recompute_after_commit(game)


def _recompute_after_commit(game: Game) -> None:
    season_id = game.season_id
    transaction.on_commit(lambda: enqueue_standings(season_id), robust=True)


def _results_changed(game: Game, effects: Iterable[str], *, logged: bool = False) -> None:
    """Log the change of the game's results (:func:`result_change_record`; ``logged``: the
    change's row is already written, by :func:`_store_hand`); after commit, recompute standings
    and announce a change of the game's final result (it ended, its winner changed, or it was
    reopened by an undo).

    The callbacks are robust: the hand is committed whatever they do, and a lost one is made good
    by the periodic sweeps (standings) and the receivers' own reconciliation (brackets)."""
    if logged:
        _recompute_after_commit(game)
    else:
        result_change_record(game)
    game_id = game.pk
    for change in RESULT_CHANGES:
        if change in effects:
            transaction.on_commit(
                lambda change=change: game_finished.send(
                    sender=Game, game_id=game_id, change=change
                ),
                robust=True,
            )


def enqueue_standings(season_id: int) -> None:
    """Ask a worker to recompute a season's standings (coalesced; see scoring.standings)."""
    standings_recompute_soon(season_id)
