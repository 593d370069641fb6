#!/bin/bash
# riodp send over riodp switch, as a user runs it: one switch (2 ports), two riodp endpoints, riodp
# recv on B, riodp send of one random file from A; prints riodp send's line (its MB/s).
# Needs `npm run build` first (the CLI runs from dist/). docs/performance.md.
#   bash bench/send-file.sh [REPO] [SIZE_MB]     (defaults: this checkout, 40)
REPO=$(cd "${1:-$(dirname "$0")/..}" && pwd); MB=${2:-40}
W=$(mktemp -d); cd $W
cat > sw.yaml <<Y
deviceId: 0x50
ports:
  - { port: 0, listen: { port: 4710 }, accept: [1] }
  - { port: 1, listen: { port: 4711 }, accept: [2] }
routes: { 1: 0, 2: 1 }
log: warn
Y
for n in 1 2; do p=$((4709+n)); o=$((3-n)); printf "nodeId: $n\nswitch: { host: 127.0.0.1, port: $p }\ncontrol: $W/$n.sock\nlog: warn\ndiscovery: { targets: [{ node: $o }] }\n" > $n.yaml; done
R="node $REPO/bin/riodp.js"
$R switch --config sw.yaml 2>/dev/null & S=$!
sleep 1.5
$R endpoint --config 1.yaml >/dev/null 2>&1 & E1=$!
$R endpoint --config 2.yaml >/dev/null 2>&1 & E2=$!
sleep 3
head -c $((MB*1000000)) /dev/urandom > f.bin
mkdir out
$R recv --control $W/2.sock --out out --count 1 >/dev/null 2>&1 & RV=$!
sleep 0.5
$R send --control $W/1.sock --to 2 f.bin | sed -E 's/SHA-256 [0-9a-f]+, //'
wait $RV
kill $E1 $E2 $S 2>/dev/null; wait 2>/dev/null
cd /; rm -rf $W
