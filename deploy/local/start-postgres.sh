#!/usr/bin/env bash
# Starts the local PostgreSQL the service and tests expect at 127.0.0.1:5432 (trust auth, user postgres).
# On a Debian machine with the postgresql package this starts its cluster; elsewhere use
# `docker compose up -d postgres` from the repository root.
set -euo pipefail
host=${PGHOST:-127.0.0.1} port=${PGPORT:-5432}

answers() { (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; }

if answers; then echo "PostgreSQL already answers at $host:$port"; exit 0; fi
if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  pg_ctlcluster --skip-systemctl-redirect "$version" main start
else
  echo "No local PostgreSQL cluster found: install PostgreSQL, or run 'docker compose up -d postgres'" >&2
  exit 1
fi
for _ in $(seq 1 50); do answers && { echo "PostgreSQL answers at $host:$port"; exit 0; }; sleep 0.2; done
echo "PostgreSQL did not answer at $host:$port within 10 s" >&2
exit 1
