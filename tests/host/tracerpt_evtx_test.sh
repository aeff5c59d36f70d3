#!/bin/sh
# `nttrace tracerpt`'s XML against Windows' own rendering of the same
# trace: a directory (NTTRACE_WINDOWS_TRACES, or $3) holding a trace
# Windows wrote (HTTP_Server.etl), its provider's manifest
# (HTTP_Server.man) and the .evtx Windows made of the trace
# (HTTP_Server.evtx, as microsoft/Tx publishes the three). evtxexport
# (libevtx-utils) reads the .evtx as XML; tracerpt_evtx_compare.py pairs
# the events and compares every System, EventData and ProcessingErrorData
# value. Windows' files are not part of the tree: without them the test
# is one skip.
#
#   tests/host/tracerpt_evtx_test.sh NTTRACE OUTDIR [DIR]
#
# TAP on stdout.
set -u
nt=$1 out=$2/tracerpt-evtx dir=${3:-${NTTRACE_WINDOWS_TRACES:-}}
if [ -z "$dir" ] || [ ! -f "$dir/HTTP_Server.evtx" ] || [ ! -f "$dir/HTTP_Server.etl" ] ||
   [ ! -f "$dir/HTTP_Server.man" ]; then
	echo "ok 1 # SKIP no Windows-written HTTP_Server.etl, .man and .evtx" \
		"(NTTRACE_WINDOWS_TRACES)"
	echo "1..1"
	exit 0
fi
if ! command -v evtxexport > /dev/null; then
	echo "not ok 1 - evtxexport (libevtx-utils, scripts/deps) is not installed"
	echo "1..1"
	exit 1
fi
rm -rf "$out" && mkdir -p "$out" || exit 1
evtxexport -f xml "$dir/HTTP_Server.evtx" > "$out/windows.xml" 2> "$out/evtxexport.err"
"$nt" tracerpt "$dir/HTTP_Server.etl" -import "$dir/HTTP_Server.man" -o "$out/ours.xml" \
	> "$out/tracerpt.out" 2>&1
python3 "$(dirname "$0")/tracerpt_evtx_compare.py" "$out/windows.xml" "$out/ours.xml"
