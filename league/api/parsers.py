"""Request bodies: every API write takes one JSON object. A body that is a list, a string or
``null``, or one nested more than ``MAX_DEPTH`` arrays and objects deep, is a 400, and a body over
``DATA_UPLOAD_MAX_MEMORY_SIZE`` is a 413, both in the API's error shape. (DRF reads a JSON body as
a stream, so Django's own size check never sees it.)"""

from django.conf import settings
from rest_framework import exceptions, parsers, status

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects a body may have. No write takes more than three (the
plan's ``keep_apart`` pairs in the body's object); deeper values would reach code that recurses
once a level and fail there with ``RecursionError`` (Python's JSON parser past about 1000 levels,
Django's lookups when a related field's id is a list of about 300)."""
TOO_DEEP = f"the body is nested more than {MAX_DEPTH} arrays or objects deep"


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


def nested_within(data: dict | list, limit: int) -> bool:
    """Whether ``data`` (a parsed JSON object or array, depth 1) nests arrays and objects at most
    ``limit`` deep; found without recursing, as a value too deep for the stack is what it seeks."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return False
        children = value.values() if isinstance(value, dict) else value
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return True


class ObjectJSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        refuse_oversized(stream, media_type)
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as error:  # not a ValueError: DRF's parser lets it through
            raise exceptions.ParseError(TOO_DEEP) from error
        if not isinstance(data, dict):
            raise exceptions.ParseError("the body must be a JSON object")
        if not nested_within(data, MAX_DEPTH):
            raise exceptions.ParseError(TOO_DEEP)
        return data


class BoundedFormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        refuse_oversized(stream, media_type)
        return super().parse(stream, media_type, parser_context)


class BoundedMultiPartParser(parsers.MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        refuse_oversized(stream, media_type)
        return super().parse(stream, media_type, parser_context)
