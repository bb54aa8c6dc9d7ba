"""Models of the tournaments app: brackets (``brackets.py``), night rotations and table cards."""

from tournaments.models.brackets import *  # noqa: F403
from tournaments.models.clocks import *  # noqa: F403
from tournaments.models.mail import *  # noqa: F403
from tournaments.models.money import *  # noqa: F403
from tournaments.models.rotations import *  # noqa: F403
from tournaments.models.tables import *  # noqa: F403
