#!/usr/bin/env bash
# Builds Blend2D natively from source WITH its JIT (asmjit), Release,
# -march=native, as a static library, and links blend2d_peer.cpp against it:
# the fair Blend2D peer of this study (the Python binding draws the same
# frame about 3x slower). Needs cmake, ninja (or make) and a C++17 compiler.
#   BLEND2D_SRC  a checkout of blend2d        (default .build/peers/blend2d under the repository)
#   ASMJIT_SRC   a checkout of asmjit         (default .build/peers/asmjit)
#   BLEND2D_COMMIT / ASMJIT_COMMIT  optional: checked out before building
#   OUT          build directory              (default .build/peers/build)
# Used for the committed figures: blend2d 6dbc2cefbc996379e07104e34519a440b49b15d7
# (2025-11-29) with asmjit 12f9ca3b320e0d7e7eb6637a6af7fedbd12b8ddc (its
# companion commit of the same day; asmjit's newest may not match).
# Prints the path of the peer binary; run.sh looks for it at $OUT/blend2d_peer.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
b2d=${BLEND2D_SRC:-$root/.build/peers/blend2d}
ajt=${ASMJIT_SRC:-$root/.build/peers/asmjit}
out=${OUT:-$root/.build/peers/build}
[ -n "${BLEND2D_COMMIT:-}" ] && git -C "$b2d" checkout -q "$BLEND2D_COMMIT"
[ -n "${ASMJIT_COMMIT:-}" ] && git -C "$ajt" checkout -q "$ASMJIT_COMMIT"
echo "blend2d $(git -C "$b2d" rev-parse HEAD), asmjit $(git -C "$ajt" rev-parse HEAD)" >&2
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S "$b2d" -B "$out/blend2d" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DBLEND2D_STATIC=ON -DBLEND2D_NO_INSTALL=ON -DASMJIT_DIR="$ajt" \
    -DCMAKE_CXX_FLAGS="-march=native" >&2
cmake --build "$out/blend2d" -j "${JOBS:-2}" >&2
${CXX:-c++} -O2 -march=native -std=c++17 -DBL_STATIC -I"$b2d" \
    "$here/blend2d_peer.cpp" "$out/blend2d/libblend2d.a" -lpthread -lrt -ldl \
    -o "$out/blend2d_peer"
echo "$out/blend2d_peer"
