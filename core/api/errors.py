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

from core.api.parsers import RequestTooLarge
from core.errors import AccessDeniedError, ConflictError, DomainError, NotFoundError

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


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def _json_error(message: str, code: str, status_code: int):
    from django.http import JsonResponse

    return JsonResponse({"message": message, "code": code, "errors": {}}, status=status_code)


def page_not_found(request, exception):
    """Django's 404 (an unknown route, e.g. ``/api/v1/games/abc/``): JSON under ``/api/``."""
    if _is_api(request):
        return _json_error("Not found.", "not_found", 404)
    from django.views.defaults import page_not_found as html_not_found

    return html_not_found(request, exception)


def bad_request(request, exception):
    """Django's 400 (a suspicious or bad request refused before any view): JSON under ``/api/``;
    a body over the size limit is a 413. A ``BadRequest``'s message says what was wrong (e.g.
    ``config.middleware``'s refusal of a NUL); a suspicious operation's is not shown."""
    from django.core.exceptions import BadRequest, RequestDataTooBig, TooManyFieldsSent

    if _is_api(request):
        if isinstance(exception, (RequestDataTooBig, TooManyFieldsSent)):
            return _json_error("the request body is too large", "too_large", 413)
        message = str(exception) if isinstance(exception, BadRequest) else ""
        return _json_error(message or "Bad request.", "bad_request", 400)
    from django.views.defaults import bad_request as html_bad_request

    return html_bad_request(request, exception)


def server_error(request):
    """A bug: JSON under ``/api/`` so a client can still read the shape."""
    if _is_api(request):
        return _json_error("Server error.", "error", 500)
    from django.views.defaults import server_error as html_server_error

    return html_server_error(request)
