"""The Celery app: tasks live in each app's ``tasks`` module; settings use the CELERY_ prefix."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("euchre")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
