"""Token authentication as DRF's, with its one query written once (``league.rows``).

DRF's ``TokenAuthentication`` reads the token and its user with
``Token.objects.select_related("user").get(key=key)`` on every request, and the ORM compiles that
query anew each time, which cost more Python than the query costs PostgreSQL. Here the same
statement is built once; the answers, errors and ``(user, token)`` are DRF's. Nothing is cached:
a deleted token or a deactivated user is refused at the next request.

A view may read what it needs in the token's own statement, saving a round trip on a hot path
(the hand POST reads its game's door there, ``scoring.api.views``): its ``read_with_token(key)``
runs a statement built on :func:`token_sql` and returns the token's values (the first
``token_width()`` of its row), ``None`` for no such token, or ``NotImplemented`` to leave the
reading to this class. The same checks are made on what it returns.
"""

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from league.rows import col, columns, fetch_one_checking, per_backend, statement, table


@per_backend
def _columns():
    token_model = authentication.TokenAuthentication().get_model()
    return columns(token_model, "t"), columns(get_user_model(), "u")


@statement
def token_sql() -> tuple[str, str, str]:
    """The token's statement in parts: its SELECT list (the token's columns, then its user's),
    its FROM clause (tokens ``t`` joined to users ``u``) and its WHERE clause (the key, ``%s``)."""
    tokens, users = _columns()
    token_model, user_model = tokens.model, users.model
    return (
        f"{tokens.sql}, {users.sql}",
        f"{table(token_model)} t INNER JOIN {table(user_model)} u ON t.{col(token_model, 'user')} "
        f"= u.{col(user_model, user_model._meta.pk.name)}",
        f"t.{col(token_model, 'key')} = %s",
    )


def token_width() -> int:
    """How many values of a row are the token's (and its user's)."""
    tokens, users = _columns()
    return len(tokens) + len(users)


@statement
def _token_only_sql() -> str:
    select, joined, where = token_sql()
    return f"SELECT {select} FROM {joined} WHERE {where}"


def token_of(values) -> Token:
    """The token of a row's token values (``token_width`` of them), its user attached."""
    tokens, users = _columns()
    token, user = tokens.build(values[: len(tokens)]), users.build(values[len(tokens) :])
    token._state.fields_cache["user"] = user
    return token


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate(self, request):
        view = (getattr(request, "parser_context", None) or {}).get("view")
        self._read_with_token = getattr(view, "read_with_token", None)
        return super().authenticate(request)

    def authenticate_credentials(self, key):
        read = getattr(self, "_read_with_token", None)
        row = NotImplemented if read is None else read(key)
        if row is NotImplemented:
            row = fetch_one_checking(_token_only_sql(), [key])
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token = token_of(row)
        user = token.user
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (user, token)
