from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Games and hands: the euchre engine, captain entry, the games and hands API.

    Its label stays ``scoring``, the label the app had before standings moved out: its tables
    (``scoring_game``, ``scoring_hand`` …) and its migration history keep their names, so a
    database migrated under the old layout needs nothing but the standings' state move.
    """

    name = "scoring.games"
    label = "scoring"
    verbose_name = "Games"

    def ready(self):
        # Registers the tasks in every process, so a job sent by name (scoring.games.jobs) runs in
        # process in eager mode; the worker finds them by autodiscovery as well.
        from scoring.games import tasks  # noqa: F401
