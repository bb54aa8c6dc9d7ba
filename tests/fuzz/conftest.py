from tests.fuzz import REQUESTS


def pytest_terminal_summary(terminalreporter):
    """The number of requests the fuzzer sent, so CI's output shows how hard it looked."""
    if REQUESTS:
        per_audience = ", ".join(f"{name} {count}" for name, count in sorted(REQUESTS.items()))
        terminalreporter.write_line(
            f"API fuzzing: {sum(REQUESTS.values())} requests ({per_audience})"
        )
