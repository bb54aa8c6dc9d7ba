"""Services and selectors of individual (progressive) nights: the only writers of night plans.

Words (see also ``tournaments.models.rotations`` and ``tournaments.domain.rotation``):

- *present*: checked in for the night and not checked out.
- *walk-in*: someone checked in who was not on the league's roster; added to it on the spot.
- *late arrival*, *leaver*: someone checked in, or out, after the plan was published; a
  *repair* re-plans the rounds not started yet for the people present, keeping every started
  or finished round exactly as it was.
- *substitute*: a new person who takes a leaver's seats in every round not started yet. The games
  already played stay the leaver's; from then on the games are the substitute's, so stats follow
  the real person at the table.

The organiser's order of work: ``night_create`` → ``night_check_in`` (× N) → ``night_plan`` (as
often as wanted) → ``night_publish`` → ``round_start`` / ``round_finish`` per round (with
``night_repair`` between rounds when needed) → ``night_finish``.
Every service takes the acting ``user`` and checks that they organise the night's league.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from core.errors import ConflictError, DomainError, NotFoundError
from league import services as league_services
from league.access import require_league_organiser
from league.audit import SELF_CHECK_IN, actor_of, audit_record
from league.domain.rules import Rulebook as RulebookRules
from league.models import Attendance, AuditEntry, Night, Player, Rsvp, Season, SelfCheckIn
from scoring.games import services as scoring_services
from scoring.games.models import Game
from tournaments import jobs
from tournaments.domain.rotation import (
    PlannedNight,
    Rotation,
    Round,
    SeasonHistory,
    full_cycle_length,
    plan_rotation,
    rotation_report,
)
from tournaments.domain.rotation_season import season_report
from tournaments.models import NightPlan, PlannedRound, Seat
from tournaments.selectors.season_history import season_history_for_night
from tournaments.services.locks import (
    night_lock,
    planned_round_lock,
    planned_rounds_lock,
    self_check_in_lock,
)

MAX_SEED = 2**31 - 1
"""The largest seed a plan stores (``NightPlan.seed``: a 32-bit integer column on PostgreSQL)."""

# ---------------------------------------------------------------------------------------------
# Audited doors


def night_get(*, pk: int) -> Night:
    """A night anyone may look at (public pages) or run (the desk): not archived."""
    night = (
        Night.objects.not_archived()
        .select_related("season__league", "season__rulebook")
        .filter(pk=pk)
        .first()
    )
    if night is None:
        raise NotFoundError("no such night")
    return night


def night_for_organiser(*, user, pk: int) -> Night:
    """A night the ``user`` may run: an organiser of its league."""
    night = night_get(pk=pk)
    require_league_organiser(user=user, league_id=night.season.league_id)
    return night


def _lock_night(night: Night, user) -> Night:
    """Lock the night row (parent of its plan, rounds and seats) for the transaction."""
    require_league_organiser(user=user, league_id=night.season.league_id)
    return night_lock(night.pk)


def _refuse_when_finished(night: Night) -> None:
    if night.status == Night.Status.FINISHED:
        raise ConflictError("this night is finished", code="night_finished")


# ---------------------------------------------------------------------------------------------
# Night and attendance


def night_create(*, season: Season, date, venue: str = "", user) -> Night:
    """A new night of an individual season, ready for check-in (the night itself is planned by
    ``league.services.night_create``, which owns its date rules)."""
    require_league_organiser(user=user, league_id=season.league_id)
    if season.format != Season.Format.INDIVIDUAL:
        raise DomainError(
            "rotating-partner nights belong to individual seasons; this season has fixed teams",
            field="season",
        )
    return league_services.night_create(season=season, date=date, venue=venue, user=user)


def night_check_in(*, night: Night, user, player: Player | None = None, name: str = "") -> Player:
    """Check a roster player in, or a walk-in by name (added to the roster when new).

    A name already on the roster checks that player in. Checking in someone who left earlier
    brings them back. The plan is not changed here: a draft is generated again, a published
    plan is repaired (``night_repair``). Audited (``attendance.check_in``), so it can be undone.
    """
    with transaction.atomic():
        night = _lock_night(night, user)
        return _check_in(night, actor_of(user), player=player, name=name)


def _check_in(night: Night, actor, *, player: Player | None, name: str = "") -> Player:
    """The one check-in, the desk's and a player's own at the door (``actor`` says whose), in
    the caller's transaction with the night's row locked."""
    _refuse_when_finished(night)
    is_new_player = False
    if player is None:
        cleaned = " ".join(name.split())
        if not cleaned:
            raise DomainError("name the player to check in", field="name")
        player = league_services.roster_player_named(league_id=night.season.league_id, name=cleaned)
        if player is None:
            player = league_services.player_create(league=night.season.league, name=cleaned)
            is_new_player = True
    elif player.league_id != night.season.league_id:
        raise DomainError(f"{player} is not on this league's roster", field="player")
    attendance = Attendance.objects.filter(night=night, player=player).first()
    before = None
    if attendance is not None:
        if attendance.left_at is None:
            raise ConflictError(f"{player} is already checked in", code="checked_in")
        before = {"left_at": attendance.left_at.isoformat()}
        attendance.left_at = None
        attendance.save(update_fields=["left_at"])
    else:
        try:
            with transaction.atomic():
                attendance = Attendance.objects.create(night=night, player=player)
        except IntegrityError as error:
            raise ConflictError(f"{player} is already checked in", code="checked_in") from error
    _mark_checking_in(night)
    audit_record(
        league=night.season.league_id,
        season=night.season_id,
        actor=actor,
        action="attendance.check_in",
        target=attendance,
        before=before,
        after={"night": night.pk, "player": player.pk, "new_player": is_new_player},
    )
    return player


def night_check_in_roster(*, night: Night, user) -> list[Player]:
    """Check in everyone on the league's roster (active players) not checked in yet, in one
    change (audited as ``attendance.check_in_all``, undone as one). Those who left stay out.
    Nobody left to check in is not an error: the result is empty (a second tap changes nothing).
    """
    with transaction.atomic():
        night = _lock_night(night, user)
        _refuse_when_finished(night)
        checked = Attendance.objects.filter(night=night).values_list("player_id", flat=True)
        missing = list(
            Player.objects.filter(league_id=night.season.league_id, is_active=True)
            .exclude(pk__in=checked)
            .order_by("name", "pk")
        )
        if not missing:
            return []
        Attendance.objects.bulk_create([Attendance(night=night, player=p) for p in missing])
        _mark_checking_in(night)
        _audit_attendance(
            night,
            user,
            "attendance.check_in_all",
            night,
            None,
            {"players": [p.pk for p in missing]},
        )
        return missing


def _mark_checking_in(night: Night) -> None:
    if night.status == Night.Status.PLANNED:
        night.status = Night.Status.CHECK_IN
        night.save(update_fields=["status"])


def _audit_attendance(night, user, action, target, before, after) -> AuditEntry:
    return audit_record(
        league=night.season.league_id,
        season=night.season_id,
        actor=actor_of(user),
        action=action,
        target=target,
        before=before,
        after={"night": night.pk, **after},
    )


def night_check_out(*, night: Night, player: Player, user) -> Attendance:
    """An early leaver: they keep the games they played; repair the plan for the rest."""
    with transaction.atomic():
        night = _lock_night(night, user)
        _refuse_when_finished(night)
        attendance = Attendance.objects.filter(night=night, player=player).first()
        if attendance is None or attendance.left_at is not None:
            raise DomainError(f"{player} is not checked in", field="player")
        attendance.left_at = timezone.now()
        attendance.save(update_fields=["left_at"])
        _audit_attendance(
            night,
            user,
            "attendance.check_out",
            attendance,
            {"left_at": None},
            {"player": player.pk, "left_at": attendance.left_at.isoformat()},
        )
        return attendance


ATTENDANCE_CHANGES = ("attendance.check_in", "attendance.check_out", "attendance.check_in_all")
"""The audited check-in changes the night desk can undo (the last one not undone yet)."""


@dataclass(frozen=True)
class AttendanceChange:
    """The night's last check-in change that can be undone: its trail entry and its words."""

    entry_id: int
    words: str


def _night_changes(night: Night):
    return AuditEntry.objects.filter(season_id=night.season_id, after__night=night.pk)


def _undone_ids(night: Night) -> set[int]:
    undos = _night_changes(night).filter(action="attendance.undo").values_list("after", flat=True)
    return {after["undid"] for after in undos}


def _last_change(night: Night) -> AuditEntry | None:
    return (
        _night_changes(night)
        .filter(action__in=ATTENDANCE_CHANGES)
        .exclude(pk__in=_undone_ids(night))
        .order_by("-created_at", "-pk")
        .first()
    )


def _change_words(entry: AuditEntry) -> str:
    if entry.action == "attendance.check_in_all":
        count = len(entry.after["players"])
        return f"{count} checked in from the roster"
    name = Player.objects.filter(pk=entry.after["player"]).values_list("name", flat=True).first()
    if entry.action == "attendance.check_out":
        return f"{name} left"
    return f"{name} checked in"


def night_last_change(*, night: Night) -> AttendanceChange | None:
    """The check-in change "Undo" would take back, or ``None`` (also when it is a check-in of
    someone who already holds seats in the plan: that undo would be refused)."""
    entry = _last_change(night)
    if entry is None:
        return None
    if entry.action != "attendance.check_out":
        players = entry.after.get("players") or [entry.after["player"]]
        if Seat.objects.filter(round__plan__night=night, player_id__in=players).exists():
            return None
    return AttendanceChange(entry.pk, _change_words(entry))


def night_undo_change(*, night: Night, user, entry_id: int) -> str:
    """Undo the night's last check-in change, named by its trail entry (``entry_id``, from
    ``night_last_change``): a check-in is taken back (the player is no longer checked in, or
    has left again), a leaver is here again, "everyone from the roster" is taken back as one.

    The same undo sent twice changes nothing the second time (it says it was undone already);
    an undo of a change that is no longer the last is refused. A check-in is not taken back once
    the player holds seats in the night's plan (check them out instead). Audited
    (``attendance.undo``). Returns what was undone, in words.
    """
    with transaction.atomic():
        night = _lock_night(night, user)
        _refuse_when_finished(night)
        entry = _night_changes(night).filter(pk=entry_id, action__in=ATTENDANCE_CHANGES).first()
        if entry is None:
            raise DomainError("there is no such change to undo", field="entry")
        words = _change_words(entry)
        if entry.pk in _undone_ids(night):
            return f"Already undone: {words}"
        last = _last_change(night)
        if last is None or last.pk != entry.pk:
            raise ConflictError(
                "a newer check-in change came after that one: undo it first", code="not_last"
            )
        if entry.action == "attendance.check_out":
            Attendance.objects.filter(night=night, player_id=entry.after["player"]).update(
                left_at=None
            )
        else:
            players = entry.after.get("players") or [entry.after["player"]]
            seated = list(
                Player.objects.filter(
                    pk__in=Seat.objects.filter(
                        round__plan__night=night, player_id__in=players
                    ).values("player_id")
                ).values_list("name", flat=True)
            )
            if seated:
                raise ConflictError(
                    f"{', '.join(sorted(seated))} already {'has' if len(seated) == 1 else 'have'}"
                    " seats in the plan: check them out instead",
                    code="seated",
                )
            if entry.before and entry.before.get("left_at"):
                Attendance.objects.filter(night=night, player_id__in=players).update(
                    left_at=parse_datetime(entry.before["left_at"])
                )
            else:
                Attendance.objects.filter(night=night, player_id__in=players).delete()
        _audit_attendance(
            night, user, "attendance.undo", night, None, {"undid": entry.pk, "action": entry.action}
        )
        return f"Undone: {words}"


@dataclass(frozen=True)
class CheckInRow:
    """One name on the night desk's check-in list: ``state`` is ``here``, ``left`` (checked in,
    then out) or ``out`` (on the roster, not checked in); ``by_self``: checked in at the door on
    their own phone; ``refused``: an organiser turned that down; ``answer``: their RSVP."""

    player: Player
    state: str
    by_self: bool = False
    refused: bool = False
    answer: str = ""


def _door_rows(night: Night, players=None) -> dict[int, SelfCheckIn]:
    rows = SelfCheckIn.objects.filter(night=night)
    if players is not None:
        rows = rows.filter(player__in=players)
    return {row.player_id: row for row in rows}


def _answers(night: Night, players=None) -> dict[int, str]:
    rows = Rsvp.objects.filter(night=night)
    if players is not None:
        rows = rows.filter(player__in=players)
    return dict(rows.values_list("player_id", "answer"))


def _row(player: Player, attendance, door: SelfCheckIn | None, answer: str) -> CheckInRow:
    state = "out" if attendance is None else "here" if attendance.left_at is None else "left"
    return CheckInRow(
        player,
        state,
        by_self=door is not None and door.refused_at is None and state == "here",
        refused=door is not None and door.refused_at is not None,
        answer=answer,
    )


def night_check_in_rows(*, night: Night) -> list[CheckInRow]:
    """The check-in list: the league's active roster and anyone checked in tonight, by name."""
    attendances = {
        a.player_id: a for a in Attendance.objects.filter(night=night).select_related("player")
    }
    players = {a.player_id: a.player for a in attendances.values()}
    for player in Player.objects.filter(league_id=night.season.league_id, is_active=True):
        players.setdefault(player.pk, player)
    doors, answers = _door_rows(night), _answers(night)
    rows = [
        _row(player, attendances.get(player.pk), doors.get(player.pk), answers.get(player.pk, ""))
        for player in players.values()
    ]
    return sorted(rows, key=lambda row: (row.player.name.casefold(), row.player.pk))


def night_check_in_row(*, night: Night, player: Player) -> CheckInRow:
    """One player's row of the check-in list, as it is now."""
    attendance = Attendance.objects.filter(night=night, player=player).first()
    door = _door_rows(night, [player]).get(player.pk)
    return _row(player, attendance, door, _answers(night, [player]).get(player.pk, ""))


def night_check_in_version(*, night: Night) -> str:
    """A short digest of everything the desk's check-in list shows (who is here, left, checked
    in at the door or turned down, and the answers): the desk polls it and redraws the list only
    when it changed."""
    parts = (
        sorted(Attendance.objects.filter(night=night).values_list("player_id", "left_at")),
        sorted(SelfCheckIn.objects.filter(night=night).values_list("player_id", "refused_at")),
        sorted(Rsvp.objects.filter(night=night).values_list("player_id", "answer")),
        night.status,
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


# ---------------------------------------------------------------------------------------------
# Checking in at the door (the night's door link): players on their own phones


def night_for_door(*, pk: int, token: str) -> Night:
    """The night whose door link holds ``token`` (the audited door of the door page)."""
    night = Night.objects.not_archived().select_related("season__league").filter(pk=pk).first()
    if night is None or not secrets.compare_digest(night.door_token, (token or "")[:64]):
        raise NotFoundError("this door link is not known: ask the organiser")
    return night


def night_door_closed(*, night: Night) -> str:
    """Why the door no longer checks players in, in words for the player; empty while open.
    It closes once the night's rotation is planned (a draft or a published plan: seats are being
    given out) or the night has started or finished."""
    if night.status == Night.Status.FINISHED:
        return "This night is finished."
    if NightPlan.objects.filter(night=night).exists():
        return (
            "The rotation is planned, so check-in at the door is closed: ask the organiser to "
            "check you in."
        )
    if night.status == Night.Status.PLAYING:
        return "The night has started, so check-in at the door is closed: ask the organiser."
    return ""


def night_self_check_in(*, night: Night, player: Player, device: str = "") -> bool:
    """``player`` checks in at the door on their own phone (``device``: a digest of the phone's
    cookie, or empty): the desk's own check-in (``attendance.check_in``), audited as ``self``.

    Refused once the door is closed (``night_door_closed``), for a player not on the roster, and
    when an organiser turned down a door check-in of this player or from this phone tonight.
    Already here is no error (a double tap): the answer is ``False``; ``True`` when checked in now.
    """
    with transaction.atomic():
        night = night_lock(night.pk)
        closed = night_door_closed(night=night)
        if closed:
            raise ConflictError(closed, code="door_closed")
        if player.league_id != night.season.league_id or not player.is_active:
            raise DomainError(f"{player} is not on this league's roster", field="player")
        refused = SelfCheckIn.objects.filter(night=night, refused_at__isnull=False)
        if refused.filter(player=player).exists() or (
            device and refused.filter(device=device).exists()
        ):
            raise ConflictError(
                "The organiser turned down a check-in at the door for this phone tonight: "
                "ask the organiser.",
                code="refused",
            )
        if Attendance.objects.filter(night=night, player=player, left_at__isnull=True).exists():
            return False
        _check_in(night, SELF_CHECK_IN, player=player)
        SelfCheckIn.objects.update_or_create(
            night=night, player=player, defaults={"device": device[:64]}
        )
        return True


def night_self_check_in_refuse(*, night: Night, player: Player, user) -> str:
    """Turn down ``player``'s check-in at the door: they are checked out (``night_check_out``)
    and neither they nor that phone may check in at the door again tonight (the desk still
    can). Audited (``attendance.self_refuse``). Sent twice, the second changes nothing. Returns
    what happened, in words."""
    with transaction.atomic():
        night = _lock_night(night, user)
        _refuse_when_finished(night)
        door = self_check_in_lock(night, player)
        if door is None:
            raise DomainError(f"{player} did not check in at the door", field="player")
        if door.refused_at is not None:
            return f"{player}'s check-in at the door was already turned down."
        door.refused_at = timezone.now()
        door.refused_by = user if getattr(user, "is_authenticated", False) else None
        door.save(update_fields=["refused_at", "refused_by"])
        if Attendance.objects.filter(night=night, player=player, left_at__isnull=True).exists():
            night_check_out(night=night, player=player, user=user)
        _audit_attendance(
            night,
            user,
            "attendance.self_refuse",
            door,
            None,
            {"player": player.pk, "refused_at": door.refused_at.isoformat()},
        )
        return f"{player}'s check-in at the door is turned down: {player} is checked out."


def night_present_players(*, night: Night) -> list[Player]:
    """Who is here now, in check-in order."""
    return [
        attendance.player
        for attendance in Attendance.objects.filter(night=night, left_at__isnull=True)
        .select_related("player")
        .order_by("checked_in_at", "pk")
    ]


# ---------------------------------------------------------------------------------------------
# Planning


def _pairs(keep_apart: Collection[Sequence[int]]) -> list[frozenset[int]]:
    pairs = []
    for pair in keep_apart:
        members = frozenset(int(p) for p in pair)
        if len(members) != 2:
            raise DomainError(
                "a pair to keep apart names two different players", field="keep_apart"
            )
        pairs.append(members)
    return pairs


def _store_rounds(plan: NightPlan, rounds: Sequence[Round], first_number: int) -> None:
    """Write rounds ``first_number…`` of ``plan`` with their seats (constraints check them)."""
    seats = []
    for offset, round_ in enumerate(rounds):
        planned = PlannedRound.objects.create(plan=plan, number=first_number + offset)
        for table_number, table in enumerate(round_.tables, start=1):
            for seat, player_id in enumerate(table):
                seats.append(
                    Seat(round=planned, player_id=player_id, table_number=table_number, seat=seat)
                )
        seats.extend(Seat(round=planned, player_id=player_id) for player_id in round_.byes)
    Seat.objects.bulk_create(seats)


def _names_of(
    night: Night,
    players: Sequence[int],
    pairs: Collection[frozenset[int]],
    fixed: Mapping[int, int],
) -> dict[int, str]:
    """Names of the league's players a rotation may mention in an error: those playing and
    those named by a constraint (anyone else stays "player <id>")."""
    ids = set(players) | {player for pair in pairs for player in pair} | set(fixed)
    found = Player.objects.filter(pk__in=ids, league_id=night.season.league_id)
    return dict(found.values_list("pk", "name"))


def _report(rotation: Rotation, players: Sequence[int], keep_apart) -> dict:
    return rotation_report(rotation, players, keep_apart=keep_apart).as_dict()


STATIONARY_COST_FIELDS = (
    "repeat_partners",
    "opponents_beyond_twice",
    "repeated_meetings",
    "same_table_two_rounds_running",
)
"""The report's fault counts that keeping players in place may raise (its "costs")."""


def _plan_night(
    *,
    night: Night,
    players: Sequence[int],
    rounds: int,
    played: Sequence[Round] = (),
    seed: int,
    pairs: Collection[frozenset[int]],
    fixed: Mapping[int, int],
    stationary: Collection[int],
) -> tuple[Rotation, dict]:
    """Plan (or re-plan after ``played``) against the season so far; the quality report with
    the night's figures, the season's beside them, and what stationary players cost."""
    history, nights_before = season_history_for_night(night=night)
    balance = night.season.balance_partner_strength
    called = _names_of(night, players, pairs, fixed)

    def plan(staying: Collection[int], history: SeasonHistory) -> PlannedNight:
        return plan_rotation(
            players,
            rounds,
            played=played,
            seed=seed,
            keep_apart=pairs,
            fixed_table=fixed,
            called=called,
            stationary=staying,
            history=history,
            balance_partner_strength=balance,
        )

    planned = plan(stationary, history)
    report = _report(planned.rotation, players, pairs)
    report["season"] = season_report(
        planned.rotation.rounds,
        players,
        history,
        nights_before=nights_before,
        spread_before_balance=planned.spread_before_balance,
        balance=balance,
    ).as_dict()
    if stationary:
        free = _report(plan((), history).rotation, players, pairs)
        report["stationary"] = {
            "players": sorted(stationary),
            "summary_without": free["summary"],
            "at_bound_without": free["at_bound"],
            "costs": {name: report[name] - free[name] for name in STATIONARY_COST_FIELDS},
        }
        report["stationary"]["costs_anything"] = any(
            count > 0 for count in report["stationary"]["costs"].values()
        ) or (free["at_bound"] and not report["at_bound"])
    return planned.rotation, report


def night_plan(
    *,
    night: Night,
    rounds: int,
    user,
    hands_per_game: int | None = None,
    seed: int = 0,
    keep_apart: Collection[Sequence[int]] = (),
    fixed_tables: Mapping[int, int] | None = None,
    stationary: Collection[int] = (),
) -> NightPlan:
    """Generate (or generate again) the night's draft rotation for the players present.

    The plan weighs the season's earlier nights (``tournaments.domain.rotation_season``) and,
    when the season asks, balances partner strength; ``stationary`` players (each with a fixed
    table) keep their table and seat all night."""
    if hands_per_game is not None and not 1 <= hands_per_game <= 100:
        raise DomainError("hands per game must be between 1 and 100", field="hands_per_game")
    if not 0 <= seed <= MAX_SEED:
        raise DomainError(f"the seed must be a whole number from 0 to {MAX_SEED}", field="seed")
    with transaction.atomic():
        night = _lock_night(night, user)
        _refuse_when_finished(night)
        if night.season.format != Season.Format.INDIVIDUAL:
            raise DomainError(
                "partner rotations are for individual seasons; this season has fixed teams",
                field="season",
            )
        plan = NightPlan.objects.filter(night=night).first()
        if plan is not None and plan.status == NightPlan.Status.PUBLISHED:
            raise ConflictError(
                "the plan is published; repair it instead of generating a new one",
                code="published",
            )
        players = [player.pk for player in night_present_players(night=night)]
        if len(players) < 4:
            raise DomainError(
                f"{len(players)} players are checked in; a rotation needs at least 4",
                field="players",
            )
        pairs = _pairs(keep_apart)
        fixed = {int(player): int(table) for player, table in (fixed_tables or {}).items()}
        staying = sorted({int(player) for player in stationary})
        rotation, report = _plan_night(
            night=night,
            players=players,
            rounds=rounds,
            seed=seed,
            pairs=pairs,
            fixed=fixed,
            stationary=staying,
        )
        if plan is None:
            plan = NightPlan(night=night)
        else:
            plan.planned_rounds.all().delete()
        plan.rounds = rounds
        plan.hands_per_game = hands_per_game
        plan.seed = seed
        plan.keep_apart = [sorted(pair) for pair in pairs]
        plan.fixed_tables = {str(player): table for player, table in fixed.items()}
        plan.stationary = staying
        plan.report = report
        plan.save()
        _store_rounds(plan, rotation.rounds, first_number=1)
        return plan


def night_publish(*, night: Night, user) -> NightPlan:
    """Make the draft plan the night's: players see it, rounds can start."""
    with transaction.atomic():
        night = _lock_night(night, user)
        _refuse_when_finished(night)
        plan = _plan_of(night)
        if plan.status == NightPlan.Status.PUBLISHED:
            raise ConflictError("the plan is already published", code="published")
        planned = {
            seat.player_id for seat in Seat.objects.filter(round__plan=plan, round__number=1)
        }
        present = {player.pk for player in night_present_players(night=night)}
        if planned != present:
            raise ConflictError(
                "who is checked in changed since the plan was generated; generate it again",
                code="roster_changed",
            )
        plan.status = NightPlan.Status.PUBLISHED
        plan.save(update_fields=["status", "updated_at"])
        _email_seats_on_commit(night)
        return plan


def _email_seats_on_commit(night: Night) -> None:
    """Once the change commits, email the consenting players their seats (the job sends only to
    those whose seats differ from what they were last sent: ``tournaments.services.mail``)."""
    night_id = night.pk
    transaction.on_commit(lambda: jobs.send_night_seats_email(night_id))


def _plan_of(night: Night) -> NightPlan:
    plan = NightPlan.objects.filter(night=night).first()
    if plan is None:
        raise DomainError("generate a plan first", field="plan")
    return plan


def _published_plan(night: Night) -> NightPlan:
    plan = _plan_of(night)
    if plan.status != NightPlan.Status.PUBLISHED:
        raise DomainError("publish the plan first", field="plan")
    return plan


def _round_of(plan: NightPlan, number: int) -> PlannedRound:
    planned = planned_round_lock(plan, number)
    if planned is None:
        raise NotFoundError(f"the plan has no round {number}")
    return planned


def _tables_still_playing(night: Night, number: int) -> list[int]:
    return list(
        Game.objects.filter(night=night, round_number=number)
        .exclude(status=Game.Status.FINISHED)
        .order_by("table_number")
        .values_list("table_number", flat=True)
    )


def _finish_round(night: Night, planned: PlannedRound) -> None:
    playing = _tables_still_playing(night, planned.number)
    if playing:
        tables = ", ".join(str(t) for t in playing)
        word = "table" if len(playing) == 1 else "tables"
        raise ConflictError(
            f"round {planned.number} is still playing at {word} {tables}", code="still_playing"
        )
    planned.status = PlannedRound.Status.FINISHED
    planned.finished_at = timezone.now()
    planned.save(update_fields=["status", "finished_at"])


def round_start(*, night: Night, number: int, user) -> list[Game]:
    """Start round ``number``: one game per table, seated as planned, seat 0 dealing first.

    The round before must be over (it is marked finished here when all its games are).
    """
    with transaction.atomic():
        night = _lock_night(night, user)
        _refuse_when_finished(night)
        plan = _published_plan(night)
        planned = _round_of(plan, number)
        if planned.status != PlannedRound.Status.PLANNED:
            raise ConflictError(f"round {number} has already started", code="started")
        if number > 1:
            previous = _round_of(plan, number - 1)
            if previous.status == PlannedRound.Status.PLANNED:
                raise ConflictError(f"start round {number - 1} first", code="order")
            if previous.status == PlannedRound.Status.STARTED:
                _finish_round(night, previous)
        seats = list(planned.seats.select_related("player").order_by("table_number", "seat"))
        present = {player.pk for player in night_present_players(night=night)}
        gone = [seat.player.name for seat in seats if seat.player_id not in present]
        if gone:
            raise ConflictError(
                f"{', '.join(gone)} {'has' if len(gone) == 1 else 'have'} left; repair the plan "
                "before starting the round",
                code="needs_repair",
            )
        tables: dict[int, list[Player]] = {}
        for seat in seats:
            if seat.table_number is not None:
                tables.setdefault(seat.table_number, []).append(seat.player)
        games = [
            scoring_services.game_create(
                season=night.season,
                seats=tuple(players),
                night=night,
                round_number=number,
                table_number=table_number,
                first_dealer_seat=0,
                hands_per_game=plan.hands_per_game,
            )
            for table_number, players in sorted(tables.items())
        ]
        planned.status = PlannedRound.Status.STARTED
        planned.started_at = timezone.now()
        planned.save(update_fields=["status", "started_at"])
        if night.status != Night.Status.PLAYING:
            night.status = Night.Status.PLAYING
            night.save(update_fields=["status"])
        return games


def round_finish(*, night: Night, number: int, user) -> PlannedRound:
    """Close a started round once every table's game is over."""
    with transaction.atomic():
        night = _lock_night(night, user)
        plan = _published_plan(night)
        planned = _round_of(plan, number)
        if planned.status != PlannedRound.Status.STARTED:
            raise ConflictError(
                f"round {number} is {planned.get_status_display().lower()}, not playing",
                code="not_started",
            )
        _finish_round(night, planned)
        return planned


def _played_rounds(plan: NightPlan) -> list[PlannedRound]:
    return list(
        plan.planned_rounds.exclude(status=PlannedRound.Status.PLANNED)
        .prefetch_related("seats")
        .order_by("number")
    )


def _as_round(planned: PlannedRound) -> Round:
    tables: dict[int, list[tuple[int, int]]] = {}
    byes = []
    for seat in planned.seats.all():
        if seat.table_number is None:
            byes.append(seat.player_id)
        else:
            tables.setdefault(seat.table_number, []).append((seat.seat, seat.player_id))
    return Round(
        tables=tuple(
            tuple(player for _, player in sorted(table)) for _, table in sorted(tables.items())
        ),
        byes=tuple(sorted(byes)),
    )


def night_repair(
    *,
    night: Night,
    user,
    total_rounds: int | None = None,
    substitute_for: Player | None = None,
    substitute: Player | None = None,
    substitute_name: str = "",
) -> NightPlan:
    """Re-plan the rounds not started yet; started and finished rounds stay exactly as they are.

    Without a substitute: a new rotation for the people present now (late arrivals in, leavers
    out), over ``total_rounds`` (default: the plan's). With ``substitute_for`` and a substitute
    (a roster player or a walk-in's name): the substitute takes that person's seats in every
    round not started yet; the leaver is checked out and the substitute checked in.
    """
    if substitute_for is not None:
        return _substitute(
            night=night, user=user, leaver=substitute_for, player=substitute, name=substitute_name
        )
    with transaction.atomic():
        night = _lock_night(night, user)
        _refuse_when_finished(night)
        plan = _published_plan(night)
        played = _played_rounds(plan)
        total = total_rounds or plan.rounds
        players = [player.pk for player in night_present_players(night=night)]
        if len(players) < 4:
            raise DomainError(
                f"{len(players)} players are here; a rotation needs at least 4", field="players"
            )
        played_rounds = [_as_round(planned) for planned in played]
        if not played_rounds and total > full_cycle_length(len(players)):
            total = full_cycle_length(len(players))
        pairs = _pairs(plan.keep_apart)
        pairs = [pair for pair in pairs if pair <= set(players)]
        fixed = {
            int(player): table
            for player, table in plan.fixed_tables.items()
            if int(player) in players and table <= len(players) // 4
        }
        staying = [player for player in plan.stationary if player in fixed]
        rotation, report = _plan_night(
            night=night,
            players=players,
            rounds=total,
            played=played_rounds,
            seed=plan.seed,
            pairs=pairs,
            fixed=fixed,
            stationary=staying,
        )
        if tuple(rotation.rounds[: len(played_rounds)]) != tuple(played_rounds):
            raise DomainError("the repair would change a round already played")  # a bug guard
        plan.planned_rounds.filter(status=PlannedRound.Status.PLANNED).delete()
        _store_rounds(plan, rotation.rounds[len(played_rounds) :], first_number=len(played) + 1)
        plan.rounds = total
        plan.report = report
        plan.save(update_fields=["rounds", "report", "updated_at"])
        _email_seats_on_commit(night)
        return plan


def _substitute(*, night: Night, user, leaver: Player, player: Player | None, name: str):
    with transaction.atomic():
        night = _lock_night(night, user)
        _refuse_when_finished(night)
        plan = _published_plan(night)
        if player is None and not " ".join(name.split()):
            raise DomainError("name the substitute", field="substitute")
        attendance = Attendance.objects.filter(night=night, player=leaver).first()
        if attendance is None:
            raise DomainError(f"{leaver} is not playing tonight", field="substitute_for")
        substitute = night_check_in(night=night, user=user, player=player, name=name)
        if Seat.objects.filter(round__plan=plan, player=substitute).exists():
            raise ConflictError(
                f"{substitute} already has seats tonight; choose someone else", code="seated"
            )
        if attendance.left_at is None:
            night_check_out(night=night, player=leaver, user=user)
        Seat.objects.filter(
            round__plan=plan, round__status=PlannedRound.Status.PLANNED, player=leaver
        ).update(player=substitute)
        plan.save(update_fields=["updated_at"])
        _email_seats_on_commit(night)
        return plan


def night_finish(*, night: Night, user) -> Night:
    """End the night. A playing round is closed when its games are over; rounds never started
    stay in the plan unplayed."""
    with transaction.atomic():
        night = _lock_night(night, user)
        _refuse_when_finished(night)
        plan = NightPlan.objects.filter(night=night).first()
        if plan is not None:
            for planned in planned_rounds_lock(plan, PlannedRound.Status.STARTED):
                _finish_round(night, planned)
        night.status = Night.Status.FINISHED
        night.save(update_fields=["status"])
        night_id = night.pk
        transaction.on_commit(lambda: jobs.send_night_report_email(night_id))
        return night


# ---------------------------------------------------------------------------------------------
# Selectors (reads for pages and the API)


@dataclass
class TablePlace:
    number: int
    players: list[Player]
    game: Game | None = None

    @property
    def side_a(self) -> tuple[Player, Player]:
        return (self.players[0], self.players[2])

    @property
    def side_b(self) -> tuple[Player, Player]:
        return (self.players[1], self.players[3])


@dataclass
class RoundChart:
    number: int
    status: str
    tables: list[TablePlace] = field(default_factory=list)
    byes: list[Player] = field(default_factory=list)

    @property
    def status_label(self) -> str:
        return PlannedRound.Status(self.status).label


def night_chart(*, night: Night, include_draft: bool = False) -> list[RoundChart]:
    """Every round of the night's plan: each table's four players clockwise, the byes, and the
    game when the round has started. A draft plan is the organisers' alone: its rounds are
    given only with ``include_draft`` (their screens); the public sees a published plan."""
    plan = NightPlan.objects.filter(night=night).first()
    if plan is None or (plan.status == NightPlan.Status.DRAFT and not include_draft):
        return []
    games = {
        (game.round_number, game.table_number): game
        for game in Game.objects.filter(night=night).select_related(
            "seat_0", "seat_1", "seat_2", "seat_3"
        )
    }
    charts = []
    rounds = plan.planned_rounds.order_by("number").prefetch_related("seats__player")
    for planned in rounds:
        chart = RoundChart(number=planned.number, status=planned.status)
        tables: dict[int, list[Seat]] = {}
        for seat in planned.seats.all():
            if seat.table_number is None:
                chart.byes.append(seat.player)
            else:
                tables.setdefault(seat.table_number, []).append(seat)
        for number, seats in sorted(tables.items()):
            ordered = [seat.player for seat in sorted(seats, key=lambda s: s.seat)]
            chart.tables.append(
                TablePlace(number=number, players=ordered, game=games.get((planned.number, number)))
            )
        chart.byes.sort(key=lambda player: player.name)
        charts.append(chart)
    return charts


@dataclass
class PlayerRound:
    """Where one player sits in one round: table and seat, partner and opponents, or a bye."""

    number: int
    status: str
    table: int | None
    seat: int | None
    partner: Player | None
    opponents: list[Player]
    game: Game | None

    @property
    def is_bye(self) -> bool:
        return self.table is None

    @property
    def deals_first(self) -> bool:
        return self.seat == 0

    @property
    def score(self) -> str:
        """The player's side first: "10–6"; empty until the game has a score."""
        if self.game is None or self.game.status == Game.Status.SCHEDULED:
            return ""
        ours, theirs = self.game.score_a, self.game.score_b
        if self.seat in (1, 3):
            ours, theirs = theirs, ours
        return f"{ours}–{theirs}"


def player_schedule(*, night: Night, player: Player, charts=None) -> list[PlayerRound]:
    """ "Where do I sit next": the player's rounds in order (``charts`` from ``night_chart``)."""
    schedule = []
    for chart in charts if charts is not None else night_chart(night=night):
        place = None
        for table in chart.tables:
            ids = [p.pk for p in table.players]
            if player.pk in ids:
                seat = ids.index(player.pk)
                place = PlayerRound(
                    number=chart.number,
                    status=chart.status,
                    table=table.number,
                    seat=seat,
                    partner=table.players[(seat + 2) % 4],
                    opponents=[table.players[(seat + 1) % 4], table.players[(seat + 3) % 4]],
                    game=table.game,
                )
        if place is None and any(p.pk == player.pk for p in chart.byes):
            place = PlayerRound(chart.number, chart.status, None, None, None, [], None)
        if place is not None:
            schedule.append(place)
    return schedule


def night_players(*, night: Night) -> list[Player]:
    """Everyone with a seat in the plan or checked in, by name."""
    ids = set(Seat.objects.filter(round__plan__night=night).values_list("player_id", flat=True))
    ids |= set(Attendance.objects.filter(night=night).values_list("player_id", flat=True))
    return list(Player.objects.filter(pk__in=ids).order_by("name"))


def night_game_length(*, night: Night) -> str:
    """The game length in words: the plan's override or the season rulebook's."""
    plan = NightPlan.objects.filter(night=night).first()
    if plan is not None and plan.hands_per_game:
        return f"{plan.hands_per_game} hands a game"
    options = night.season.rulebook.options
    rules = RulebookRules.from_options(options)
    if rules.is_timed:
        return rules.length_words[:1].lower() + rules.length_words[1:]
    if options.get("game_length") == "hands":
        return f"{options.get('hands_per_game')} hands a game"
    return f"games to {options.get('target_score')} points"
