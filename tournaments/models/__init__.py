"""Models of the tournaments app: brackets (``brackets.py``) and night rotations."""

from tournaments.models.brackets import *  # noqa: F403
from tournaments.models.rotations import *  # noqa: F403
