# syntax=docker/dockerfile:1
# Production image of the euchre league manager: one image for every role of docker-compose.yml
# (web = gunicorn, the default command; worker and beat = celery; migrate = manage.py migrate).
# Build:  docker build -t euchre-league .
# It carries no secret: SECRET_KEY, DATABASE_URL, REDIS_URL, ALLOWED_HOSTS come from the runtime
# environment (see .env.example).

ARG PYTHON_VERSION=3.12

# --- build: a virtual environment with the dependencies of pyproject.toml, as uv.lock pins them --
FROM python:${PYTHON_VERSION}-slim AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    UV_PROJECT_ENVIRONMENT=/opt/venv \
    UV_PYTHON=/usr/local/bin/python3 \
    UV_PYTHON_DOWNLOADS=never \
    UV_NO_CACHE=1
ENV PATH=/opt/venv/bin:$PATH

WORKDIR /src
# Only the project metadata and its lock, so this layer stays cached until one of them changes.
# uv comes from pip at the version and hashes uv.lock pins for it, outside /opt/venv (it stays in
# this stage). `uv sync --locked` refuses a uv.lock that disagrees with pyproject.toml and installs
# into /opt/venv exactly the locked versions of [project.dependencies] (no dev extra), each
# checked against its hash in the lock. The project itself has no packages (setuptools
# `packages = []`), so it is not installed: the source is copied into /app in the runtime stage
# and run from there.
COPY pyproject.toml uv.lock ./
RUN python -c 'import tomllib; p = next(p for p in tomllib.load(open("uv.lock", "rb"))["package"] if p["name"] == "uv"); print("uv==" + p["version"], *("--hash=" + w["hash"] for w in p["wheels"]))' > /tmp/uv-requirements.txt \
 && pip install --require-hashes --no-deps -r /tmp/uv-requirements.txt \
 && uv sync --locked --no-dev --no-install-project

# --- runtime -----------------------------------------------------------------------------------
FROM python:${PYTHON_VERSION}-slim AS runtime

ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=config.settings \
    WEB_CONCURRENCY=4

# A fixed, unprivileged uid/gid (numeric, so `runAsNonRoot`-style checks can verify it).
RUN groupadd --system --gid 10001 app \
 && useradd --system --uid 10001 --gid app --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin app

COPY --from=build /opt/venv /opt/venv

WORKDIR /app
# Source stays root-owned and read-only to the app user; the app writes nothing under /app in
# production (celery beat keeps its schedule in /tmp, see docker-compose.yml).
COPY . .

# Static files are collected into the image (served by WhiteNoise with DEBUG off). The key below
# is a throwaway that exists only for this build step: it is not an ENV and is not in the image.
RUN SECRET_KEY=collectstatic-build-only-not-a-secret DEBUG=0 \
    python manage.py collectstatic --noinput --verbosity 1

USER 10001:10001

EXPOSE 8000

# GET /healthz answers 200 when the database and the broker answer, 503 otherwise; it is exempt
# from the HTTPS redirect. The Host header is the first ALLOWED_HOSTS entry, so Django accepts it.
HEALTHCHECK --interval=30s --timeout=6s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request as u; h = (os.environ.get('ALLOWED_HOSTS') or 'localhost').split(',')[0].strip().lstrip('.'); h = 'localhost' if h in ('', '*') else h; sys.exit(0 if u.urlopen(u.Request('http://127.0.0.1:8000/healthz', headers={'Host': h}), timeout=5).status == 200 else 1)"]

# gunicorn reads its worker count from WEB_CONCURRENCY (default 4 above) and any extra flags from
# GUNICORN_CMD_ARGS, so neither needs a shell here. Sync workers, two per core of a 2-core box
# (benchmarks/bench_api_hands.py): a hand POST is CPU-bound Python that spends about a quarter of
# its time waiting on PostgreSQL. Two, three and four processes give hand throughput within
# about 15% of one another, either way from run to run (32 clients, on two machines: 308 and
# 663-731 req/s with two, 356 and 640-822 with four; each process's CPU per request rises with
# their number), but with two, two slow reads (a standings page with its detail takes
# 60-230 ms at a million hands) would hold up every table's hand entry; four keep it moving.
# gthread gave a worse p99 (2 x 2 on one machine: 106 ms against 67; 2 x 4 on another: 81 ms
# against 53-72 for four sync workers), for throughput from less to 14% more: threads of one
# process share the GIL on CPU-bound requests. Slow clients are the TLS proxy's to buffer. (These
# figures were measured on the hand path before it was rewritten on public APIs only; it now
# costs about four times the CPU per POST, which makes the choice of sync workers firmer.)
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--worker-tmp-dir", "/dev/shm", "--timeout", "30", "--graceful-timeout", "30", "--max-requests", "1000", "--max-requests-jitter", "100", "--access-logfile", "-", "--error-logfile", "-"]
