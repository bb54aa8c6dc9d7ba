"""The production packaging, checked without a Docker engine.

docker-compose.yml is validated against the Compose Specification JSON schema (vendored, see
README.md beside this file) and held to what the deployment promises: the eight services, one
beat, migrations before anything runs, scheduled backups, health checks, no committed secret.
The Dockerfile is parsed as text: a non-root USER, gunicorn as the command, a /healthz health
check.
"""

import copy
import http.server
import json
import re
import subprocess
import sys
import threading
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
COMPOSE_FILE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
ENV_EXAMPLE = ROOT / ".env.example"
SETTINGS = ROOT / "config" / "settings.py"

SERVICES = {"db", "redis", "migrate", "web", "worker", "race-worker", "beat", "backup"}
APP_SERVICES = ("migrate", "web", "worker", "race-worker", "beat")
LONG_RUNNING = ("db", "redis", "web", "worker", "race-worker", "beat", "backup")
WORKERS = ("worker", "race-worker")
HEALTHY = {"condition": "service_healthy"}
BACKUP_SCRIPT = "/usr/local/bin/pg-backup"
BACKUP_CHECK = ["CMD", "sh", BACKUP_SCRIPT, "check"]
MIGRATED = {"condition": "service_completed_successfully"}
GUNICORN = [
    "gunicorn",
    "config.wsgi:application",
    "--bind",
    "0.0.0.0:8000",
    "--worker-tmp-dir",
    "/dev/shm",
    "--timeout",
    "30",
    "--graceful-timeout",
    "30",
    "--max-requests",
    "1000",
    "--max-requests-jitter",
    "100",
    "--access-logfile",
    "-",
    "--error-logfile",
    "-",
]
PROBE = (
    "import os, sys, urllib.request as u; "
    "h = (os.environ.get('ALLOWED_HOSTS') or 'localhost').split(',')[0].strip().lstrip('.'); "
    "h = 'localhost' if h in ('', '*') else h; "
    "sys.exit(0 if u.urlopen(u.Request('http://127.0.0.1:8000/healthz', "
    "headers={'Host': h}), timeout=5).status == 200 else 1)"
)
# Settings variables that docker-compose.yml deliberately does not pass: SQLITE_PATH only matters
# without DATABASE_URL; STATIC_ROOT and STATIC_MANIFEST are fixed when the image collects its
# static files (the defaults: /app/staticfiles, manifest on) and must not change at run time.
NOT_PASSED = {"SQLITE_PATH", "STATIC_ROOT", "STATIC_MANIFEST"}


# --- helpers -------------------------------------------------------------------------------------


def load_compose() -> dict:
    return yaml.safe_load(COMPOSE_FILE.read_text())


def load_schema() -> dict:
    return json.loads((HERE / "compose-spec.json").read_text())


def schema_errors(document: dict) -> list[str]:
    # The schema names draft-07 as https://json-schema.org/draft-07/schema, a spelling jsonschema
    # does not map to a draft, so the draft is chosen here.
    validator = jsonschema.Draft7Validator(load_schema())
    return [
        f"{'/'.join(map(str, error.absolute_path)) or '<root>'}: {error.message}"
        for error in sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    ]


def interpolate(value: str, env: dict[str, str]) -> str:
    """Compose-style ${VAR}, ${VAR:-default}, ${VAR:?error} and $$ (enough for this file)."""

    def one(match: re.Match) -> str:
        name, op, arg = match.group(1), match.group(2), match.group(3)
        current = env.get(name, "")
        if op == ":?" and not current:
            raise KeyError(f"{name}: {arg}")
        if op == ":-" and not current:
            return arg
        return current

    value = value.replace("$$", "\0")
    value = re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:[-?])([^}]*))?\}", one, value)
    return value.replace("\0", "$")


def compose_variables() -> set[str]:
    text = COMPOSE_FILE.read_text().replace("$$", "")
    return set(re.findall(r"\$\{([A-Za-z_][A-Za-z0-9_]*)", text))


def settings_variables() -> set[str]:
    text = SETTINGS.read_text()
    return set(
        re.findall(r"""(?:os\.environ\.get|env_bool|env_list)\(\s*["']([A-Z0-9_]+)["']""", text)
    )


def env_example() -> tuple[dict[str, str], set[str]]:
    """(active NAME=value lines, names only mentioned in `# NAME=` comments)."""
    active, mentioned = {}, set()
    for line in ENV_EXAMPLE.read_text().splitlines():
        if match := re.match(r"^([A-Z][A-Z0-9_]*)=(.*)$", line):
            active[match.group(1)] = match.group(2)
        elif match := re.match(r"^#\s*([A-Z][A-Z0-9_]*)=", line):
            mentioned.add(match.group(1))
    return active, mentioned


def dockerfile_stages() -> list[list[tuple[str, str]]]:
    """The Dockerfile as stages of (INSTRUCTION, arguments), continuations joined, comments out."""
    logical, current = [], ""
    for raw in DOCKERFILE.read_text().splitlines():
        line = raw.strip()
        if not current and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):  # a comment inside a continued instruction
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        logical.append(current + line)
        current = ""
    stages: list[list[tuple[str, str]]] = [[]]
    for line in logical:
        instruction, _, args = line.partition(" ")
        if instruction.upper() == "FROM":
            stages.append([])
        stages[-1].append((instruction.upper(), args.strip()))
    return stages


def final_stage() -> list[tuple[str, str]]:
    return dockerfile_stages()[-1]


def instruction(name: str) -> list[str]:
    return [args for inst, args in final_stage() if inst == name]


def exec_form(args: str) -> list[str]:
    """Arguments of CMD/HEALTHCHECK CMD in exec (JSON) form, after any --options."""
    body = args[args.index("[") :]
    value = json.loads(body)
    assert isinstance(value, list) and all(isinstance(v, str) for v in value), args
    return value


# --- the schema ----------------------------------------------------------------------------------


def test_vendored_schema_is_the_compose_specification():
    schema = load_schema()
    assert schema["$id"] == "compose_spec.json"
    assert schema["title"] == "Compose Specification"
    assert schema["$schema"] == "https://json-schema.org/draft-07/schema"
    jsonschema.Draft7Validator.check_schema(schema)
    conditions = schema["definitions"]["service"]["properties"]["depends_on"]["oneOf"][1]
    condition = conditions["patternProperties"]["^[a-zA-Z0-9._-]+$"]["properties"]["condition"]
    assert "service_completed_successfully" in condition["enum"]


def test_compose_file_is_valid_against_the_compose_specification():
    assert schema_errors(load_compose()) == []


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d["services"]["web"]["depends_on"]["migrate"].update(condition="service_done"),
        lambda d: d["services"]["worker"].update(healthchek={"test": ["CMD", "true"]}),
        lambda d: d["services"]["db"]["healthcheck"].update(interval=5),
        lambda d: d.update(service={}),
    ],
    ids=["unknown-condition", "misspelt-key", "interval-not-a-duration-string", "unknown-top-key"],
)
def test_schema_rejects_broken_files(mutate):
    document = copy.deepcopy(load_compose())
    mutate(document)
    assert schema_errors(document) != []


# --- services and their order --------------------------------------------------------------------


def test_exactly_the_promised_services():
    assert set(load_compose()["services"]) == SERVICES


def test_app_services_wait_for_migrations_a_healthy_database_and_a_healthy_broker():
    services = load_compose()["services"]
    for name in ("web", *WORKERS, "beat"):
        assert services[name]["depends_on"] == {
            "db": HEALTHY,
            "redis": HEALTHY,
            "migrate": MIGRATED,
        }, name
    assert services["migrate"]["depends_on"] == {"db": HEALTHY}


def test_migrate_is_a_one_shot():
    migrate = load_compose()["services"]["migrate"]
    assert migrate["command"] == ["python", "manage.py", "migrate", "--noinput"]
    assert migrate["restart"] == "no"


def test_exactly_one_beat_with_a_writable_schedule():
    services = load_compose()["services"]
    beat = services["beat"]
    assert beat["command"] == [
        "celery",
        "-A",
        "config",
        "beat",
        "--loglevel=INFO",
        "--schedule=/tmp/celerybeat-schedule",
    ]
    assert beat["deploy"] == {"replicas": 1}
    assert beat.get("scale", 1) == 1
    # No other service runs a scheduler (e.g. `celery worker -B`).
    for name, service in services.items():
        if name == "beat":
            continue
        command = service.get("command") or []
        assert "beat" not in command and "-B" not in command and "--beat" not in command, name


def test_worker_commands():
    services = load_compose()["services"]
    assert services["worker"]["command"] == [
        "celery",
        "-A",
        "config",
        "worker",
        "--queues=celery",
        "--loglevel=INFO",
        "--concurrency=${CELERY_WORKER_CONCURRENCY:-2}",
        "--without-gossip",
        "--without-mingle",
    ]
    assert services["race-worker"]["command"] == [
        "nice",
        "-n",
        "10",
        "celery",
        "-A",
        "config",
        "worker",
        "--queues=race",
        "--loglevel=INFO",
        "--concurrency=${CELERY_RACE_CONCURRENCY:-1}",
        "--without-gossip",
        "--without-mingle",
    ]
    for name in WORKERS:
        assert services[name]["stop_grace_period"] == "60s", name


def test_every_queue_has_exactly_one_kind_of_worker_and_the_race_its_own():
    """Each queue of the settings is consumed by one compose worker service, so no message waits
    for a worker that is not there; the race jobs go to a queue of their own, so a standings
    recompute never waits behind one; and no two queues share a routing key (a message would be
    delivered to both)."""
    from django.conf import settings

    from config.celery import app
    from scoring.games import jobs

    consumers: dict[str, list[str]] = {}
    for name, service in load_compose()["services"].items():
        command = service.get("command") or []
        if "worker" in command:
            (queues,) = [arg.split("=", 1)[1] for arg in command if arg.startswith("--queues=")]
            for queue in queues.split(","):
                consumers.setdefault(queue, []).append(name)
    declared = [queue.name for queue in settings.CELERY_TASK_QUEUES]
    assert consumers == {"celery": ["worker"], "race": ["race-worker"]}
    assert sorted(declared) == sorted(consumers)
    keys = [queue.routing_key for queue in settings.CELERY_TASK_QUEUES]
    assert len(set(keys)) == len(keys)

    def queue_of(task: str) -> str:
        return app.amqp.router.route({}, task)["queue"].name

    assert queue_of(jobs.COMPUTE_SEASON_RACE) == "race"
    for task in app.tasks:
        if not task.startswith("celery.") and task != jobs.COMPUTE_SEASON_RACE:
            assert queue_of(task) == "celery", task


def test_web_runs_the_images_gunicorn_and_publishes_8000():
    web = load_compose()["services"]["web"]
    assert web["command"] == GUNICORN
    assert exec_form(instruction("CMD")[-1]) == GUNICORN
    assert web["ports"] == ["${WEB_PUBLISH:-127.0.0.1:8000}:8000"]
    assert web["environment"]["WEB_CONCURRENCY"] == "${WEB_CONCURRENCY:-4}"


def test_app_services_share_one_image_and_restart():
    services = load_compose()["services"]
    for name in APP_SERVICES:
        assert services[name]["image"] == "${EUCHRE_IMAGE:-euchre-league:latest}", name
        assert services[name]["build"] == {"context": ".", "dockerfile": "Dockerfile"}, name
    for name in LONG_RUNNING:
        assert services[name]["restart"] == "unless-stopped", name


# --- health --------------------------------------------------------------------------------------


def test_every_long_running_service_is_health_checked_or_waits_for_healthy_services():
    services = load_compose()["services"]
    for name in LONG_RUNNING:
        service = services[name]
        check = service.get("healthcheck", {})
        checked = bool(check.get("test")) and not check.get("disable", False)
        waits = [dep for dep, cond in service.get("depends_on", {}).items() if cond == HEALTHY]
        assert checked or {"db", "redis"} <= set(waits), name


def test_health_checks():
    services = load_compose()["services"]
    assert services["db"]["healthcheck"]["test"] == ["CMD-SHELL", "pg_isready -U euchre -d euchre"]
    assert services["redis"]["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    assert services["web"]["healthcheck"]["test"] == ["CMD", "python", "-c", PROBE]
    for name in WORKERS:
        assert services[name]["healthcheck"]["test"] == [
            *("CMD", "python", "-m", "config.alive", "worker")
        ], name
    # The image's HTTP check does not apply to beat (it serves nothing): its heartbeat does.
    assert services["beat"]["healthcheck"]["test"] == [
        *("CMD", "python", "-m", "config.alive", "beat")
    ]
    assert services["migrate"]["healthcheck"] == {"disable": True}
    # The backup is healthy while its newest dump is recent (scripts/pg-backup check).
    assert services["backup"]["healthcheck"]["test"] == BACKUP_CHECK


def test_dockerfile_healthcheck_probes_healthz_like_compose():
    (healthcheck,) = instruction("HEALTHCHECK")
    assert "--start-period=30s" in healthcheck
    assert exec_form(healthcheck) == ["python", "-c", PROBE]
    assert "/healthz" in PROBE


class _Healthz(http.server.BaseHTTPRequestHandler):
    status = 200
    hosts: list[str] = []

    def do_GET(self):
        type(self).hosts.append(self.headers["Host"])
        self.send_response(self.status if self.path == "/healthz" else 404)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


@pytest.mark.parametrize(
    ("status", "allowed_hosts", "exit_code", "host"),
    [
        (200, ".euchre.example.org, other.example.org", 0, "euchre.example.org"),
        (200, "", 0, "localhost"),
        (200, "*", 0, "localhost"),
        (503, "euchre.example.org", 1, "euchre.example.org"),
    ],
)
def test_health_probe_sends_an_allowed_host_and_fails_on_503(
    status, allowed_hosts, exit_code, host
):
    server = http.server.HTTPServer(("127.0.0.1", 0), type("H", (_Healthz,), {"status": status}))
    handler = server.RequestHandlerClass
    handler.hosts = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = server.server_address[1]
        probe = PROBE.replace("127.0.0.1:8000", f"127.0.0.1:{port}")
        result = subprocess.run(
            [sys.executable, "-c", probe],
            env={"ALLOWED_HOSTS": allowed_hosts},
            capture_output=True,
            timeout=20,
        )
    finally:
        server.shutdown()
        server.server_close()
    assert result.returncode == exit_code, result.stderr
    assert handler.hosts == [host]


# --- environment and secrets ---------------------------------------------------------------------


def test_app_environment():
    services = load_compose()["services"]
    env = services["migrate"]["environment"]
    assert env["DEBUG"] == "0"
    assert env["SECRET_KEY"] == "${SECRET_KEY:?set SECRET_KEY}"
    assert env["ALLOWED_HOSTS"] == "${ALLOWED_HOSTS:?set ALLOWED_HOSTS}"
    assert env["DATABASE_URL"] == (
        "postgres://euchre:${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}@db:5432/euchre"
    )
    assert env["REDIS_URL"] == "redis://redis:6379/0"
    assert env["SECURE_SSL_REDIRECT"] == "${SECURE_SSL_REDIRECT:-1}"
    assert env["CELERY_TASK_ALWAYS_EAGER"] == "0"
    for name in (*WORKERS, "beat"):
        assert services[name]["environment"] == env, name
    assert {
        k: v for k, v in services["web"]["environment"].items() if k != "WEB_CONCURRENCY"
    } == env
    # Every variable the settings read reaches the app, but the few that must not.
    assert settings_variables() - set(env) == NOT_PASSED


def test_db_and_redis():
    compose = load_compose()
    db, redis = compose["services"]["db"], compose["services"]["redis"]
    assert db["image"] == "postgres:16"
    assert db["environment"] == {
        "POSTGRES_DB": "euchre",
        "POSTGRES_USER": "euchre",
        "POSTGRES_PASSWORD": "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}",
    }
    assert db["volumes"] == ["pgdata:/var/lib/postgresql/data"]
    assert redis["image"] == "redis:7"
    assert redis["command"] == ["redis-server", "--appendonly", "yes"]
    assert redis["volumes"] == ["redisdata:/data"]
    assert set(compose["volumes"]) == {"pgdata", "redisdata", "backups"}
    assert "ports" not in db and "ports" not in redis


def test_backup_dumps_the_apps_database_on_a_schedule_and_keeps_the_newest():
    """The backup service runs scripts/pg-backup in the database's own image (so pg_dump is the
    server's version), as the app's role on the app's database, into a volume of its own, every
    BACKUP_INTERVAL seconds keeping BACKUP_KEEP dumps (both documented in .env.example)."""
    compose = load_compose()
    services = compose["services"]
    backup, db = services["backup"], services["db"]
    assert backup["image"] == db["image"] == "postgres:16"
    assert backup["command"] == ["sh", BACKUP_SCRIPT, "loop"]
    assert backup["volumes"] == [f"./scripts/pg-backup:{BACKUP_SCRIPT}:ro", "backups:/backups"]
    assert (ROOT / "scripts" / "pg-backup").is_file()
    assert backup["init"] is True
    assert backup["depends_on"] == {"db": HEALTHY}
    env = backup["environment"]
    assert env == {
        "PGHOST": "db",
        "PGPORT": "5432",
        "PGUSER": "euchre",
        "PGDATABASE": "euchre",
        "PGPASSWORD": "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}",
        "BACKUP_DIR": "/backups",
        "BACKUP_INTERVAL": "${BACKUP_INTERVAL:-86400}",
        "BACKUP_KEEP": "${BACKUP_KEEP:-14}",
    }
    # The database the app writes, reached as the app reaches it.
    app_database = (
        f"postgres://{env['PGUSER']}:{env['PGPASSWORD']}@{env['PGHOST']}:{env['PGPORT']}"
        f"/{env['PGDATABASE']}"
    )
    assert services["web"]["environment"]["DATABASE_URL"] == app_database
    assert (db["environment"]["POSTGRES_USER"], db["environment"]["POSTGRES_DB"]) == (
        env["PGUSER"],
        env["PGDATABASE"],
    )
    assert "backups" in compose["volumes"]
    active, _ = env_example()
    assert (active["BACKUP_INTERVAL"], active["BACKUP_KEEP"]) == ("86400", "14")
    # The backup serves nothing and runs no app code: not the app's image, no app environment.
    assert "build" not in backup and "ports" not in backup and "DATABASE_URL" not in env


SECRET_NAME = re.compile(r"SECRET|PASSWORD|PASSWD|_TOKEN$|API_KEY|PRIVATE_KEY")


def test_no_literal_secret_values():
    services = load_compose()["services"]
    for name, service in services.items():
        for key, value in (service.get("environment") or {}).items():
            value = str(value)
            if SECRET_NAME.search(key):
                # Required (`:?`), or optional and off when unset (`:-` with nothing after it).
                assert re.fullmatch(r"\$\{[A-Z_]+(:\?[^}]+|:-)\}", value), (name, key, value)
            # Credentials inside URLs come from the environment as well.
            for password in re.findall(r"://[^:/@]+:([^@]+)@", value):
                assert re.fullmatch(r"\$\{[A-Z_]+:\?[^}]+\}", password), (name, key, value)
    # The required variables are exactly these three, and .env.example leaves the secrets blank.
    required = set(re.findall(r"\$\{([A-Z_]+):\?", COMPOSE_FILE.read_text()))
    assert required == {"SECRET_KEY", "POSTGRES_PASSWORD", "ALLOWED_HOSTS"}
    active, _ = env_example()
    assert active["SECRET_KEY"] == ""
    assert active["POSTGRES_PASSWORD"] == ""


def test_dockerfile_bakes_in_no_secret():
    for inst, args in [step for stage in dockerfile_stages() for step in stage]:
        if inst in {"ENV", "ARG", "LABEL"}:
            assert not SECRET_NAME.search(args.upper()), (inst, args)
    (collectstatic,) = [a for a in instruction("RUN") if "collectstatic" in a]
    assert re.match(
        r"SECRET_KEY=[\w-]+ DEBUG=0 +python manage.py collectstatic --noinput", collectstatic
    )


def test_env_example_documents_every_variable():
    active, mentioned = env_example()
    documented = set(active) | mentioned
    assert compose_variables() <= set(active), compose_variables() - set(active)
    assert settings_variables() <= documented, settings_variables() - documented


def test_settings_accept_the_compose_environment():
    """The production environment, interpolated with .env.example's defaults, configures Django."""
    active, _ = env_example()
    answers = {**active, "SECRET_KEY": "x" * 50, "POSTGRES_PASSWORD": "pw", "ALLOWED_HOSTS": "a.b"}
    env = {
        k: interpolate(str(v), answers)
        for k, v in load_compose()["services"]["web"]["environment"].items()
    }
    code = (
        "import json; from django.conf import settings as s; print(json.dumps(["
        "s.DEBUG, s.SECURE_SSL_REDIRECT, s.DATABASES['default']['ENGINE'],"
        " s.DATABASES['default']['HOST'], s.CELERY_BROKER_URL, s.CELERY_TASK_ALWAYS_EAGER,"
        " s.ALLOWED_HOSTS, s.SECURE_HSTS_SECONDS, s.CACHES['default']['BACKEND']]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [
        False,
        True,
        "django.db.backends.postgresql",
        "db",
        "redis://redis:6379/0",
        False,
        ["a.b"],
        31536000,
        "config.cache.FailSoftRedisCache",
    ]


def test_interpolation_refuses_a_missing_secret():
    with pytest.raises(KeyError, match="set SECRET_KEY"):
        interpolate("${SECRET_KEY:?set SECRET_KEY}", {"SECRET_KEY": ""})


# --- Dockerfile ----------------------------------------------------------------------------------


def test_dockerfile_runs_as_a_non_root_user():
    stage = final_stage()
    users = [args for inst, args in stage if inst == "USER"]
    assert users == ["10001:10001"]
    user, _, group = users[-1].partition(":")
    assert user not in {"root", "0"} and group not in {"root", "0"}
    assert re.search(r"useradd .*--uid 10001 ", " ".join(instruction("RUN")))
    # USER comes after the last RUN/COPY, so nothing after it runs as root, and before CMD.
    position = [inst for inst, _ in stage]
    user_at = position.index("USER")
    assert all(inst not in {"RUN", "COPY", "ADD"} for inst in position[user_at:])
    assert position.index("CMD") > user_at


def test_dockerfile_base_install_and_port():
    stages = dockerfile_stages()
    (version,) = [args for inst, args in stages[0] if inst == "ARG"]
    assert version == "PYTHON_VERSION=3.12"
    froms = [stage[0][1] for stage in stages[1:]]
    assert froms == [
        "python:${PYTHON_VERSION}-slim AS build",
        "python:${PYTHON_VERSION}-slim AS runtime",
    ]
    # The build stage installs from uv.lock: uv at its locked hashes, then exactly the locked
    # runtime dependencies (`--locked` refuses a lock that disagrees with pyproject.toml).
    build = [f"{i} {a}" for i, a in stages[1]]
    assert "COPY pyproject.toml uv.lock ./" in build
    runs = " ".join(a for i, a in stages[1] if i == "RUN")
    assert "pip install --require-hashes --no-deps -r /tmp/uv-requirements.txt" in runs
    assert re.search(r"\buv sync --locked --no-dev --no-install-project$", runs)
    assert "COPY --from=build /opt/venv /opt/venv" in [f"{i} {a}" for i, a in final_stage()]
    assert instruction("WORKDIR") == ["/app"]
    assert instruction("EXPOSE") == ["8000"]
    env = " ".join(instruction("ENV"))
    assert "WEB_CONCURRENCY=4" in env and "DJANGO_SETTINGS_MODULE=config.settings" in env


def test_dockerignore_keeps_secrets_and_local_state_out():
    entries = {line.strip() for line in DOCKERIGNORE.read_text().splitlines()}
    assert {".env", ".secret_key", ".venv", ".git", "db.sqlite3*", "staticfiles"} <= entries
