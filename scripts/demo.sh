#!/usr/bin/env bash
# The main job on a fresh machine: installs what is missing, builds the
# extension, starts a throwaway ZooKeeper, runs the order-number demo with and
# without DistributedLock, and stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
port=${DLOCK_DEMO_PORT:-21811}
hosts=$(scripts/servers/zk.sh start "$port")
trap 'scripts/servers/zk.sh stop "$port"' EXIT
echo "demo: ZooKeeper at $hosts"
DLOCK_HOSTS=$hosts DLOCK_SO=$PWD/modules/dlock.so \
	php -n -d "extension=$PWD/modules/dlock.so" examples/orders.php "${1:-8}" "${2:-25}"
