"""Request bodies: every API write takes one JSON object. A body that is a list, a string or
``null``, one nested more than ``MAX_DEPTH`` arrays and objects deep, or one with an *unstorable*
character in a key or a string is a 400, and a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is a 413,
both in the API's error shape. (DRF reads a JSON body as a stream, so Django's own size check
never sees it.)

*Unstorable* characters: NUL (``\\u0000``), which PostgreSQL refuses in ``text`` and ``jsonb``,
and lone surrogates (``\\ud800``–``\\udfff`` not in a pair; JSON's escapes can make them), which
have no UTF-8 form, so neither a row nor an answer that echoed them could be written. The rest of
a request (path, query, headers, cookies, a page's form) is checked with the same
:func:`is_storable` by ``config.middleware.RefuseUnstorableCharacters``.
"""

from django.conf import settings
from rest_framework import exceptions, parsers, status

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects a body may have. No write takes more than three (the
plan's ``keep_apart`` pairs in the body's object); deeper values would reach code that recurses
once a level and fail there with ``RecursionError`` (Python's JSON parser past about 1000 levels,
Django's lookups when a related field's id is a list of about 300)."""
TOO_DEEP = f"the body is nested more than {MAX_DEPTH} arrays or objects deep"
UNSTORABLE = "the body holds a NUL character or a lone surrogate, which no text may hold"


def is_storable(text: str) -> bool:
    """Whether ``text`` holds no NUL and no lone surrogate (it has a UTF-8 form)."""
    if "\x00" in text:
        return False
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "the request body is too large"
    default_code = "too_large"


def refuse_oversized(stream, media_type) -> None:
    meta = getattr(stream, "META", {})
    try:
        length = int(meta.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if limit is not None and length > limit:
        raise RequestTooLarge(f"the request body is larger than {limit} bytes")


def body_problem(data: dict | list, limit: int) -> str | None:
    """What is wrong with ``data`` (a parsed JSON object or array, depth 1), or ``None``: nested
    more than ``limit`` arrays and objects deep (:data:`TOO_DEEP`), or a key or a string that is
    not :func:`is_storable` (:data:`UNSTORABLE`). Found in one walk and without recursing, as a
    value too deep for the stack is one thing it seeks."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return TOO_DEEP
        if isinstance(value, dict):
            if not all(is_storable(key) for key in value):
                return UNSTORABLE
            children = value.values()
        else:
            children = value
        for child in children:
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1))
            elif isinstance(child, str) and not is_storable(child):
                return UNSTORABLE
    return None


def refuse_unstorable_form(data) -> None:
    """A form body's fields (a ``QueryDict``): 400 if a name or a value is not storable."""
    for name, values in data.lists():
        if not is_storable(name) or not all(is_storable(value) for value in values):
            raise exceptions.ParseError(UNSTORABLE)


class ObjectJSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        refuse_oversized(stream, media_type)
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as error:  # not a ValueError: DRF's parser lets it through
            raise exceptions.ParseError(TOO_DEEP) from error
        if not isinstance(data, dict):
            raise exceptions.ParseError("the body must be a JSON object")
        problem = body_problem(data, MAX_DEPTH)
        if problem is not None:
            raise exceptions.ParseError(problem)
        return data


class BoundedFormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        refuse_oversized(stream, media_type)
        data = super().parse(stream, media_type, parser_context)
        refuse_unstorable_form(data)
        return data


class BoundedMultiPartParser(parsers.MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        refuse_oversized(stream, media_type)
        parsed = super().parse(stream, media_type, parser_context)
        refuse_unstorable_form(parsed.data)
        return parsed
