"""The OpenAPI schema's shared parts: one ``Error`` component for every error answer, declared
on every operation for the codes it can give, and fields some audiences do not see (an
organiser's private notes) left out of ``required``.

Which codes: any operation may answer 400 (a bad filter or body, or a NUL anywhere in the
request), 403 (a wrong token) and 404; a write may also answer 409 (a conflict with the current
state) and 413 (a body over the limit). An operation a captain token may open (it takes the
``X-Captain-Token`` header) may answer 429 with ``Retry-After`` once wrong tokens are over their
limit (``scoring.games.access``). And before the application runs, the web server (gunicorn, as the
image runs it) answers a request line longer than its ``limit_request_line`` (4,094 bytes by
default: a long query) with 414, and a header over ``limit_request_field_size`` (8,190 bytes) with
431, in its own text/html: :data:`SERVER_CODES`, on every operation.
"""

from drf_spectacular import openapi
from rest_framework import serializers

ERROR_CODES = {
    "400": "invalid input: a bad field, filter or body; ``errors`` names the fields",
    "403": "not allowed: sign in as an organiser of the league, or a wrong token",
    "404": "no such object (or not one this client may see)",
    "409": "a conflict with the current state: already done, or changed meanwhile",
    "413": "the request body is too large",
}
WRITE_ONLY_CODES = {"409", "413"}
CAPTAIN_TOKEN_HEADER = "X-Captain-Token"
TOO_MANY = (
    "too many wrong captain tokens from this address, or beginning like this one: wait the "
    "``Retry-After`` seconds (a valid token is never refused)"
)
RETRY_AFTER = {
    "schema": {"type": "integer", "minimum": 1},
    "description": "Seconds until wrong tokens may be tried again.",
}
SERVER_CODES = {
    "414": "the request line (the path and query) is too long for the web server; answered by "
    "it, before the application, as text/html",
    "431": "a request header is too long for the web server; answered by it, before the "
    "application, as text/html",
}


class ErrorSerializer(serializers.Serializer):
    message = serializers.CharField(help_text="What went wrong, fit to show a user.")
    code = serializers.CharField(help_text="A stable machine-readable code, e.g. ``invalid``.")
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Field name (dotted for nested fields) to its messages; empty if none.",
    )

    class Meta:
        ref_name = "Error"


class AutoSchema(openapi.AutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        for code, description in ERROR_CODES.items():
            if code in WRITE_ONLY_CODES and self.method in ("GET", "HEAD", "OPTIONS"):
                continue
            declared = responses.get(code)
            if declared is not None and declared.get("content"):
                continue
            response = self._get_response_for_code(ErrorSerializer, code, direction=direction)
            response["description"] = (declared or {}).get("description") or description
            responses[code] = response
        if self._takes_captain_token():
            response = self._get_response_for_code(ErrorSerializer, "429", direction=direction)
            response["description"] = TOO_MANY
            response["headers"] = {"Retry-After": RETRY_AFTER}
            responses["429"] = response
        for code, description in SERVER_CODES.items():
            responses[code] = {
                "description": description,
                "content": {"text/html": {"schema": {"type": "string"}}},
            }
        return responses

    def _takes_captain_token(self) -> bool:
        return any(
            getattr(parameter, "name", None) == CAPTAIN_TOKEN_HEADER
            for parameter in self.get_override_parameters()
        )

    def _map_basic_serializer(self, serializer, direction):
        schema = super()._map_basic_serializer(serializer, direction)
        hidden = getattr(serializer, "organiser_only_fields", ())
        if hidden and "required" in schema:
            schema["required"] = [name for name in schema["required"] if name not in hidden]
            if not schema["required"]:
                del schema["required"]
        return schema
