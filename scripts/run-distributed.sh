#!/usr/bin/env bash
# Every service as its own process, on RabbitMQ and PostgreSQL.
#   POSTGRES_URL  server to put one database per service on (default postgresql://postgres@127.0.0.1:5432)
#   RABBITMQ_URL  broker (default amqp://guest:guest@127.0.0.1:5672/)
#   PLATFORM_INTERNAL_TOKEN, GATEWAY_JWT_SECRET  default: random, new for each run
#   GATEWAY_ADMIN_PASSWORD  default: random, made once and kept in $DATA_DIR/distributed-admin-password (DATA_DIR
#                 default data), since the bootstrap administrator is created once, with the first run's password
# On RabbitMQ a service refuses the development secrets (docs/operations.md, "Secrets"). Each service may still
# be configured one by one with its own variables (docs/configuration.md).
set -euo pipefail
cd "$(dirname "$0")/.."
POSTGRES_URL=${POSTGRES_URL:-postgresql://postgres@127.0.0.1:5432}
RABBITMQ_URL=${RABBITMQ_URL:-amqp://guest:guest@127.0.0.1:5672/}
UV=$(command -v uv || echo "python3 -m uv")
SERVICES=(wallet rating totalizator table-engine tournament-director gateway)

random_secret() { python3 -c 'import secrets; print(secrets.token_urlsafe(48))'; }
PLATFORM_INTERNAL_TOKEN=${PLATFORM_INTERNAL_TOKEN:-$(random_secret)}
export GATEWAY_JWT_SECRET=${GATEWAY_JWT_SECRET:-$(random_secret)}
if [[ -z ${GATEWAY_ADMIN_PASSWORD:-} ]]; then
  kept=${DATA_DIR:-data}/distributed-admin-password
  if [[ ! -s $kept ]]; then
    mkdir -p "$(dirname "$kept")" && (umask 077 && random_secret >"$kept")
  fi
  GATEWAY_ADMIN_PASSWORD=$(<"$kept")
  echo "bootstrap administrator: ${GATEWAY_ADMIN_EMAIL:-admin@example.com}, password in $kept" >&2
fi
export GATEWAY_ADMIN_PASSWORD

pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait' EXIT INT TERM
for service in "${SERVICES[@]}"; do
  database=${service//-/_}
  psql "$POSTGRES_URL/postgres" -tAc "SELECT 1 FROM pg_database WHERE datname = '$database'" | grep -q 1 \
    || psql "$POSTGRES_URL/postgres" -qc "CREATE DATABASE \"$database\""
  prefix=$(echo "${service//-/_}" | tr '[:lower:]' '[:upper:]')
  export "${prefix}_INTERNAL_TOKEN=$PLATFORM_INTERNAL_TOKEN"  # exported, not on a command line `ps` shows
  env "${prefix}_DATABASE_URL=${POSTGRES_URL/postgresql:/postgresql+asyncpg:}/$database" \
      "${prefix}_BUS_URL=$RABBITMQ_URL" \
      $UV run platform serve "$service" &
  pids+=($!)
done
echo "distributed platform: gateway on http://127.0.0.1:8000 (Ctrl-C stops every service)" >&2
wait -n "${pids[@]}"
