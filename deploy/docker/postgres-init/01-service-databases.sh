#!/usr/bin/env bash
# Run once by the postgres image on an empty data volume (/docker-entrypoint-initdb.d): one database per
# service, each owned by a login role of the same name whose password is the name too. Local use only.
set -euo pipefail
for database in gateway tournament_director table_engine wallet rating totalizator; do
  psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres <<SQL
CREATE ROLE $database LOGIN PASSWORD '$database';
CREATE DATABASE $database OWNER $database;
SQL
done
