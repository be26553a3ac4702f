#!/usr/bin/env bash
# Starts the local Redis the service and tests expect at 127.0.0.1:6379, configured as BullMQ asks
# for production: append-only file with fsync every second, and no eviction (a queue must never
# lose a job to memory pressure). Elsewhere use `docker compose up -d redis`.
set -euo pipefail
port=${REDIS_PORT:-6379}
dir=${REDIS_DIR:-/var/lib/redis}

answers() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }

if answers; then echo "Redis already answers at 127.0.0.1:$port"; exit 0; fi
if ! command -v redis-server >/dev/null 2>&1; then
  echo "redis-server is not installed: install Redis 7, or run 'docker compose up -d redis'" >&2
  exit 1
fi
mkdir -p "$dir"
redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$port" --dir "$dir" \
  --appendonly yes --appendfsync everysec --save "" --maxmemory-policy noeviction \
  --logfile "$dir/redis.log"
for _ in $(seq 1 50); do answers && { echo "Redis answers at 127.0.0.1:$port"; exit 0; }; sleep 0.2; done
echo "Redis did not answer at 127.0.0.1:$port within 10 s" >&2
exit 1
