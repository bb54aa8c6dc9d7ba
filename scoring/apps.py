from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self):
        # Registers the tasks in every process, so a job sent by name (scoring.jobs) runs in
        # process in eager mode; the worker finds them by autodiscovery as well.
        from scoring import tasks  # noqa: F401
