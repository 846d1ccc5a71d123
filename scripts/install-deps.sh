#!/usr/bin/env bash
# Installs the Debian packages the build needs when they are missing: with
# apt-get when run as root, otherwise it says what to install and fails.
set -euo pipefail
prefix=$1
shift
missing=()
for pkg in "$@"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && [ -d "$prefix/lib/cmake/mlir" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "nvfp4: missing packages: ${missing[*]}" >&2
  echo "nvfp4: install them with: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "nvfp4: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
