"""``config.csp.CSPMiddleware`` (the settings' policies built once) answers every kind of response
with the headers django-csp's own middleware gives it: the settings' policies, a nonce asked for,
each decorator's change, exemptions, excluded prefixes, a header already set, DEBUG's 404 and 500
(left alone), and a report-only policy beside the enforced one. Also through the whole stack."""

import itertools

import pytest
from csp.middleware import CSPMiddleware as LibraryCSPMiddleware
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from config.csp import CSPMiddleware

POLICY = {"DIRECTIVES": {"default-src": ["'self'"], "script-src": ["'self'"]}}
REPORT_ONLY = {
    "DIRECTIVES": {"default-src": ["'none'"], "report-uri": "/csp-report/"},
    "EXCLUDE_URL_PREFIXES": ["/admin/"],
}
CHANGES = [
    {},
    {"_csp_update": {"style-src": ["'unsafe-inline'"]}},
    {"_csp_replace": {"script-src": ["https://cdn.example"]}},
    {"_csp_config": {"default-src": ["'none'"]}},
    {"_csp_update_ro": {"img-src": ["data:"]}},
    {"_csp_replace_ro": {"default-src": ["'self'"]}},
    {"_csp_config_ro": {"default-src": ["'self'"]}},
    {"_csp_exempt": True},
    {"_csp_exempt": None},  # django-csp exempts anything but False
    {"_csp_exempt_ro": True},
    {"_csp_update": None},
]
PATHS = ["/api/v1/games/1/hands/", "/admin/login/", "/t/abc/"]


def _answer(middleware_class, *, path, status, changes, nonce, preset):
    def view(request):
        if nonce:
            str(request.csp_nonce)
        response = HttpResponse("{}", status=status)
        for name, value in changes.items():
            setattr(response, name, value)
        if preset:
            response["Content-Security-Policy"] = "default-src 'none'"
        return response

    request = RequestFactory().get(path)
    response = middleware_class(view)(request)
    nonce_value = getattr(request, "_csp_nonce", None)
    headers = {
        name: value.replace(nonce_value, "NONCE") if nonce_value else value
        for name, value in response.items()
        if name.startswith("Content-Security-Policy")
    }
    try:
        str(request.csp_nonce)
        after = "nonce" if nonce else "nonce given late"
    except Exception as error:  # django-csp's CSPNonceError
        after = type(error).__name__
    return headers, after


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("report_only", [None, REPORT_ONLY])
def test_every_kind_of_answer_gets_django_csps_headers(debug, report_only):
    kinds = itertools.product(PATHS, [200, 404, 500], CHANGES, [False, True], [False, True])
    with override_settings(
        DEBUG=debug,
        CONTENT_SECURITY_POLICY=POLICY,
        CONTENT_SECURITY_POLICY_REPORT_ONLY=report_only,
    ):
        for path, status, changes, nonce, preset in kinds:
            case = dict(path=path, status=status, changes=changes, nonce=nonce, preset=preset)
            assert _answer(CSPMiddleware, **case) == _answer(LibraryCSPMiddleware, **case), case


def test_a_changed_setting_is_read_again():
    case = dict(path="/", status=200, changes={}, nonce=False, preset=False)
    for directives in ({"default-src": ["'self'"]}, {"default-src": ["'none'"]}):
        with override_settings(CONTENT_SECURITY_POLICY={"DIRECTIVES": directives}):
            headers, _ = _answer(CSPMiddleware, **case)
            assert headers == {
                "Content-Security-Policy": f"default-src {directives['default-src'][0]}"
            }


def test_changed_excluded_prefixes_are_read_again():
    case = dict(path="/api/x", status=200, changes={}, nonce=False, preset=False)
    for prefixes, header in (([], True), (["/api/"], False)):
        policy = {**POLICY, "EXCLUDE_URL_PREFIXES": prefixes}
        with override_settings(CONTENT_SECURITY_POLICY=policy):
            headers, _ = _answer(CSPMiddleware, **case)
            assert bool(headers) is header, prefixes


def test_the_site_answers_with_its_policy(client):
    response = client.get("/healthz")
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
    assert "script-src 'self'" in response["Content-Security-Policy"]
