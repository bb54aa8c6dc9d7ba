"""Request bodies: every API write takes one JSON object. A body that is a list, a string or
``null`` is a 400, and a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is a 413, both in the API's
error shape. (DRF reads a JSON body as a stream, so Django's own size check never sees it.)"""

from django.conf import settings
from rest_framework import exceptions, parsers, status


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


class ObjectJSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        refuse_oversized(stream, media_type)
        data = super().parse(stream, media_type, parser_context)
        if not isinstance(data, dict):
            raise exceptions.ParseError("the body must be a JSON object")
        return data


class BoundedFormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        refuse_oversized(stream, media_type)
        return super().parse(stream, media_type, parser_context)


class BoundedMultiPartParser(parsers.MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        refuse_oversized(stream, media_type)
        return super().parse(stream, media_type, parser_context)
