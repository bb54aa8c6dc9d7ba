"""Middleware of the whole site.

:class:`RefuseUnstorableCharacters`: a request with an *unstorable* character (a NUL, which
PostgreSQL refuses in ``text`` and ``jsonb``, or a lone surrogate, which has no UTF-8 form; see
``core.api.parsers.is_storable``) in its path, query, headers, cookies or form body is a 400
before any view reads it: a token, a slug, a filter, an ``Idempotency-Key`` or a form field with
one would otherwise reach a query or an answer and fail there with a server error. The API's
bodies are checked where they are read, by its parsers (``core.api.parsers``); a form ``POST``
is checked here, as every page reads it from ``request.POST``.
"""

from urllib.parse import unquote

from django.core.exceptions import BadRequest

from core.api.errors import bad_request
from core.api.parsers import is_storable

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
"""The bodies Django parses into ``request.POST`` (for a ``POST``)."""


def unstorable_part(request) -> str | None:
    """The part of ``request`` that holds an unstorable character, or ``None``."""
    if not is_storable(request.path):
        return "path"
    query = request.META.get("QUERY_STRING", "")
    if query and not is_storable(unquote(query)):
        return "query"
    for name, value in request.META.items():
        if (
            (name.startswith("HTTP_") or name.startswith("CONTENT_"))
            and isinstance(value, str)
            and not is_storable(value)
        ):
            return "headers"
    if not all(is_storable(value) for value in request.COOKIES.values()):
        return "cookies"
    if request.method == "POST" and request.content_type in FORM_TYPES:
        for name, values in request.POST.lists():
            if not is_storable(name) or not all(is_storable(value) for value in values):
                return "form"
    return None


class RefuseUnstorableCharacters:
    """400 for a request with a NUL or a lone surrogate anywhere but in an API body
    (:func:`unstorable_part`), answered by the site's 400 handler (the API's error shape under
    ``/api/``). Answered, not raised: junk is no error of the service, so it is logged as any 4xx
    (one warning line from ``django.request``), with no traceback, and with ``DEBUG`` on too."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        part = unstorable_part(request)
        if part is not None:
            refusal = BadRequest(f"the request's {part} holds a NUL character or a lone surrogate")
            return bad_request(request, refusal)
        return self.get_response(request)
