"""API views for leagues, rulebooks, seasons, players and teams: parse, call one service, render."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from league import services, updates
from league.access import league_for_organiser, require_league_organiser, season_for_organiser
from league.api import serializers as s
from league.api.filters import (
    LeagueScopedArchivedFilter,
    LeagueScopedFilter,
    SeasonScopedFilter,
)
from league.domain.rules import PRESETS
from league.models import League, Player, Rulebook, Season, Team


def parse(serializer_class, request) -> dict:
    """The request's body, checked by an input serializer (400 with the fields at fault)."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class ReadCreateViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Public reads, narrowed by ``filterset_class`` (league.api.filters); ``create`` parses with
    ``input_serializer_class`` and calls a service."""

    input_serializer_class = None

    def parse(self, request):
        serializer = self.input_serializer_class(data=request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def created(self, instance):
        return Response(self.get_serializer(instance).data, status=status.HTTP_201_CREATED)


class LeagueViewSet(ReadCreateViewSet):
    queryset = League.objects.all()
    serializer_class = s.LeagueSerializer
    input_serializer_class = s.LeagueInputSerializer

    @extend_schema(request=s.LeagueInputSerializer, responses={201: s.LeagueSerializer})
    def create(self, request):
        """Create a league; the signed-in user becomes its owner."""
        data = self.parse(request)
        return self.created(services.league_create(owner=request.user, **data))

    @extend_schema(request=s.LeagueUpdateSerializer, responses={200: s.LeagueSerializer})
    def partial_update(self, request, pk=None):
        """Rename a league or change its description (its organisers; the slug stays)."""
        league = league_for_organiser(user=request.user, pk=int(pk))
        data = parse(s.LeagueUpdateSerializer, request)
        league = updates.league_update(league=league, user=request.user, **data)
        return Response(self.get_serializer(league).data)


class RulebookViewSet(ReadCreateViewSet):
    queryset = Rulebook.objects.all()
    serializer_class = s.RulebookSerializer
    input_serializer_class = s.RulebookInputSerializer
    filterset_class = LeagueScopedFilter

    @extend_schema(request=s.RulebookInputSerializer, responses={201: s.RulebookSerializer})
    def create(self, request):
        """A custom rulebook for a league: a preset's options with any of them changed."""
        data = self.parse(request)
        require_league_organiser(user=request.user, league_id=data["league"].pk)
        return self.created(services.rulebook_create(user=request.user, **data))

    @extend_schema(responses={200: s.PresetSerializer(many=True)})
    @action(detail=False, methods=["get"], pagination_class=None)
    def presets(self, request):
        """The preset rulebooks: a slug, a name, a one-line description and every option."""
        data = [
            {
                "slug": preset.slug,
                "name": preset.name,
                "description": preset.description,
                "options": preset.rulebook.to_options(),
            }
            for preset in PRESETS.values()
        ]
        return Response(s.PresetSerializer(data, many=True).data)


class SeasonViewSet(ReadCreateViewSet):
    queryset = Season.objects.select_related("rulebook")
    serializer_class = s.SeasonSerializer
    input_serializer_class = s.SeasonInputSerializer
    filterset_class = LeagueScopedArchivedFilter

    @extend_schema(request=s.SeasonInputSerializer, responses={201: s.SeasonSerializer})
    def create(self, request):
        """Create a season with a rulebook: an existing one, or a new copy of a preset."""
        data = self.parse(request)
        league = league_for_organiser(user=request.user, pk=data.pop("league").pk)
        return self.created(services.season_create(league=league, user=request.user, **data))

    @extend_schema(request=s.RenameSerializer, responses={200: s.SeasonSerializer})
    def partial_update(self, request, pk=None):
        """Rename a season (its league's organisers). Archive it with ``POST …/archive/``."""
        season = season_for_organiser(user=request.user, pk=int(pk))
        data = parse(s.RenameSerializer, request)
        if "name" in data:
            season = updates.season_rename(season=season, user=request.user, name=data["name"])
        return Response(self.get_serializer(season).data)

    @extend_schema(request=s.PartnerBalanceSerializer, responses={200: s.SeasonSerializer})
    @action(detail=True, methods=["post"], url_path="partner-balance")
    def partner_balance(self, request, pk=None):
        """Turn an individual season's partner-strength balance on or off: nights planned from
        then on choose, among rotations equally good, the most even average partner rating."""
        season = season_for_organiser(user=request.user, pk=int(pk))
        data = parse(s.PartnerBalanceSerializer, request)
        season = services.season_set_partner_balance(
            season=season, is_on=data["balance_partner_strength"], user=request.user
        )
        return Response(self.get_serializer(season).data)


class PlayerViewSet(ReadCreateViewSet):
    queryset = Player.objects.all()
    serializer_class = s.PlayerSerializer
    input_serializer_class = s.PlayerInputSerializer
    filterset_class = LeagueScopedFilter

    @extend_schema(request=s.PlayerInputSerializer, responses={201: s.PlayerSerializer})
    def create(self, request):
        data = self.parse(request)
        league = league_for_organiser(user=request.user, pk=data.pop("league").pk)
        return self.created(services.player_create(league=league, user=request.user, **data))


class TeamViewSet(ReadCreateViewSet):
    """Teams of seasons in use (an archived season's come back with it)."""

    queryset = Team.objects.filter(season__archived_at=None)
    serializer_class = s.TeamSerializer
    input_serializer_class = s.TeamInputSerializer
    filterset_class = SeasonScopedFilter

    @extend_schema(request=s.TeamInputSerializer, responses={201: s.TeamSerializer})
    def create(self, request):
        data = self.parse(request)
        season = season_for_organiser(user=request.user, pk=data.pop("season").pk)
        return self.created(services.team_create(season=season, user=request.user, **data))
