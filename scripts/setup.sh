#!/usr/bin/env bash
# Installs what RasterBench needs on a fresh Debian/Ubuntu machine: libpng
# (PNG I/O), libwebp (animated WebP output), LLVM's libomp (the openmp backend) and pkg-config (to find
# libpng). The Swift toolchain itself is expected on PATH. Safe to re-run:
# it installs nothing that is already there.
set -euo pipefail

need=()
for pkg in libpng-dev libwebp-dev libomp-dev pkg-config; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${need[@]}"
fi
command -v swift >/dev/null || { echo "error: swift is not on PATH (https://swift.org/install)" >&2; exit 1; }
