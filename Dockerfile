# syntax=docker/dockerfile:1
# All Fours: one image for both setups in compose.yaml (SQLite, one process) and
# compose.scale.yaml (PostgreSQL, several replicas behind a proxy).

# Build stage: the runtime dependencies (no dev extras) into a virtualenv, so the final image
# carries no pip cache and no build tools. The project itself is then uninstalled again: it
# runs from /app, beside alembic.ini and migrations/, which app.serve finds next to app/.
FROM python:3.11-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
ENV PATH="/opt/venv/bin:$PATH"
WORKDIR /src
COPY pyproject.toml README.md ./
COPY app ./app
RUN pip install --no-cache-dir . \
    && pip uninstall --yes allfours

FROM python:3.11-slim-bookworm
ENV PATH="/opt/venv/bin:$PATH" \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DATABASE_URL="sqlite:////data/allfours.db" \
    HOST="0.0.0.0" \
    PORT="8000"
# A fixed, unprivileged uid: the /data volume keeps working across image rebuilds.
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
# A directory, not a file: SQLite keeps its -wal and -shm files beside the database.
VOLUME ["/data"]
USER 10001:10001
EXPOSE 8000
# python, not curl: the slim image has no curl, and one less package is one less CVE.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('PORT', '8000') + '/healthz', timeout=4)"]
# uvicorn drains requests and closes event streams on SIGTERM; exec form keeps python
# as PID 1 so the signal reaches it.
STOPSIGNAL SIGTERM
# One process, one uvicorn worker: SQLite takes one writer, and the in-process notifier
# only reaches streams in its own process. Scale out with PostgreSQL (compose.scale.yaml).
CMD ["python", "-m", "app.serve"]
