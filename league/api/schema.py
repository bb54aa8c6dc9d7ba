"""The OpenAPI schema's shared parts: one ``Error`` component for every error answer, declared
on every operation for the codes it can give, and fields some audiences do not see (an
organiser's private notes) left out of ``required``.

Which codes: any operation may answer 400 (a bad filter or body), 403 (a wrong token) and 404; a
write may also answer 409 (a conflict with the current state) and 413 (a body over the limit).
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
        return responses

    def _map_basic_serializer(self, serializer, direction):
        schema = super()._map_basic_serializer(serializer, direction)
        hidden = getattr(serializer, "organiser_only_fields", ())
        if hidden and "required" in schema:
            schema["required"] = [name for name in schema["required"] if name not in hidden]
            if not schema["required"]:
                del schema["required"]
        return schema
