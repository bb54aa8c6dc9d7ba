"""Plain SQL for the reads on the hottest paths (a hand POST's door and its token), written once.

The ORM compiles every queryset anew, at 0.3–0.6 ms of Python each, longer than PostgreSQL takes
to run these one-row queries. Here a statement is built once per database backend (its tables and
columns taken from the models' ``_meta``) and its rows are turned into model instances as
``Model.from_db`` makes them (:func:`made`) after the same converters the ORM applies
(:class:`Columns`): what the callers get is what the querysets they replace returned.
(``tournaments.services.brackets._rows`` does the same for a bracket's advance.)

On PostgreSQL they also run as prepared statements (:func:`cursor`): parsed and planned once per
connection instead of at every request. PostgreSQL spent more time planning the door's join
(0.2 ms of CPU) than running it (0.03 ms prepared).

A request's first read may also stand in for the connection's health check
(:func:`fetch_one_checking`): one round trip instead of two.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import TypeVar

from django.db import (
    DEFAULT_DB_ALIAS,
    InterfaceError,
    OperationalError,
    connection,
    connections,
    models,
)
from django.db.models import DEFERRED, Field, Model
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init
from django.dispatch import Signal
from django.dispatch.dispatcher import NO_RECEIVERS

# The functions here read the default connection once (``connections[DEFAULT_DB_ALIAS]``) and use
# that object: each attribute read through the ``connection`` proxy is a lookup in Django's
# connection handler (an asgiref ``Local``, two failed attribute lookups and a context manager
# deep), and a hand POST made about thirty of them here.

T = TypeVar("T")

try:
    import psycopg
except ImportError:  # pragma: no cover - SQLite alone
    psycopg = None


def q(name: str) -> str:
    """A table or column name, quoted for the database."""
    return connection.ops.quote_name(name)


class Columns:
    """Some concrete fields of a model (all, by default) under a table alias: their SELECT list,
    and :meth:`build`, the model instance from their values in a row (the fields left out are
    deferred, as with ``only()``)."""

    def __init__(self, model: type[Model], alias: str, names: Iterable[str] | None = None):
        wanted = None if names is None else set(names)
        self.model, self.alias = model, alias
        self.fields = [
            field
            for field in model._meta.concrete_fields
            if wanted is None or field.name in wanted or field.attname in wanted
        ]
        self.attnames = [field.attname for field in self.fields]
        self.sql = ", ".join(f"{alias}.{q(field.column)}" for field in self.fields)
        self.converters = []
        for field in self.fields:
            column = field.get_col(alias)
            found = [
                *connection.ops.get_db_converters(column),
                *field.get_db_converters(connection),
            ]
            self.converters.append((column, found))
        self.converting = any(found for _, found in self.converters)

    def __len__(self) -> int:
        return len(self.fields)

    def build(self, values: Sequence) -> Model:
        if self.converting:
            database = connections[DEFAULT_DB_ALIAS]
            converted = []
            for value, (column, converters) in zip(values, self.converters, strict=True):
                for converter in converters:
                    value = converter(value, column, database)
                converted.append(value)
            values = converted
        return made(self.model, self.attnames, values, DEFAULT_DB_ALIAS)


def made(model: type[Model], attnames: Sequence[str], values: Sequence, db: str | None) -> Model:
    """``model.from_db(db, attnames, values)``: the instance of a row's values, read from ``db``
    (the fields not in ``attnames`` deferred); with ``db`` ``None``, a new instance, as the
    positional constructor makes it from the values of ``attnames`` (none ``DEFERRED``).

    Made by setting its attributes, as the constructor sets them, where that is all it would do:
    the model keeps ``Model``'s constructor and ``from_db``, each of its fields' attributes is a
    plain one (:func:`_plainly_made`) and nothing listens to ``pre_init`` or ``post_init`` for it.
    Then it costs a fifth of the constructor, which reads its fields one by one through generic
    calls and sends the two signals to nobody. Otherwise the model's own ``from_db`` (or
    constructor) makes it. ``tests/api/test_made.py`` compares the two."""
    if len(attnames) != len(values):
        raise ValueError(f"{len(values)} values for {len(attnames)} columns")
    if _plainly_made(model) and not (_heard(pre_init, model) or _heard(post_init, model)):
        instance = model.__new__(model)
        state = instance._state = ModelState()
        if db is not None:
            state.adding, state.db = False, db
        instance.__dict__.update(zip(attnames, values, strict=True))
        return instance
    if db is not None:
        return model.from_db(db, attnames, values)
    given = dict(zip(attnames, values, strict=True))
    return model(*[given.get(field.attname, DEFERRED) for field in model._meta.concrete_fields])


def new(model: type[Model], values: dict) -> Model:
    """``model(**values)`` for ``values`` named by the fields' attnames: a new instance, each
    concrete field not in ``values`` its default, a generated one unset (:func:`made`)."""
    names, defaults = _layout(model)
    given = [
        values[name] if name in values else default()
        for name, default in zip(names, defaults, strict=True)
    ]
    return made(model, names, given, None)


@cache
def _layout(model: type[Model]) -> tuple[tuple[str, ...], tuple[Callable, ...]]:
    """The attnames of ``model``'s concrete fields that its constructor sets (not the generated
    ones), in order, and each one's default maker."""
    fields = [field for field in model._meta.concrete_fields if not field.generated]
    return tuple(field.attname for field in fields), tuple(field.get_default for field in fields)


def _heard(signal: Signal, sender) -> bool:
    """``signal.has_listeners(sender)``, first asked as ``Signal.send`` asks it before it sends
    (with the dispatcher's own attributes): no receiver at all, or none for ``sender`` in the
    signal's cache of them (a model signal keeps one), is a plain no without the full lookup."""
    if not signal.receivers or signal.sender_receivers_cache.get(sender) is NO_RECEIVERS:
        return False
    return signal.has_listeners(sender)


@cache
def _plainly_made(model: type[Model]) -> bool:
    """Whether the constructor of ``model`` does nothing but set its fields' values (and send
    ``pre_init`` and ``post_init``): the model keeps ``Model``'s ``__init__`` and ``from_db``, and
    each concrete field's attribute is a plain deferred attribute, which only reads (a foreign
    key's also forgets a cached object when its key changes, and a new instance has none)."""
    return (
        model.__init__ is Model.__init__
        and model.from_db.__func__ is Model.from_db.__func__
        and all(
            type(getattr(model, field.attname, None))
            in (DeferredAttribute, ForeignKeyDeferredAttribute)
            for field in model._meta.concrete_fields
        )
    )


def _engine() -> str:
    """The default database's backend, as a key of what is built once for it (read from the
    connection handler's settings, without a lookup of the connection itself)."""
    return connections.settings[DEFAULT_DB_ALIAS]["ENGINE"]


@cache
def _columns(engine: str, model: type[Model], alias: str, names: tuple[str, ...] | None):
    return Columns(model, alias, names)


def columns(model: type[Model], alias: str, names: Iterable[str] | None = None) -> Columns:
    """:class:`Columns` for the current database, built once."""
    return _columns(_engine(), model, alias, None if names is None else tuple(names))


def table(model: type[Model]) -> str:
    return q(model._meta.db_table)


def col(model: type[Model], name: str) -> str:
    return q(model._meta.get_field(name).column)


def per_backend(build: Callable[..., T]) -> Callable[..., T]:
    """``build(*args)``, built once for each database backend and ``args`` (what is built from
    the models' ``_meta`` and the connection's quoting)."""
    built = cache(lambda engine, *args: build(*args))
    return lambda *args: built(_engine(), *args)


statement = per_backend
"""An SQL statement, built once for each database backend and its arguments (per_backend)."""


if psycopg is not None:

    class _PreparingCursor(psycopg.Cursor):
        """A psycopg cursor that binds its parameters on the server and prepares every
        statement it runs (psycopg keeps the prepared statements of each connection)."""

        def execute(self, query, params=None, **kwargs):
            super().execute(query, params, prepare=True, **kwargs)
            if self._query is None:  # psycopg keeps no text of a prepared run: Django's query
                self._query = _Logged(query, params)  # log reads this
            return self

    class _Logged:
        """The text Django's query log reads (``cursor._query.query``), written only if read."""

        def __init__(self, query: str, params):
            self._text, self._params = query, params

        @property
        def query(self) -> bytes:
            return f"{self._text} -- {self._params!r}".encode()


def cursor():
    """A cursor for the statements of this module: Django's (its connection's health check,
    errors, broken-transaction check and query log are Django's), around a cursor that prepares
    what it runs on PostgreSQL where the connection allows it (``prepare_threshold`` set in the
    database's ``OPTIONS``; Django's own cursors bind on the client and never prepare)."""
    database = connections[DEFAULT_DB_ALIAS]
    if database.vendor != "postgresql" or not _prepares(database):
        return database.cursor()
    database.close_if_health_check_failed()
    database.ensure_connection()
    with database.wrap_database_errors:
        return database._prepare_cursor(_PreparingCursor(database.connection))


def _prepares(database) -> bool:
    return database.settings_dict.get("OPTIONS", {}).get("prepare_threshold") is not None


def inserted_fields(model: type[Model]) -> list:
    """The fields an INSERT of ``model`` writes: not the key, nor those the database generates."""
    return [
        field
        for field in model._meta.concrete_fields
        if not field.primary_key and not field.generated
    ]


def insert_values(instance: Model, database, fields: Sequence | None = None) -> list:
    """The values an INSERT of ``instance`` stores in ``database`` (a connection) for ``fields``
    (by default :func:`inserted_fields`, in that order), as the ORM's insert prepares them (an
    ``auto_now_add`` time is set on the instance)."""
    if fields is None:
        fields, plan = _insert_plan(type(instance))
    else:
        plan = _plan(fields)
    return db_values(
        plan,
        [
            getattr(instance, field.attname)
            if type(field).pre_save is Field.pre_save
            else field.pre_save(instance, add=True)
            for field in fields
        ],
        database,
    )


@cache
def _insert_plan(model: type[Model]) -> tuple[list, tuple]:
    fields = inserted_fields(model)
    return fields, _plan(fields)


@cache
def value_plan(model: type[Model], names: tuple[str, ...]) -> tuple:
    """What :func:`db_values` takes to prepare values of ``model``'s fields ``names``, in that
    order: each field with its memo."""
    return _plan(map(model._meta.get_field, names))


def _plan(fields: Iterable) -> tuple:
    """Each of ``fields`` with its memo (:func:`_memo`): what :func:`db_values` takes."""
    return tuple((field, _memo(field)) for field in fields)


_PURE = {
    models.IntegerField,
    models.SmallIntegerField,
    models.BigIntegerField,
    models.PositiveIntegerField,
    models.PositiveSmallIntegerField,
    models.PositiveBigIntegerField,
    models.BooleanField,
    models.CharField,
    models.ForeignKey,
    models.OneToOneField,
}
"""Field classes whose ``get_db_prep_save`` of an integer, a string or ``None`` depends on
nothing but the value and the database backend, and gives an immutable value (a foreign key's is
its target's: see :func:`_memo_of`)."""
_AUTO = (models.AutoField, models.BigAutoField, models.SmallAutoField)
_MOST_REMEMBERED = 256
_memos: dict = {}


def db_value(field, value, database):
    """``field.get_db_prep_save(value, database)``, remembered for the few values a field of a
    :data:`_PURE` class takes again and again (a score, a seat, a side, a flag, a game's key):
    the ORM's preparation is a chain of generic calls, and a hand's write prepares 43 values."""
    return db_values(_plan((field,)), (value,), database)[0]


def db_values(plan: Iterable[tuple], values: Iterable, database) -> list:
    """:func:`db_value` of each value, for the field in the same place of ``plan``
    (:func:`value_plan`; each field with its memo), in one loop."""
    vendor, prepared = database.vendor, []
    for (field, memo), value in zip(plan, values, strict=True):
        if memo is False or (value is not None and not isinstance(value, (int, str))):
            prepared.append(field.get_db_prep_save(value, database))
            continue
        key = (vendor, type(value), value)  # the type: True == 1, an enum member == its str
        answer = memo.get(key, _UNKNOWN)
        if answer is _UNKNOWN:
            answer = field.get_db_prep_save(value, database)
            if len(memo) < _MOST_REMEMBERED:  # (a field of unique values stops remembering)
                memo[key] = answer
        prepared.append(answer)
    return prepared


_UNKNOWN = object()


def _memo(field) -> dict | bool:
    """``field``'s memo (:func:`_memo_of`), made once."""
    memo = _memos.get(field)
    if memo is None:
        memo = _memos[field] = _memo_of(field)
    return memo


def _memo_of(field) -> dict | bool:
    """A new memo for ``field``'s values, or ``False`` if its preparation is not remembered: a
    field of a :data:`_PURE` class, whose key (for a related field, through every hop) ends on a
    field of such a class or on an automatic key."""
    if type(field) not in _PURE:
        return False
    target = field
    while type(target) in (models.ForeignKey, models.OneToOneField):
        target = target.target_field
    if target is field or type(target) in _PURE or type(target) in _AUTO:
        return {}
    return False


def placeholders(count: int) -> str:
    """``count`` parameter placeholders, comma separated."""
    return ", ".join(["%s"] * count)


def fetch(sql: str, params: Sequence = ()) -> list[tuple]:
    """The rows of ``sql`` (prepared on PostgreSQL, see :func:`cursor`)."""
    with cursor() as current:
        current.execute(sql, params)
        with current.db.wrap_database_errors:  # as Django's wrapper wraps its fetches, with
            return current.cursor.fetchall()  # no wrapper function made at each call


def fetch_one(sql: str, params: Sequence = ()) -> tuple | None:
    with cursor() as current:
        current.execute(sql, params)
        with current.db.wrap_database_errors:
            return current.cursor.fetchone()


def fetch_one_checking(sql: str, params: Sequence = ()) -> tuple | None:
    """:func:`fetch_one` for a read that may be a request's first statement, run in place of the
    connection's health check (``CONN_HEALTH_CHECKS``), which would cost a ``SELECT 1`` round
    trip of its own before it.

    A read is safe to run twice. If it fails on a connection that is no longer usable (the server
    restarted, or dropped it while it sat idle between requests), the connection is closed, as
    the health check would have closed it, and the read runs again on a new one; an error on a
    usable connection is raised as it is."""
    database = connections[DEFAULT_DB_ALIAS]
    if not _health_check_due(database):
        return fetch_one(sql, params)
    database.health_check_done = True  # this read is the check
    try:
        return fetch_one(sql, params)
    except (OperationalError, InterfaceError):
        if database.is_usable():
            raise
        database.close()
    return fetch_one(sql, params)


def _health_check_due(database) -> bool:
    """Whether ``database``'s next statement would first be preceded by a health check (and
    that statement may run again: not inside a transaction)."""
    return (
        database.connection is not None
        and database.health_check_enabled
        and not database.health_check_done
        and not database.in_atomic_block
    )
