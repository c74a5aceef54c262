#!/bin/bash
# Prints the device command that ran one probe: `bash pack.sh wavefronts_probe3.cu`. The run tool takes
# at most 2,000 characters, so the source loses its comments and spaces (the code is the same), is
# packed with run_wavefronts_probe.sh (its comment lines dropped) as gzip + base64, and unpacked on the
# device into /tmp/wv as wavefronts_probe.cu and r.sh. Probe 1 ran before sm__ctas_launched.sum was added.
D=$(dirname "$0"); T=$(mktemp -d)
python3 - "$D/$1" "$T/wavefronts_probe.cu" <<'PY'
import re, sys
out = []
for line in open(sys.argv[1]).read().split('\n'):
    line = re.sub(r'^\s*//.*$', '', line); line = re.sub(r'\s+// .*$', '', line)
    if line.startswith('#'): out.append('\n' + line + '\n'); continue
    parts = re.split(r'("(?:[^"\\]|\\.)*")', line)
    for i in range(0, len(parts), 2):
        parts[i] = re.sub(r'\s*([=,;(){}<>+\-*&|?:\[\]!^%/])\s*', r'\1', parts[i])
    out.append(''.join(parts).strip() + (' ' if parts[-1].strip() else ''))
open(sys.argv[2], 'w').write(''.join(out).replace('\n\n', '\n').strip() + '\n')
PY
grep -v '^#' "$D/run_wavefronts_probe.sh" >"$T/r.sh"
B=$(cd $T && (echo "##F wavefronts_probe.cu"; cat wavefronts_probe.cu; echo "##F r.sh"; cat r.sh) | gzip -9 | base64 -w0)
echo "mkdir -p /tmp/wv&&cd /tmp/wv&&echo $B|base64 -d|gunzip|awk '/^##F/{f=\$2;next}{print>f}'&&bash r.sh"
rm -r "$T"
