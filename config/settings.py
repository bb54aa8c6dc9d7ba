"""One settings module, driven by the environment (cookiecutter-django style).

With nothing set it is the *embedded* shape: SQLite (WAL, immediate transactions), Celery tasks run
eagerly in process, a local-memory cache, DEBUG on for the local demo. In production set
``DEBUG=0``, ``SECRET_KEY``, ``ALLOWED_HOSTS``, ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL``
(Celery broker and cache).
"""

import os
import secrets
from pathlib import Path

from kombu import Queue

from config.database import pooling_from_environment, postgres_database
from config.email import email_settings

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
# Production (a DATABASE_URL with DEBUG off) must bring its own secret key; it is never committed.
# The embedded shape keeps a key of its own in .secret_key (git-ignored), made on first start.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG and os.environ.get("DATABASE_URL"):
        raise RuntimeError("SECRET_KEY must be set in production (see README: Configuration)")
    key_file = BASE_DIR / ".secret_key"
    if not key_file.exists():
        key_file.write_text(secrets.token_urlsafe(50))
    SECRET_KEY = key_file.read_text().strip()

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "django_filters",
    "drf_spectacular_sidecar",
    "django_htmx",
    "league",
    "scoring.games",
    "scoring.standings",
    "tournaments",
]

MIDDLEWARE = [
    # First: the request id is bound for everything after it, and every answer is timed.
    "config.observability.ObserveRequests",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Before anything reads a cookie, a header or a form: a NUL or a lone surrogate is a 400.
    "config.middleware.RefuseUnstorableCharacters",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            "libraries": {
                "site_nav": "config.site_nav",
                "round_clock": "config.round_clock",
                "table_card": "config.table_card",
            },
        },
    },
]

# Database: SQLite by default (WAL so readers never block the one writer; IMMEDIATE so a write
# transaction takes the write lock at BEGIN instead of failing mid-way with "database is locked").
DATABASE_URL = os.environ.get("DATABASE_URL", "")
DATABASE_POOLING = pooling_from_environment()
"""``transaction`` when DATABASE_URL names a transaction-pooling PgBouncer: each transaction may
run on another server connection, so nothing may outlive one (README: How to scale out)."""
if DATABASE_URL:
    DATABASES = {"default": postgres_database(DATABASE_URL, pooling=DATABASE_POOLING)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": (
                    "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"
                ),
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Redis: the Celery broker and the cache. Without it, tasks run eagerly and the cache is local.
# A Redis outage must not break a night (README: When Redis or the worker is down): the cache falls
# back to a per-process local-memory cache (config.cache), the broker gives up within a second,
# and the beat sweeps redo what a lost message would have done.
REDIS_URL = os.environ.get("REDIS_URL", "")
REDIS_TIMEOUT = float(os.environ.get("REDIS_TIMEOUT", "0.5"))
"""Seconds to connect to Redis, and to wait for one answer, before taking it as down."""
LOCAL_CACHE = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "local"}
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "config.cache.FailSoftRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "euchre",
            "OPTIONS": {
                "socket_connect_timeout": REDIS_TIMEOUT,
                "socket_timeout": REDIS_TIMEOUT,
                "FALLBACK": "local",
            },
        },
        "local": LOCAL_CACHE,
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
else:
    CACHES = {"default": LOCAL_CACHE}
    CELERY_BROKER_URL = "memory://localhost/"  # a host, or kombu warns it reverts to one
    CELERY_TASK_ALWAYS_EAGER = True
# Two queues. `celery` (the default): standings recomputes, point re-derivations, bracket advances
# and the sweeps, the jobs a captain or a player waits for. `race`: the playoff race and projected
# ranks (scoring.compute_season_race), seconds of simulation in a large season that nobody waits
# on. A worker started without -Q consumes both; docker-compose runs one worker per queue, so a
# recompute never waits behind a race.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = (Queue("celery", routing_key="celery"), Queue("race", routing_key="race"))
CELERY_TASK_ROUTES = {"scoring.compute_season_race": {"queue": "race"}}
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True  # a worker killed mid-job leaves the message for another worker
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker rides out a broker outage of any length: it retries forever (Celery's default gives up,
# and the worker exits, after 100 tries), and a task running when the connection drops is
# cancelled and redelivered (it is acknowledged late) rather than left unacknowledgeable.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# Heartbeats (config.celery): every worker and the beat set a key in Redis this often; /readyz
# lists them. The beat ticks at least this often so that it beats on time.
HEARTBEAT_SECONDS = float(os.environ.get("HEARTBEAT_SECONDS", "10"))
CELERY_BEAT_SCHEDULER = "config.celery:HeartbeatScheduler"
CELERY_BEAT_MAX_LOOP_INTERVAL = HEARTBEAT_SECONDS
READY_PENDING_SECONDS = float(os.environ.get("READY_PENDING_SECONDS", "120"))
"""/readyz is 503 while a result change has waited longer than this for the standings."""
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_TIMEOUT
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 3600,
    "socket_connect_timeout": REDIS_TIMEOUT,
    "socket_timeout": REDIS_TIMEOUT,
}
# A web request sends its task after commit: one quick retry, then give up (core.enqueue logs
# it and the sweeps catch up) rather than hold the captain's request for seconds.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
# Every 5 s: a worker killed while holding a message keeps it until Redis's visibility timeout
# (an hour); the sweep (25-44 ms over 10,000 seasons, benchmarks/bench_sweep.py) is what brings
# the standings back within seconds (scripts/cluster-night measured 44.7 s at 60 s, 0.7-1.7 s at 5).
CELERY_BEAT_SCHEDULE = {
    "sweep-stale-seasons": {
        "task": "scoring.sweep_stale_seasons",
        "schedule": float(os.environ.get("SWEEP_SECONDS", "5")),
    },
    "sweep-brackets": {
        "task": "tournaments.sweep_brackets",
        "schedule": float(os.environ.get("SWEEP_SECONDS", "5")),
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "/manage/login/"
LOGIN_REDIRECT_URL = "/manage/"

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("TIME_ZONE", "America/New_York")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = os.environ.get("STATIC_ROOT", str(BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if env_bool("STATIC_MANIFEST", not DEBUG)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = env_bool("WHITENOISE_USE_FINDERS", DEBUG)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "league.api.authentication.ApiTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["core.api.permissions.ReadOnlyOrOrganiser"],
    "DEFAULT_SCHEMA_CLASS": "core.api.schema.AutoSchema",
    "EXCEPTION_HANDLER": "core.api.errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "core.api.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PARSER_CLASSES": [
        "core.api.parsers.ObjectJSONParser",
        "core.api.parsers.BoundedFormParser",
        "core.api.parsers.BoundedMultiPartParser",
    ],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Euchre league API",
    "DESCRIPTION": (
        "Leagues, seasons, rulebooks, players, teams, games and hands. Reads are public; writes "
        "need an organiser of the league (session or token auth). Hands are created with an "
        "Idempotency-Key header."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc from the installed sidecar package: the docs work offline, no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    # No deep links: Swagger UI would put each operation's link inside its expand button (a
    # control nested in a control, which screen readers cannot reach).
    "SWAGGER_UI_SETTINGS": {"deepLinking": False},
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "SideEnum": "scoring.games.models.Side",
        "GameStatusEnum": "scoring.games.models.Game.Status",
        "HandStatusEnum": "scoring.games.models.Hand.Status",
        "SidePotKindEnum": "tournaments.domain.pot.SIDE_POT_KIND_CHOICES",
    },
}

# Security: secure defaults whenever DEBUG is off (manage.py check --deploy stays clean).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp 4) on every answer: scripts, styles, fonts and fetches from
# this site only, no inline script or style (templates load static files; htmx's own indicator
# style is turned off in base.html and lives in app.css), images also as data: URIs.
# /api/docs/ fits it once Swagger UI is served from drf-spectacular-sidecar's static files with
# SpectacularSwaggerSplitView (its init script is a separate 'self' URL).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
SILENCED_SYSTEM_CHECKS = ["security.W021"] if not SECURE_HSTS_PRELOAD else []

# Logs (config.logs): every record carries the request id; JSON lines in production (a
# DATABASE_URL with DEBUG off) unless LOG_FORMAT says "text", text otherwise. Workers use the same
# configuration (config.celery).
LOG_FORMAT = os.environ.get("LOG_FORMAT") or ("json" if DATABASE_URL and not DEBUG else "text")
TASK_LOG_LEVEL = os.environ.get(
    "CELERY_LOG_LEVEL",
    "WARNING" if CELERY_TASK_ALWAYS_EAGER else os.environ.get("LOG_LEVEL", "INFO"),
)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "config.logs.RequestIdFilter"}},
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(levelname)s %(name)s %(message)s %(request_id)s",
            "rename_fields": {"levelname": "level", "name": "logger"},
            "timestamp": "time",  # ISO 8601, in UTC
        },
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": "json" if LOG_FORMAT == "json" else "text",
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # Django's own logger is INFO by its defaults, so its records (a warning per 4xx answer
        # from django.request) would reach the console whatever the root's level. Set where
        # they start: naming "django" itself would drop its handlers and runserver's format.
        "django.request": {"level": os.environ.get("LOG_LEVEL", "INFO")},
        "django.security": {"level": os.environ.get("LOG_LEVEL", "INFO")},
        "django.db.backends": {"level": "WARNING"},
        # Celery logs a line per task at INFO ("Task … succeeded"), and so do the standings
        # recomputes ("standings of season 4 recomputed …", with the request id): with eager
        # tasks (the embedded shape) that is a line per hand in the console, so there they log
        # warnings and errors only, unless CELERY_LOG_LEVEL asks for more. A worker keeps
        # LOG_LEVEL.
        "celery": {"level": TASK_LOG_LEVEL},
        "scoring.standings.tasks": {"level": TASK_LOG_LEVEL},
        "tournaments.mail": {"level": TASK_LOG_LEVEL},  # a line per email job, likewise
    },
}

# How many wrong captain tokens may be tried per minute from one address, and (from any address)
# beginning alike, before wrong ones are refused (429); a valid token never is
# (scoring.games.access).
CAPTAIN_TOKEN_GUESSES_PER_MINUTE = os.environ.get("CAPTAIN_TOKEN_GUESSES_PER_MINUTE", "30/m")
# Failed sign-ins (/manage/login/, /admin/login/) of one username from one address per window
# before that pair waits (429 with Retry-After) until the window ends (league.access.login_wait).
LOGIN_RATE = os.environ.get("LOGIN_RATE", "10/m")
# The public pages' own POSTs (checking in at the door, "I'm coming") of one phone or player
# link from one address per window, before it waits (429 with Retry-After;
# league.access.public_post_wait).
PUBLIC_POST_RATE = os.environ.get("PUBLIC_POST_RATE", "20/m")
RATELIMIT_USE_CACHE = "default"
# Behind a reverse proxy every request comes from the proxy's address: name the header that carries
# the real client address (e.g. HTTP_X_REAL_IP, set by the proxy) so rate limits key on it.
RATELIMIT_IP_META_KEY = os.environ.get("RATELIMIT_IP_META_KEY") or None

# Email (config.email, README: Configuration): EMAIL_URL, or EMAIL_HOST with EMAIL_PORT,
# EMAIL_HOST_USER, EMAIL_HOST_PASSWORD and EMAIL_USE_TLS; neither: the console backend.
_email = email_settings(os.environ)
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email["EMAIL_HOST"]
EMAIL_PORT = _email["EMAIL_PORT"]
EMAIL_HOST_USER = _email["EMAIL_HOST_USER"]
EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_PASSWORD"]
EMAIL_USE_TLS = _email["EMAIL_USE_TLS"]
EMAIL_USE_SSL = _email["EMAIL_USE_SSL"]
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Euchre league <euchre@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The site's address, for the links in emails (a worker has no request to take it from).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# Sign-ups for emails (a public page) one address may ask per window (league.access).
EMAIL_SIGNUP_RATE = os.environ.get("EMAIL_SIGNUP_RATE", "5/h")

# Metrics (config.observability, README: Observability): GET /metrics answers a scraper asking
# directly from these networks, or sending "Authorization: Bearer <METRICS_TOKEN>"; 403 otherwise.
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
METRICS_ALLOWED_NETWORKS = env_list(
    "METRICS_ALLOWED_NETWORKS",
    "127.0.0.0/8,::1/128,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7",
)
# Several processes (gunicorn's workers, a prefork Celery worker's children) count into files in
# this folder, summed at each scrape (prometheus_client's multiprocess mode; it reads the variable
# itself). Empty: each process counts in memory (the embedded shape: one process).
PROMETHEUS_MULTIPROC_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
if PROMETHEUS_MULTIPROC_DIR:
    Path(PROMETHEUS_MULTIPROC_DIR).mkdir(parents=True, exist_ok=True)
# A worker serves its own metrics (the recompute durations) on this port; 0: it does not.
WORKER_METRICS_PORT = int(os.environ.get("WORKER_METRICS_PORT", "0"))
