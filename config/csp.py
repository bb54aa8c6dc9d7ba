"""django-csp's middleware, with the policies of the settings built once per process.

django-csp builds both headers' policies again for every response (``csp.utils.build_policy``,
after a deep copy of their parts), though for almost every answer they are the settings' own:
no nonce was asked for and no view decorator changed them. That was 6.6% of a hand POST's
instructions in process (``benchmarks/bench_hand_instructions.py``). Here such a
response gets the policies built from the settings once (built again if a test changes the
settings, as ``override_settings`` does; a settings dict changed in place is not seen); any
other response, and the DEBUG answers django-csp leaves alone, goes to
django-csp's own ``process_response``. ``tests/deploy/test_csp.py`` compares the headers of the
two on every kind of answer.
"""

from __future__ import annotations

import functools
import http

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as LibraryCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

_CHANGED_BY_VIEWS = (  # what django-csp's decorators set on a response to change its policy
    "_csp_config",
    "_csp_update",
    "_csp_replace",
    "_csp_config_ro",
    "_csp_update_ro",
    "_csp_replace_ro",
)
_HEADERS = (  # (header, report only, the response's exemption, the setting with its prefixes)
    (HEADER, False, "_csp_exempt", "CONTENT_SECURITY_POLICY"),
    (HEADER_REPORT_ONLY, True, "_csp_exempt_ro", "CONTENT_SECURITY_POLICY_REPORT_ONLY"),
)


@functools.cache
def _settings_policy(report_only: bool) -> str:
    """The policy of the settings alone (no nonce, no decorator), as django-csp builds it."""
    return build_policy(report_only=report_only)


@functools.cache
def _excluded_prefixes(setting: str) -> tuple[str, ...]:
    return tuple((getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES") or ())


@receiver(setting_changed)
def _forget_policies(*, setting: str, **kwargs) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _settings_policy.cache_clear()
        _excluded_prefixes.cache_clear()


class CSPMiddleware(LibraryCSPMiddleware):
    def process_response(self, request, response):
        if not _of_the_settings(request, response):
            return super().process_response(request, response)
        for header, report_only, exempt, setting in _HEADERS:
            policy = _settings_policy(report_only)
            if (
                policy
                and header not in response
                and getattr(response, exempt, False) is False
                and not request.path_info.startswith(_excluded_prefixes(setting))
            ):
                response[header] = policy
        # as django-csp does: a nonce asked for from now on would be in no header
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response


def _of_the_settings(request, response) -> bool:
    """Whether ``response``'s policies are the settings' alone: no nonce was asked for, no
    decorator changed them, and it is not an answer django-csp leaves without one."""
    if settings.DEBUG and response.status_code in (
        http.HTTPStatus.INTERNAL_SERVER_ERROR,
        http.HTTPStatus.NOT_FOUND,
    ):
        return False
    if getattr(request, "_csp_nonce", None) is not None:
        return False
    return all(getattr(response, name, None) is None for name in _CHANGED_BY_VIEWS)
