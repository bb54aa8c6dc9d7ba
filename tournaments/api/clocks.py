"""Round clocks through the API (words: :mod:`tournaments.domain.clock`): read a round's clock
(public), start, extend or stop it (an organiser of the league). The actions sit on the nights'
and the brackets' viewsets (``…/rounds/<number>/clock/``); this module parses, calls one service
from ``tournaments.services.clocks`` and renders the clock as the selector reads it."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from league.api.views import parse
from tournaments.domain.clock import EXTEND_MAX, MINUTES_MAX, MINUTES_MIN
from tournaments.selectors.clocks import current_clock
from tournaments.services import clocks as services


class ClockInputSerializer(serializers.Serializer):
    action = serializers.ChoiceField(
        choices=["start", "extend", "stop"],
        help_text="start the round's clock, extend it by ``minutes``, or stop it (call time now).",
    )
    minutes = serializers.IntegerField(
        min_value=MINUTES_MIN,
        max_value=MINUTES_MAX,
        required=False,
        allow_null=True,
        default=None,
        help_text="start: the round's length (empty: the season rulebook's time limit, when its "
        f"games are timed); extend: the minutes to add (1 to {EXTEND_MAX}).",
    )
    from_minutes = serializers.IntegerField(
        min_value=MINUTES_MIN,
        max_value=MINUTES_MAX,
        required=False,
        allow_null=True,
        default=None,
        help_text="extend: the round's length as you last read it (``minutes`` of the clock). "
        "Sent again, the same extension is not added twice.",
    )

    def validate(self, data):
        if data["action"] == "extend":
            missing = {
                name: ["required to extend the clock"]
                for name in ("minutes", "from_minutes")
                if data.get(name) is None
            }
            if missing:
                raise serializers.ValidationError(missing)
        return data


class ClockSerializer(serializers.Serializer):
    night = serializers.IntegerField(allow_null=True)
    bracket = serializers.IntegerField(allow_null=True)
    round = serializers.IntegerField()
    is_running = serializers.BooleanField(help_text="a clock was started and time is not up")
    started_at = serializers.DateTimeField(allow_null=True)
    minutes = serializers.IntegerField(
        allow_null=True, help_text="the round's length, extensions included"
    )
    extended_minutes = serializers.IntegerField(allow_null=True)
    stopped_at = serializers.DateTimeField(
        allow_null=True, help_text="when the organiser called time early"
    )
    ends_at = serializers.DateTimeField(allow_null=True)
    server_now = serializers.DateTimeField(
        help_text="the server's time when this was read: count down from ``ends_at - server_now``"
    )
    remaining_seconds = serializers.IntegerField(allow_null=True)


def clock_data(*, round_number: int, night=None, bracket=None) -> dict:
    view = current_clock(night=night, bracket=bracket, round_number=round_number)
    clock, reading = view.clock, view.reading
    return {
        "night": getattr(night, "pk", None),
        "bracket": getattr(bracket, "pk", None),
        "round": round_number,
        "is_running": reading is not None and not reading.is_over,
        "started_at": clock.started_at if clock else None,
        "minutes": clock.minutes if clock else None,
        "extended_minutes": clock.extended_minutes if clock else None,
        "stopped_at": clock.stopped_at if clock else None,
        "ends_at": reading.ends_at if reading else None,
        "server_now": view.now,
        "remaining_seconds": reading.remaining_seconds if reading else None,
    }


def clock_schema(*, parameters: list, operation: str):
    """The schema of a ``…/rounds/<number>/clock/`` action: its GET and its POST."""
    read = extend_schema(
        methods=["GET"],
        operation_id=f"{operation}_round_clock_retrieve",
        parameters=parameters,
        request=None,
        responses={200: ClockSerializer},
        description="A round's clock, read now (public). With no clock started, its fields are "
        "null and ``is_running`` false.",
    )
    write = extend_schema(
        methods=["POST"],
        operation_id=f"{operation}_round_clock_change",
        parameters=parameters,
        request=ClockInputSerializer,
        responses={
            200: ClockSerializer,
            201: OpenApiResponse(ClockSerializer, description="the clock was started"),
            400: OpenApiResponse(description="bad input: nothing was written"),
            403: OpenApiResponse(description="not an organiser of this league"),
            404: OpenApiResponse(description="no such night or bracket"),
            409: OpenApiResponse(
                description="the round has not started or is over, has no clock, the clock was "
                "changed meanwhile, or time was called"
            ),
        },
        description="Start, extend or stop a round's clock (an organiser of the league). A "
        "repeat (a double tap, a retry) changes nothing and answers 200 with the clock.",
    )

    def decorate(view):
        return read(write(view))

    return decorate


def clock_endpoint(request, *, round_number: int, night=None, bracket=None) -> Response:
    """GET: the clock; POST: one action on it. ``night``/``bracket`` come through the viewset's
    own door (organiser checks are the services')."""
    owner = {"night": night, "bracket": bracket, "round_number": round_number}
    if request.method == "GET":
        return Response(ClockSerializer(clock_data(**owner)).data)
    data = parse(ClockInputSerializer, request)
    code = status.HTTP_200_OK
    if data["action"] == "start":
        change = services.round_clock_start(user=request.user, minutes=data["minutes"], **owner)
        code = status.HTTP_201_CREATED if change.changed else code
    elif data["action"] == "extend":
        services.round_clock_extend(
            user=request.user, minutes=data["minutes"], from_minutes=data["from_minutes"], **owner
        )
    else:
        services.round_clock_stop(user=request.user, **owner)
    return Response(ClockSerializer(clock_data(**owner)).data, status=code)
