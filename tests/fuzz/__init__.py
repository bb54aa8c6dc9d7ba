"""Schema-driven fuzzing of the API; ``REQUESTS`` counts what was sent, per audience."""

from collections import Counter

REQUESTS: Counter = Counter()
