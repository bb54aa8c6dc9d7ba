"""Token authentication as DRF's, with its one query written once (``league.rows``).

DRF's ``TokenAuthentication`` reads the token and its user with
``Token.objects.select_related("user").get(key=key)`` on every request, and the ORM compiles that
query anew each time, which cost more Python than the query costs PostgreSQL. Here the same
statement is built once; the answers, errors and ``(user, token)`` are DRF's. Nothing is cached:
a deleted token or a deactivated user is refused at the next request.
"""

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from league.rows import col, columns, fetch_one, statement, table


def _columns():
    token_model = authentication.TokenAuthentication().get_model()
    return columns(token_model, "t"), columns(get_user_model(), "u")


@statement
def _token_sql() -> str:
    tokens, users = _columns()
    token_model, user_model = tokens.model, users.model
    return (
        f"SELECT {tokens.sql}, {users.sql} FROM {table(token_model)} t "
        f"INNER JOIN {table(user_model)} u ON t.{col(token_model, 'user')} = "
        f"u.{col(user_model, user_model._meta.pk.name)} WHERE t.{col(token_model, 'key')} = %s"
    )


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key):
        row = fetch_one(_token_sql(), [key])
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        tokens, users = _columns()
        token, user = tokens.build(row[: len(tokens)]), users.build(row[len(tokens) :])
        token._state.fields_cache["user"] = user
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (user, token)
