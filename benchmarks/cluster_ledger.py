"""The judge of ``scripts/cluster-night``: what the captains were told, what the database holds,
what the proxy logged, and whether the standings converged. Pure Python (no Django, no network),
so that its verdicts are tested on their own (``tests/bench/test_cluster_ledger.py``).

- *entry*: one hand a captain decided to send: its game, number, client key and facts. It is sent
  until an answer says it is stored (201, or 200 for a resend the server had already stored),
  always with the same key, as the captain page's offline queue does; each sending is an
  *attempt*.
- *acknowledged*: the captain was told the hand is stored, with the hand's id.
- *lost*: acknowledged, but the database does not hold that hand (id, game, number and key) as
  counting.
- *duplicate*: a client key stored more than once, a counting hand the captains never sent, or
  two counting hands with one game and number.
- *in flight on the killed host*: a 5xx the proxy logged for the killed web host, for a request it
  accepted before the kill; any other 5xx fails the night.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime


@dataclass
class Entry:
    game: int
    number: int
    key: str
    facts: dict
    attempts: int = 0
    failures: list[str] = field(default_factory=list)
    hand_id: int | None = None
    status: int | None = None
    refused: str = ""


class Ledger:
    """Every hand the captains sent, and what they were told; safe to share between threads."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self._lock = threading.Lock()

    def sent(self, *, game: int, number: int, key: str, facts: dict) -> Entry:
        entry = Entry(game=game, number=number, key=key, facts=facts)
        with self._lock:
            self.entries.append(entry)
        return entry

    def attempt(self, entry: Entry) -> None:
        with self._lock:
            entry.attempts += 1

    def failed(self, entry: Entry, reason: str) -> None:
        """An attempt ended without an answer that says stored or refused: it is sent again."""
        with self._lock:
            entry.failures.append(reason)

    def acknowledged(self, entry: Entry, *, status: int, hand_id: int) -> None:
        with self._lock:
            entry.status, entry.hand_id = status, hand_id

    def refuse(self, entry: Entry, *, status: int, body: str) -> None:
        """An answer that is neither stored nor worth a resend (a 4xx but 429): the night fails."""
        with self._lock:
            entry.status, entry.refused = status, f"{status} {body[:200]}"


@dataclass(frozen=True)
class StoredHand:
    """A counting hand as the database holds it."""

    id: int
    game: int
    number: int
    key: str | None


@dataclass
class HandsVerdict:
    sent: int
    attempts: int
    resent: int
    acknowledged: int
    unacknowledged: int
    refused: int
    stored: int
    lost: int
    duplicates: int
    problems: list[str]

    @property
    def passed(self) -> bool:
        return not self.problems


def hands_compare(entries: Iterable[Entry], stored: Iterable[StoredHand]) -> HandsVerdict:
    """The ledger against the database's counting hands of the night's games."""
    entries, stored = list(entries), list(stored)
    problems: list[str] = []
    by_key: dict[str, list[StoredHand]] = {}
    for hand in stored:
        by_key.setdefault(hand.key or "", []).append(hand)
    keys = {entry.key for entry in entries}
    lost = 0
    for entry in entries:
        if entry.hand_id is None:
            continue
        found = [h for h in by_key.get(entry.key, []) if h.id == entry.hand_id]
        if not found or (found[0].game, found[0].number) != (entry.game, entry.number):
            lost += 1
            problems.append(
                f"lost: game {entry.game} hand {entry.number} (key {entry.key}, told id "
                f"{entry.hand_id}) is not stored as told"
            )
    duplicates = 0
    for key, hands in by_key.items():
        if key not in keys:
            duplicates += len(hands)
            problems.append(f"a counting hand nobody sent: {[h.id for h in hands]} (key {key!r})")
        elif len(hands) > 1:
            duplicates += len(hands) - 1
            problems.append(f"key {key} stored {len(hands)} times: {[h.id for h in hands]}")
    for (game, number), count in Counter((h.game, h.number) for h in stored).items():
        if count > 1:
            duplicates += count - 1
            problems.append(f"game {game} hand {number} counted {count} times")
    refused = [entry for entry in entries if entry.refused]
    problems += [f"refused: game {e.game} hand {e.number}: {e.refused}" for e in refused]
    unacknowledged = [e for e in entries if e.hand_id is None and not e.refused]
    problems += [
        f"never acknowledged: game {e.game} hand {e.number} after {e.attempts} attempts "
        f"({', '.join(e.failures[-3:])})"
        for e in unacknowledged
    ]
    return HandsVerdict(
        sent=len(entries),
        attempts=sum(e.attempts for e in entries),
        resent=sum(max(e.attempts - 1, 0) for e in entries),
        acknowledged=sum(e.hand_id is not None for e in entries),
        unacknowledged=len(unacknowledged),
        refused=len(refused),
        stored=len(stored),
        lost=lost,
        duplicates=duplicates,
        problems=problems,
    )


# --- The proxy's log -----------------------------------------------------------------------------

HAPROXY_HTTPLOG = re.compile(
    r"\[(?P<accepted>\d{2}/\w{3}/\d{4}:\d{2}:\d{2}:\d{2}\.\d{3})\] \S+ "
    r"(?P<backend>[^/\s]+)/(?P<server>\S+) \S+ (?P<status>-?\d+) .*?\"(?P<request>[^\"]*)\""
)


@dataclass(frozen=True)
class ProxyLine:
    accepted: float  # seconds since the epoch (UTC)
    server: str  # "<NOSRV>" when the proxy found no server
    status: int
    request: str


def proxy_line_parse(line: str) -> ProxyLine | None:
    """One line of haproxy's ``option httplog`` (``log stdout format raw``), or None for any other
    line (its start-up notices, health-check reports)."""
    match = HAPROXY_HTTPLOG.search(line)
    if match is None:
        return None
    accepted = datetime.strptime(match["accepted"], "%d/%b/%Y:%H:%M:%S.%f")
    return ProxyLine(
        accepted=accepted.replace(tzinfo=UTC).timestamp(),
        server=match["server"],
        status=int(match["status"]),
        request=match["request"],
    )


PROXY_DOWN = re.compile(
    r"^Server [^/\s]+/(?P<server>\S+) is DOWN, .*? (?P<active>\d+) sessions active"
)


def proxy_down_active(lines: Iterable[str], server: str) -> list[int]:
    """The requests haproxy held on ``server`` each time it marked it down (its own log line
    "Server web/web1 is DOWN, … 3 sessions active, …"): the requests in flight on it."""
    found = []
    for line in lines:
        match = PROXY_DOWN.search(line)
        if match and match["server"] == server:
            found.append(int(match["active"]))
    return found


@dataclass
class ServerErrors:
    by_host: dict[str, int]
    in_flight: int
    requests_by_host: dict[str, int]
    problems: list[str]

    @property
    def passed(self) -> bool:
        return not self.problems


def server_errors_judge(
    lines: Iterable[ProxyLine],
    *,
    killed: str,
    killed_at: float,
    in_flight_most: int,
    dying: float = 0.0,
) -> ServerErrors:
    """5xx by host. Allowed: those of the killed host for requests accepted before the kill (they
    were in flight on it), at most ``in_flight_most`` (the requests the proxy lets one host hold).
    ``killed_at`` is when the kill began and ``dying`` how long it took until every process of the
    host was gone (a request accepted meanwhile was in flight on a dying host); the proxy logs to
    the millisecond, so a request accepted in the same millisecond counts as before."""
    by_host: Counter[str] = Counter()
    requests: Counter[str] = Counter()
    problems: list[str] = []
    in_flight = 0
    for line in lines:
        requests[line.server] += 1
        if line.status < 500:
            continue
        by_host[line.server] += 1
        if line.server == killed and line.accepted <= killed_at + dying + 0.001:
            in_flight += 1
        else:
            problems.append(
                f"{line.status} from {line.server} for {line.request!r}, accepted "
                f"{line.accepted - killed_at:+.3f} s from the kill"
            )
    if in_flight > in_flight_most:
        problems.append(
            f"{in_flight} 5xx in flight on {killed}, more than the {in_flight_most} it could hold"
        )
    return ServerErrors(
        by_host=dict(by_host),
        in_flight=in_flight,
        requests_by_host=dict(requests),
        problems=problems,
    )


@dataclass(frozen=True)
class Failure:
    """A request a client sent that was not answered, or answered 5xx (or 429)."""

    what: str  # the status, or the connection error's name
    path: str
    started: float
    ended: float


@dataclass
class ClientFailures:
    in_flight: int
    by_kind: dict[str, int]
    problems: list[str]

    @property
    def passed(self) -> bool:
        return not self.problems


def client_failures_judge(
    failures: Iterable[Failure], *, killed_at: float, window: float, dying: float = 0.0
) -> ClientFailures:
    """What the clients saw go wrong. Allowed: requests sent before the host was gone (the kill
    began at ``killed_at`` and took ``dying`` seconds) that failed within ``window`` seconds of
    that (in flight when the host died: dropped, cut short, or a 5xx from the proxy; the proxy's
    own counters say which host, :func:`proxy_counters_judge`); the captains send those hands
    again. Anything else fails the night."""
    failures = list(failures)
    problems = []
    in_flight = 0
    for failure in failures:
        gone = killed_at + dying
        if failure.started <= gone and killed_at <= failure.ended <= gone + window:
            in_flight += 1
        else:
            problems.append(
                f"{failure.what} for {failure.path}, sent {failure.started - killed_at:+.3f} s "
                f"and failed {failure.ended - killed_at:+.3f} s from the kill"
            )
    return ClientFailures(
        in_flight=in_flight,
        by_kind=dict(Counter(failure.what for failure in failures)),
        problems=problems,
    )


PROXY_ERRORS = ("hrsp_5xx", "econ", "eresp", "srv_abrt")
"""haproxy's counters (``show stat``) of answers a server failed: 5xx answers, connections
refused, responses cut short or never come, streams the server aborted."""


def proxy_counters_judge(stats: dict[str, dict[str, str]], *, killed: str) -> list[str]:
    """Problems: a failure counted against a web host that was not killed, or any 5xx."""
    problems = []
    for name, row in stats.items():
        if name in ("FRONTEND", "BACKEND"):
            continue
        failed = {c: int(row.get(c) or 0) for c in PROXY_ERRORS if int(row.get(c) or 0)}
        if name != killed and failed:
            problems.append(f"the proxy counted failures on {name}, which was not killed: {failed}")
    return problems


# --- The standings -------------------------------------------------------------------------------

VOLATILE = ("computed_at",)
"""Parts of a standings answer that differ between two computations of the same results."""


def standings_differences(converged: dict, recomputed: dict) -> list[str]:
    """Where two standings answers differ, but for when they were computed (``VOLATILE``)."""
    differences = []
    for part in sorted(set(converged) | set(recomputed)):
        if part in VOLATILE:
            continue
        if converged.get(part) != recomputed.get(part):
            differences.append(part)
    return differences


def convergence_wait(
    read: Callable[[], dict | None],
    *,
    is_converged: Callable[[dict], bool],
    clock: Callable[[], float],
    wait: Callable[[float], object],
    since: float,
    limit: float,
    every: float = 0.1,
) -> tuple[float | None, dict | None]:
    """Read until ``is_converged``; returns (seconds from ``since``, the converged answer), or
    (None, the last answer) when ``limit`` seconds from ``since`` pass first."""
    last = None
    while True:
        answer = read()
        now = clock()
        if answer is not None:
            last = answer
            if is_converged(answer):
                return now - since, answer
        if now - since > limit:
            return None, last
        wait(every)
