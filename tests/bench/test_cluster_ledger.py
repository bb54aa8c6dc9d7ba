"""The judge of ``scripts/cluster-night`` (``benchmarks/cluster_ledger.py``): each of its
verdicts passes a good night and fails each kind of bad one. The night itself needs root, haproxy
and PgBouncer, and runs as ``make cluster`` (README: How to scale out)."""

from datetime import UTC, datetime

from benchmarks.cluster_ledger import (
    Failure,
    Ledger,
    StoredHand,
    client_failures_judge,
    convergence_wait,
    hands_compare,
    proxy_counters_judge,
    proxy_down_active,
    proxy_line_parse,
    server_errors_judge,
    standings_differences,
)

KILL = datetime(2026, 11, 28, 9, 30, 0, tzinfo=UTC).timestamp()


def night(*hands: tuple[int, int, str, int | None]) -> Ledger:
    """A ledger of (game, number, key, hand id told or None)."""
    ledger = Ledger()
    for game, number, key, hand_id in hands:
        entry = ledger.sent(game=game, number=number, key=key, facts={"number": number})
        ledger.attempt(entry)
        if hand_id is not None:
            ledger.acknowledged(entry, status=201, hand_id=hand_id)
    return ledger


def test_every_hand_told_stored_is_stored_once():
    ledger = night((1, 1, "a", 10), (1, 2, "b", 11), (2, 1, "c", 12))
    resent = ledger.entries[1]
    ledger.failed(resent, "RemoteDisconnected")
    ledger.attempt(resent)
    verdict = hands_compare(
        ledger.entries,
        [StoredHand(10, 1, 1, "a"), StoredHand(11, 1, 2, "b"), StoredHand(12, 2, 1, "c")],
    )
    assert verdict.passed, verdict.problems
    assert (verdict.sent, verdict.attempts, verdict.resent) == (3, 4, 1)
    assert (verdict.acknowledged, verdict.stored, verdict.lost, verdict.duplicates) == (3, 3, 0, 0)


def test_a_hand_told_stored_but_missing_or_elsewhere_is_lost():
    ledger = night((1, 1, "a", 10), (1, 2, "b", 11), (1, 3, "c", 12))
    verdict = hands_compare(
        ledger.entries,
        [StoredHand(10, 1, 1, "a"), StoredHand(99, 1, 2, "b"), StoredHand(12, 1, 4, "c")],
    )
    assert not verdict.passed
    assert verdict.lost == 2  # b under another id, c under another number
    assert verdict.duplicates == 0


def test_a_key_stored_twice_a_hand_nobody_sent_and_a_number_counted_twice_are_duplicates():
    ledger = night((1, 1, "a", 10), (1, 2, "b", 11))
    verdict = hands_compare(
        ledger.entries,
        [
            StoredHand(10, 1, 1, "a"),
            StoredHand(11, 1, 2, "b"),
            StoredHand(13, 1, 3, "b"),  # b again, as hand 3
            StoredHand(14, 2, 1, None),  # nobody sent it
        ],
    )
    assert verdict.lost == 0
    assert verdict.duplicates == 2
    assert len(verdict.problems) == 2
    verdict = hands_compare(
        ledger.entries,
        [StoredHand(10, 1, 1, "a"), StoredHand(11, 1, 2, "b"), StoredHand(15, 1, 2, "b2")],
    )
    assert verdict.duplicates == 2  # a key nobody sent, and hand 2 counted twice


def test_a_hand_never_acknowledged_or_refused_fails_the_night_but_is_not_lost():
    ledger = night((1, 1, "a", None), (1, 2, "b", None))
    ledger.refuse(ledger.entries[1], status=409, body='{"code": "hand_exists"}')
    verdict = hands_compare(ledger.entries, [StoredHand(10, 1, 1, "a")])
    assert (verdict.lost, verdict.duplicates, verdict.unacknowledged, verdict.refused) == (
        0,
        0,
        1,
        1,
    )
    assert verdict.stored == 1
    assert not verdict.passed


PROXY_LOG = [
    "10.77.0.1:46090 [28/Nov/2026:09:29:59.950] night web/web1 0/0/0/63/63 201 1274 - - ---- "
    '6/6/2/1/0 0/0 "POST /api/v1/games/3/hands/ HTTP/1.1"',
    "10.77.0.1:46091 [28/Nov/2026:09:29:59.999] night web/web1 0/0/0/-1/80 502 209 - - SH-- "
    '6/6/2/1/0 0/0 "POST /api/v1/games/4/hands/ HTTP/1.1"',
    '[WARNING]  (27632) : Server web/web1 is DOWN, reason: Health analyze, info: "Detected 1 '
    'consecutive errors". 1 active and 0 backup servers left. 3 sessions active, 0 requeued, 0 '
    "remaining in queue.",
    'Server web/web1 is DOWN, reason: Health analyze, info: "Detected 1 consecutive errors". 1 '
    "active and 0 backup servers left. 3 sessions active, 0 requeued, 0 remaining in queue.",
    "10.77.0.1:46092 [28/Nov/2026:09:30:00.500] night web/web2 0/0/0/40/40 200 770 - - ---- "
    '6/6/2/1/0 0/0 "GET /api/v1/seasons/1/standings/ HTTP/1.1"',
]


def test_the_proxy_log_is_read_line_by_line():
    lines = [line for line in map(proxy_line_parse, PROXY_LOG) if line is not None]
    assert [(line.server, line.status) for line in lines] == [
        ("web1", 201),
        ("web1", 502),
        ("web2", 200),
    ]
    assert lines[1].accepted == KILL - 0.001
    assert lines[1].request == "POST /api/v1/games/4/hands/ HTTP/1.1"
    assert proxy_down_active(PROXY_LOG, "web1") == [3]
    assert proxy_down_active(PROXY_LOG, "web2") == []


def test_only_5xx_in_flight_on_the_killed_host_are_allowed():
    lines = [line for line in map(proxy_line_parse, PROXY_LOG) if line is not None]
    errors = server_errors_judge(lines, killed="web1", killed_at=KILL, in_flight_most=3)
    assert errors.passed, errors.problems
    assert (errors.by_host, errors.in_flight) == ({"web1": 1}, 1)
    assert errors.requests_by_host == {"web1": 2, "web2": 1}

    late = proxy_line_parse(PROXY_LOG[1].replace("09:29:59.999", "09:30:00.600"))
    elsewhere = proxy_line_parse(PROXY_LOG[1].replace("web/web1", "web/web2"))
    nowhere = proxy_line_parse(PROXY_LOG[1].replace("web/web1", "web/<NOSRV>"))
    for line in (late, elsewhere, nowhere):
        assert not server_errors_judge(
            [line], killed="web1", killed_at=KILL, in_flight_most=3
        ).passed
    assert not server_errors_judge(
        [lines[1]] * 4, killed="web1", killed_at=KILL, in_flight_most=3
    ).passed  # more than the killed host could hold


def test_only_requests_in_flight_at_the_kill_may_fail():
    in_flight = Failure("RemoteDisconnected", "/api/v1/games/4/hands/", KILL - 0.2, KILL + 0.1)
    cut_short = Failure("IncompleteRead", "/l/x/s/1/", KILL - 0.7, KILL + 0.2)
    judged = client_failures_judge([in_flight, cut_short], killed_at=KILL, window=2)
    assert judged.passed
    assert judged.in_flight == 2
    assert judged.by_kind == {"RemoteDisconnected": 1, "IncompleteRead": 1}
    after = Failure("503", "/l/x/s/1/", KILL + 0.5, KILL + 0.6)
    before = Failure("ConnectionRefusedError", "/l/x/s/1/", KILL - 5, KILL - 4.9)
    long_after = Failure("TimeoutError", "/l/x/s/1/", KILL - 0.1, KILL + 15)
    for failure in (after, before, long_after):
        judged = client_failures_judge([in_flight, failure], killed_at=KILL, window=2)
        assert not judged.passed
        assert len(judged.problems) == 1


def test_a_request_sent_while_the_host_was_dying_was_in_flight():
    """The kill takes time (every process of the host, one by one): a request sent between its
    start and the last process's end may have reached the host."""
    during = Failure("RemoteDisconnected", "/api/v1/games/7/hands/", KILL + 0.03, KILL + 0.16)
    assert client_failures_judge([during], killed_at=KILL, window=2, dying=0.05).passed
    assert not client_failures_judge([during], killed_at=KILL, window=2, dying=0.01).passed
    line = proxy_line_parse(PROXY_LOG[1].replace("09:29:59.999", "09:30:00.030"))
    assert server_errors_judge(
        [line], killed="web1", killed_at=KILL, in_flight_most=3, dying=0.05
    ).passed
    assert not server_errors_judge([line], killed="web1", killed_at=KILL, in_flight_most=3).passed


def test_the_proxy_may_count_failures_against_the_killed_host_only():
    stats = {
        "web1": {"hrsp_5xx": "0", "econ": "0", "eresp": "4", "srv_abrt": "4", "wredis": "3"},
        "web2": {"hrsp_5xx": "0", "econ": "0", "eresp": "0", "srv_abrt": "0", "wredis": "0"},
        "BACKEND": {"hrsp_5xx": "0", "econ": "0", "eresp": "4", "srv_abrt": "4"},
    }
    assert proxy_counters_judge(stats, killed="web1") == []
    assert proxy_counters_judge(stats, killed="web2") == [
        "the proxy counted failures on web1, which was not killed: {'eresp': 4, 'srv_abrt': 4}"
    ]
    stats["web2"]["hrsp_5xx"] = "1"
    assert len(proxy_counters_judge(stats, killed="web1")) == 1


def test_standings_compare_all_but_when_they_were_computed():
    converged = {"results_version": 9, "computed_at": "09:30:01", "standings": {"rows": [1, 2]}}
    recomputed = {**converged, "computed_at": "09:30:05"}
    assert standings_differences(converged, recomputed) == []
    assert standings_differences(converged, {**recomputed, "standings": {"rows": [2, 1]}}) == [
        "standings"
    ]
    assert standings_differences(converged, {**recomputed, "ratings": []}) == ["ratings"]


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now

    def wait(self, seconds):
        self.now += seconds


def test_convergence_is_timed_from_the_last_hand():
    clock = Clock()
    answers = iter([None, {"is_current": False}, {"is_current": True}])
    seconds, answer = convergence_wait(
        lambda: next(answers),
        is_converged=lambda a: a["is_current"],
        clock=clock,
        wait=clock.wait,
        since=99.0,
        limit=10,
        every=0.5,
    )
    assert (seconds, answer) == (2.0, {"is_current": True})


def test_convergence_gives_up_after_the_limit_with_the_last_answer():
    clock = Clock()
    seconds, answer = convergence_wait(
        lambda: {"is_current": False},
        is_converged=lambda a: a["is_current"],
        clock=clock,
        wait=clock.wait,
        since=100.0,
        limit=3,
        every=1,
    )
    assert (seconds, answer) == (None, {"is_current": False})
    assert clock.now == 104.0
