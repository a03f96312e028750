#!/bin/sh
# What the lane helpers in Sources/RasterKit/Wide compile to: builds them with
# one non-inlined probe per helper, optimised as a release build is, for AVX2
# (x86-64-v3) and AVX-512 (x86-64-v4), and prints each probe's instructions.
# Usage: scripts/wide-asm.sh [probe-name-substring]   (needs swiftc, objdump)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/probe.swift" <<'SWIFT'
// Each probe loads its operands from memory and stores its result, so the
// listing shows the helper alone, not how Swift passes vectors to a call
// (in 128-bit pieces: the inserts and extracts a helper left as a call costs).
public typealias In = UnsafeRawPointer
public typealias Out = UnsafeMutableRawPointer
func f8(_ p: In, _ i: Int = 0) -> SIMD8<Float> { p.loadUnaligned(fromByteOffset: 32 * i, as: SIMD8<Float>.self) }
func f16(_ p: In, _ i: Int = 0) -> SIMD16<Float> { p.loadUnaligned(fromByteOffset: 64 * i, as: SIMD16<Float>.self) }
@inline(never) public func p8toFloat(_ p: In, _ o: Out) { o.storeBytes(of: Lanes.toFloat(p.loadUnaligned(as: SIMD8<UInt32>.self)), as: SIMD8<Float>.self) }
@inline(never) public func p8quantize(_ p: In, _ o: Out) { o.storeBytes(of: Lanes.quantize(f8(p)), as: SIMD8<UInt32>.self) }
@inline(never) public func p8clamp(_ p: In, _ o: Out) { o.storeBytes(of: Lanes.clamp(f8(p), 0, 255), as: SIMD8<Float>.self) }
@inline(never) public func p8positivePart(_ p: In, _ o: Out) { o.storeBytes(of: Lanes.positivePart(f8(p)), as: SIMD8<Float>.self) }
@inline(never) public func p8minimum(_ p: In, _ o: Out) { o.storeBytes(of: Lanes.minimum(f8(p), 1), as: SIMD8<Float>.self) }
@inline(never) public func p8packRGBA8(_ p: In, _ o: Out) { o.storeBytes(of: Lanes.packRGBA8(f8(p), f8(p, 1), f8(p, 2), f8(p, 3)), as: SIMD8<UInt32>.self) }
@inline(never) public func p16toFloat(_ p: In, _ o: Out) { o.storeBytes(of: Lanes.toFloat(p.loadUnaligned(as: SIMD16<UInt32>.self)), as: SIMD16<Float>.self) }
@inline(never) public func p16toInt(_ p: In, _ o: Out) { o.storeBytes(of: Lanes.toInt(f16(p)), as: SIMD16<UInt32>.self) }
@inline(never) public func p16minimum(_ p: In, _ o: Out) { o.storeBytes(of: Lanes.minimum(f16(p), f16(p, 1)), as: SIMD16<Float>.self) }
@inline(never) public func p16maximum(_ p: In, _ o: Out) { o.storeBytes(of: Lanes.maximum(f16(p), f16(p, 1)), as: SIMD16<Float>.self) }
@inline(never) public func p16magnitude(_ p: In, _ o: Out) { o.storeBytes(of: Lanes.magnitude(f16(p)), as: SIMD16<Float>.self) }
@inline(never) public func p16allEqual(_ p: In) -> Bool { Lanes.allEqual(f16(p), 1) }
@inline(never) public func p1floorInt(_ v: Float) -> Int { Lanes.floorInt(v) }
SWIFT
for level in x86-64-v3 x86-64-v4; do
    echo "== $level"
    swiftc -O -parse-as-library -module-name WideProbe -Xcc -march=$level -Xcc -fno-math-errno \
        -c "$root"/Sources/RasterKit/Wide/*.swift "$tmp/probe.swift" -wmo -o "$tmp/wide.o"
    objdump -d --no-show-raw-insn -C "$tmp/wide.o" |
        awk -v want="${1:-}" '/^[0-9a-f]+ <.*>:$/ { name = $2; keep = name ~ /p[0-9]+[a-zA-Z0-9]+/ && index(name, want); if (keep) print name; next }
             keep && NF >= 2 { $1 = ""; print "   " $0 }'
done
