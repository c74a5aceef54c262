#!/bin/bash
# How domains_probe_h200x2.txt was made (run tool, kind nvidia-h200-x2, 2026-11-28): the source travels
# inside the command (gzip + base64 of domains_probe.cu without its 5 header comment lines), is built with
# nvcc 13.0 for sm_90 and run once; its output is the raw file beside this script.
set -e
cd "$(dirname "$0")"
nvcc -O2 -arch=sm_90 -o /tmp/domains_probe domains_probe.cu
nvidia-smi topo -m
/tmp/domains_probe | tee domains_probe_h200x2.txt
