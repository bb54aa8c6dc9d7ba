"""One error shape for the whole API: ``{"message": …, "code": …, "errors": {field: [...]}}``.

Domain errors become 400 (invalid), 403, 404 or 409 (conflict) with the domain's own message, so a
client can show it as it is.
"""

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from league.api.parsers import RequestTooLarge
from league.errors import AccessDeniedError, ConflictError, DomainError, NotFoundError

DOMAIN_STATUS = {
    ConflictError: status.HTTP_409_CONFLICT,
    NotFoundError: status.HTTP_404_NOT_FOUND,
    AccessDeniedError: status.HTTP_403_FORBIDDEN,
}


def domain_error_response(error: DomainError, extra: dict | None = None) -> Response:
    code = next(
        (code for kind, code in DOMAIN_STATUS.items() if isinstance(error, kind)),
        status.HTTP_400_BAD_REQUEST,
    )
    body = {
        "message": error.message,
        "code": error.code,
        "errors": {error.field: [error.message]} if error.field else {},
    }
    body.update(extra or {})
    return Response(body, status=code)


def _flatten(detail, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested error detail as ``{"field": [...], "options.target_score": [...]}``."""
    if isinstance(detail, dict):
        flat: dict[str, list[str]] = {}
        for field, value in detail.items():
            name = f"{prefix}{field}"
            if isinstance(value, dict):
                flat.update(_flatten(value, prefix=f"{name}."))
            else:
                items = value if isinstance(value, list) else [value]
                flat[name] = [str(item) for item in items]
        return flat
    return {
        f"{prefix}non_field_errors" if prefix else "non_field_errors": [
            str(item) for item in detail
        ]
    }


def exception_handler(error, context):
    if isinstance(error, DomainError):
        return domain_error_response(error)
    if isinstance(error, Http404):
        error = exceptions.NotFound()
    elif isinstance(error, (RequestDataTooBig, TooManyFieldsSent)):
        error = RequestTooLarge()
    elif isinstance(error, DjangoPermissionDenied):
        error = exceptions.PermissionDenied()
    response = drf_exception_handler(error, context)
    if response is None:
        return None
    if isinstance(error, exceptions.ValidationError):
        errors = _flatten(error.detail)
        first_field, first = next(iter(errors.items()), ("", ["Invalid input."]))
        prefix = "" if first_field in ("non_field_errors", "") else f"{first_field}: "
        response.data = {
            "message": f"{prefix}{first[0]}",
            "code": "invalid",
            "errors": errors,
        }
    else:
        detail = error.detail if isinstance(error, exceptions.APIException) else str(error)
        response.data = {
            "message": str(detail),
            "code": getattr(detail, "code", "error"),
            "errors": {},
        }
    return response
