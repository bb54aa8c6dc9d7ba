"""Players' answers for nights ahead ("I'm coming" / "I can't") through the API:

- ``GET /api/v1/nights/<id>/rsvps/``: a night's answers, for its league's organisers: the counts
  (coming, can't, no answer) and every active roster player's answer, coming first.
- ``POST /api/v1/me/<token>/rsvp/``: a player's own answer, with the token of their own link
  (no account; the token is the secret). Answered again, it changes; the same answer twice is
  no error. A wrong token is 404 (429 past the guess limits, as a wrong captain token is), and
  answers are limited per address and link (``league.access.public_post_wait``).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.schema import ErrorSerializer
from core.errors import NotFoundError
from league import services as league_services
from league.access import night_for_organiser, player_for_link, public_post_wait
from league.models import Night, Rsvp
from league.selectors import night_answers
from scoring.games.access import captain_guess_refused


class RsvpLineSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    answer = serializers.ChoiceField(
        choices=["coming", "not_coming", ""], help_text="Empty: no answer yet."
    )
    updated_at = serializers.DateTimeField(allow_null=True, help_text="When they last answered.")


class NightRsvpsSerializer(serializers.Serializer):
    night = serializers.IntegerField()
    coming = serializers.IntegerField()
    not_coming = serializers.IntegerField()
    no_answer = serializers.IntegerField(help_text="Active roster players who have not answered.")
    answers = RsvpLineSerializer(many=True, help_text="Coming first, then can't, then no answer.")


class RsvpInputSerializer(serializers.Serializer):
    night = serializers.IntegerField(help_text="The night answered for (of the player's league).")
    answer = serializers.ChoiceField(choices=Rsvp.Answer.values)


class RsvpSerializer(serializers.Serializer):
    night = serializers.IntegerField(source="night_id")
    player = serializers.IntegerField(source="player_id")
    answer = serializers.CharField()
    updated_at = serializers.DateTimeField()


def night_rsvps_data(night: Night) -> dict:
    answers = night_answers(night=night)
    lines = []
    for group in (answers.coming, answers.not_coming, answers.no_answer):
        for player in group:
            rsvp = answers.answers.get(player.pk)
            lines.append(
                {
                    "player": player.pk,
                    "name": player.name,
                    "answer": rsvp.answer if rsvp else "",
                    "updated_at": rsvp.updated_at if rsvp else None,
                }
            )
    return {
        "night": night.pk,
        "coming": len(answers.coming),
        "not_coming": len(answers.not_coming),
        "no_answer": len(answers.no_answer),
        "answers": lines,
    }


class NightRsvpsView(APIView):
    """A night's answers (organisers of its league only)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={
            200: NightRsvpsSerializer,
            403: OpenApiResponse(description="Not an organiser of the night's league."),
            404: OpenApiResponse(description="No such night."),
        },
        operation_id="nights_rsvps",
        tags=["nights"],
    )
    def get(self, request, pk):
        night = night_for_organiser(user=request.user, pk=pk)
        return Response(NightRsvpsSerializer(night_rsvps_data(night)).data)


class PlayerRsvpView(APIView):
    """A player's own answer for a night, with their own link's token (no account)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(
        request=RsvpInputSerializer,
        responses={
            200: RsvpSerializer,
            400: OpenApiResponse(description="Not a night of the player's league, or archived."),
            404: OpenApiResponse(description="No player link with this token."),
            409: OpenApiResponse(description="The night has started or is finished."),
            429: OpenApiResponse(
                response=ErrorSerializer,
                description="Too many wrong tokens or answers from this address: wait the "
                "``Retry-After`` seconds.",
            ),
        },
        operation_id="me_rsvp",
        tags=["players"],
    )
    def post(self, request, token):
        try:
            player = player_for_link(token=token)
        except NotFoundError:
            wait = captain_guess_refused(request, token=token)
            if wait is None:
                raise
            return _too_many(wait)
        wait = public_post_wait(request, key=f"rsvp {token}")
        if wait is not None:
            return _too_many(wait)
        serializer = RsvpInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        night = (
            Night.objects.not_archived()
            .select_related("season")
            .filter(pk=serializer.validated_data["night"])
            .first()
        )
        if night is None:
            raise NotFoundError("no such night")
        rsvp = league_services.rsvp_set(
            player=player, night=night, answer=serializer.validated_data["answer"]
        )
        return Response(RsvpSerializer(rsvp).data)


def _too_many(wait: int) -> Response:
    response = Response(
        {"message": f"Too many tries: wait {wait} seconds.", "code": "throttled", "errors": {}},
        status=status.HTTP_429_TOO_MANY_REQUESTS,
    )
    response["Retry-After"] = str(wait)
    return response
