"""One pagination for every API list: ``?limit=`` (default 100) is clamped to 1–500 and
``?offset=`` to 0–1,000,000; a value that is not a whole number falls back to the default, as DRF
does, so a client's junk never reaches the database (a bigint LIMIT or OFFSET would fail there)."""

from rest_framework.pagination import LimitOffsetPagination

MAX_LIMIT = 500
MAX_OFFSET = 1_000_000


def _whole(text: str, *, lowest: int) -> int:
    """A query parameter's whole number (ASCII digits, at most 20), at least ``lowest``;
    ``ValueError`` otherwise."""
    text = text.strip()
    if not (0 < len(text) <= 20 and text.isascii() and text.isdigit()) or int(text) < lowest:
        raise ValueError(text)
    return int(text)


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    default_limit = 100
    max_limit = MAX_LIMIT

    def get_limit(self, request):
        try:
            limit = _whole(request.query_params[self.limit_query_param], lowest=1)
        except (KeyError, ValueError):
            return self.default_limit
        return min(limit, self.max_limit)

    def get_offset(self, request):
        try:
            offset = _whole(request.query_params[self.offset_query_param], lowest=0)
        except (KeyError, ValueError):
            return 0
        return min(offset, MAX_OFFSET)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        bounds = {
            self.limit_query_param: {"minimum": 1, "maximum": MAX_LIMIT},
            self.offset_query_param: {"minimum": 0, "maximum": MAX_OFFSET},
        }
        for parameter in parameters:
            parameter["description"] += " (out-of-range values are clamped; junk is ignored)"
            parameter["schema"].update(bounds[parameter["name"]])
        return parameters
