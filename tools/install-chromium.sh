#!/usr/bin/env bash
# Installs Debian's chromium (used headless by tests/browser through playwright-core)
# when /usr/bin/chromium is missing. Idempotent: does nothing when it is there.
set -euo pipefail
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [[ -x "$CHROMIUM" ]]; then
  exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
  SUDO=sudo
else
  SUDO=
fi
echo "install-chromium: $CHROMIUM missing; installing Debian's chromium with apt" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
"$CHROMIUM" --version >&2
