"""How an API client signs in with a token: ``Authorization: Token <key>``.

Two kinds of key are read by the one header. An organiser's own named tokens
(:class:`league.models.ApiToken`, made and revoked on ``/manage/tokens/``) begin with
``eul_`` and are looked up by their SHA-256 digest; any other key is one of DRF's own tokens
(``rest_framework.authtoken``, one per user, made in the admin), looked up as DRF does.
"""

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from league import services


class ApiTokenAuthentication(TokenAuthentication):
    """DRF's token authentication, reading an organiser's named tokens as well."""

    def authenticate_credentials(self, key):
        if not key.startswith(services.API_TOKEN_START):
            return super().authenticate_credentials(key)
        token = services.api_token_user(key=key)
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (token.user, token)
