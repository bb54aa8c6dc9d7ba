"""The plain hand POST, answered beneath the middlewares that only pages and DRF's views use.

The hand POST is the busiest request of a night. Its plain case (``scoring.api.fast_hands``: an
organiser's token, a plainly valid JSON body, no session cookie) reads no session, user,
message, CSRF cookie or htmx header, yet each of those middlewares ran for it, and the URL
resolution after them: 0.19 M of its 3.16 M instructions in process (2.97 M without them,
``benchmarks/bench_hand_instructions.py``). This middleware sits just below the ones whose
headers every answer carries (``SecurityMiddleware``, ``CommonMiddleware``,
``XFrameOptionsMiddleware``, the CSP) and answers the plain case there. Anything else, a plain
case the service refuses included, goes on down the stack to the router's view (DRF), which
decides it as before. ``tests/api/test_hand_fast_path.py`` compares both ways' statuses, bodies,
headers and rows.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from scoring.api.fast_hands import plain_answer


class PlainHandMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        from config.urls import HANDS_PATH  # the router's own route (the URLconf is loaded now)

        self.get_response = get_response
        self.hands_path = HANDS_PATH

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST":
            match = self.hands_path.fullmatch(request.path_info)
            if match is not None:
                response = plain_answer(request, match["pk"])
                if response is not None:
                    return response
        return self.get_response(request)
