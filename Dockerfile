# syntax=docker/dockerfile:1.7
# One image for all six services; the command picks the service:
#   docker run IMAGE serve wallet      (a service: `platform serve SERVICE`)
#   docker run IMAGE migrate wallet    (a one-shot migration: `platform migrate SERVICE`)
# Build: docker build -t poker-platform .   (docs/operations.md)

ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# -- builder: the locked environment, built once, copied whole into the runtime stage -------------------------
FROM ${PYTHON_IMAGE} AS builder
ARG UV_VERSION=0.13.9
RUN pip install --no-cache-dir "uv==${UV_VERSION}"
ENV UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    UV_PYTHON_DOWNLOADS=never \
    UV_PROJECT_ENVIRONMENT=/app/.venv
WORKDIR /app

# Third-party dependencies first, from the lock file and the members' pyproject.toml only, so this layer is
# rebuilt only when dependencies change, not on every code change.
COPY pyproject.toml uv.lock ./
COPY libs/platform-kit/pyproject.toml libs/platform-kit/
COPY libs/platform-runner/pyproject.toml libs/platform-runner/
COPY services/gateway/pyproject.toml services/gateway/
COPY services/tournament-director/pyproject.toml services/tournament-director/
COPY services/table-engine/pyproject.toml services/table-engine/
COPY services/wallet/pyproject.toml services/wallet/
COPY services/rating/pyproject.toml services/rating/
COPY services/totalizator/pyproject.toml services/totalizator/
RUN --mount=type=cache,target=/root/.cache/uv uv sync --frozen --no-dev --no-install-workspace

# Then the workspace itself. Members stay where they are (editable installs): each service finds its Alembic
# `migrations/` next to its `src/`, so the source tree is part of the image.
COPY libs libs
COPY services services
RUN --mount=type=cache,target=/root/.cache/uv uv sync --frozen --no-dev \
    && /app/.venv/bin/python -m compileall -q libs services

# -- runtime: no uv, no build tools, sources owned by root and read-only to the service user ------------------
FROM ${PYTHON_IMAGE} AS runtime
RUN groupadd --system --gid 10001 platform \
    && useradd --system --uid 10001 --gid platform --no-create-home --home-dir /nonexistent \
       --shell /usr/sbin/nologin platform
ENV PATH=/app/.venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1
WORKDIR /app
COPY --from=builder /app /app
COPY deploy/docker/healthcheck.py /app/healthcheck.py
USER 10001:10001
# The service is read from the container's command, so this one health check fits every service.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["python", "/app/healthcheck.py", "/healthz"]
ENTRYPOINT ["platform"]
CMD ["--help"]
