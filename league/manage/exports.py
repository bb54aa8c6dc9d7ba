"""A season's exports: standings, games and hands as CSV, its nights as an iCalendar feed.

- The standings come from the season's *snapshot* (``scoring.StandingSnapshot``), the same figures
  the public pages show; the games and hands from the rows themselves (counting hands only, the
  corrected and undone ones are on the audit trail).
- The feed is RFC 5545 written by hand: one all-day ``VEVENT`` per night, lines folded at 75
  octets, text escaped, CRLF line ends.
"""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Iterable

STANDINGS_COLUMNS = [
    "rank",
    "name",
    "games",
    "wins",
    "losses",
    "draws",
    "points_for",
    "points_against",
    "point_diff",
    "win_pct",
    "reason",
]
GAME_COLUMNS = [
    "game",
    "night",
    "round",
    "table",
    "side_a",
    "side_b",
    "score_a",
    "score_b",
    "winner",
    "status",
    "confirmation",
    "hands",
]
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A cell starting with one of these is run as a formula by spreadsheet programs (OWASP: CSV
injection); a player's name must not be."""


def _cell(value):
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(columns: list[str], rows: Iterable[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, extrasaction="ignore", lineterminator="\r\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({name: _cell(value) for name, value in row.items()})
    return out.getvalue()


def standings_rows(snapshot_standings: dict | None) -> list[dict]:
    if not snapshot_standings:
        return []
    return [
        {**row, "rank": "" if row["rank"] is None else row["rank"]}
        for row in snapshot_standings["rows"]
    ]


def game_rows(games) -> list[dict]:
    return [
        {
            "game": game.pk,
            "night": f"{game.night.date:%Y-%m-%d}" if game.night_id else "",
            "round": game.round_number or "",
            "table": game.table_number or "",
            "side_a": game.side_name("A"),
            "side_b": game.side_name("B"),
            "score_a": game.score_a,
            "score_b": game.score_b,
            "winner": game.winner,
            "status": game.status,
            "confirmation": game.confirmation,
            "hands": game.hands_played,
        }
        for game in games
    ]


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def _fold(line: str) -> str:
    """Fold a content line at 75 octets (RFC 5545 §3.1), never inside a UTF-8 character."""
    parts, current = [], b""
    for char in line:
        encoded = char.encode()
        limit = 75 if not parts else 74
        if len(current) + len(encoded) > limit:
            parts.append(current.decode())
            current = b""
        current += encoded
    parts.append(current.decode())
    return "\r\n ".join(parts)


def nights_ical(*, calendar_name: str, uid_domain: str, nights, now: datetime.datetime) -> str:
    """An iCalendar feed of nights (objects with ``pk``, ``date``, ``venue``, ``status``)."""
    stamp = now.astimezone(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Euchre league//Nights//EN",
        "CALSCALE:GREGORIAN",
        f"X-WR-CALNAME:{_escape(calendar_name)}",
    ]
    for night in nights:
        next_day = night.date + datetime.timedelta(days=1)
        lines += [
            "BEGIN:VEVENT",
            f"UID:night-{night.pk}@{uid_domain}",
            f"DTSTAMP:{stamp}",
            f"DTSTART;VALUE=DATE:{night.date:%Y%m%d}",
            f"DTEND;VALUE=DATE:{next_day:%Y%m%d}",
            f"SUMMARY:{_escape(calendar_name)}",
        ]
        if night.venue:
            lines.append(f"LOCATION:{_escape(night.venue)}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(_fold(line) + "\r\n" for line in lines)
