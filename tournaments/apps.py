from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Rotations and brackets"

    def ready(self) -> None:
        from tournaments import receivers  # noqa: F401  (connects the game_finished receiver)
