# All Fours: one image for both setups in compose.yaml (SQLite, one process) and
# compose.scale.yaml (PostgreSQL, several replicas behind a proxy).
#
# Built so that a change to the code rebuilds in seconds: the dependencies are installed from
# a list read out of pyproject.toml, in layers that only that list keys; the code is copied
# last. Works with BuildKit and with the classic builder (no `# syntax` line, no RUN --mount).

# The runtime dependencies of pyproject.toml ([project] dependencies, no dev extras), as a
# requirements file. Editing anything else in pyproject.toml rebuilds only this small
# stage: the install below sees the same file and stays cached.
FROM python:3.11-slim-bookworm AS requirements
WORKDIR /src
COPY pyproject.toml ./
RUN python -c "import tomllib; \
deps = tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']; \
open('requirements.txt', 'w').write(''.join(d + '\n' for d in deps))"

# The dependencies into a virtualenv, which the final image copies without pip, setuptools
# or any cache. The project itself is not installed: it runs from /app, beside alembic.ini
# and migrations/, which app.serve finds next to app/.
FROM python:3.11-slim-bookworm AS build
# A package index or mirror for pip, when the build must use one (`docker compose build`
# passes these from the environment; unset, pip uses PyPI). This stage is not in the image.
ARG PIP_INDEX_URL
ARG PIP_EXTRA_INDEX_URL
ARG PIP_TRUSTED_HOST
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore
RUN python -m venv /opt/venv
COPY --from=requirements /src/requirements.txt /tmp/requirements.txt
RUN /opt/venv/bin/pip install --no-cache-dir --requirement /tmp/requirements.txt \
    && /opt/venv/bin/pip uninstall --yes pip setuptools

FROM python:3.11-slim-bookworm
ENV PATH="/opt/venv/bin:$PATH" \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DATABASE_URL="sqlite:////data/allfours.db" \
    HOST="0.0.0.0" \
    PORT="8000"
# A fixed, unprivileged uid: the /data volume keeps working across image rebuilds. A host
# folder mounted at /data instead must belong to it: `chown 10001:10001 ./data`.
RUN groupadd --system --gid 10001 allfours \
    && useradd --system --uid 10001 --gid allfours --home-dir /app --shell /usr/sbin/nologin allfours \
    && mkdir /data \
    && chown allfours:allfours /data
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
# Migrations run from here at every start (`python -m app.serve` upgrades, then serves).
COPY alembic.ini ./
COPY migrations ./migrations
COPY app ./app
# Compiled once here (the code is read-only to the app's user, and PYTHONDONTWRITEBYTECODE
# is set), so a start does not compile every module again; and the interface's languages,
# their catalogs compiled from the .po files (the .mo files are build output, never in git).
RUN python -m compileall -q -j 0 app migrations \
    && pybabel -q compile --domain messages --directory app/locale
# A directory, not a file: SQLite keeps its -wal and -shm files beside the database.
VOLUME ["/data"]
USER 10001:10001
EXPOSE 8000
# python, not curl: the slim image has no curl, and one less package is one less CVE. A
# bare socket (-I -S: no site, no urllib) keeps the probe to a few milliseconds of python;
# Docker's own exec of it costs more (about 50 ms of CPU), hence one probe per 5 s: healthy
# at most 5 s after the server answers, about 2% of one core. (`--start-interval` would let
# the probe run fast during the start only, but Docker Engine before 25, Debian 12's
# docker.io 20.10 among them, refuses a Dockerfile with it.)
HEALTHCHECK --interval=5s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-I", "-S", "-c", "import os, socket; s = socket.create_connection(('127.0.0.1', int(os.environ.get('PORT', '8000'))), 2); s.sendall(b'GET /healthz HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n'); assert s.recv(12).split()[1] == b'200'"]
# uvicorn drains requests and closes event streams on SIGTERM; exec form keeps python
# as PID 1 so the signal reaches it.
STOPSIGNAL SIGTERM
# One process, one uvicorn worker: SQLite takes one writer, and the in-process notifier
# only reaches streams in its own process. Scale out with PostgreSQL (compose.scale.yaml).
CMD ["python", "-m", "app.serve"]
