#!/bin/sh
# `nttrace tracerpt`'s XML and .evtx against Windows' own rendering of the
# same trace: a directory (NTTRACE_WINDOWS_TRACES, or $3) holding a trace
# Windows wrote (HTTP_Server.etl), its provider's manifest
# (HTTP_Server.man) and the .evtx Windows made of the trace
# (HTTP_Server.evtx, as microsoft/Tx publishes the three). evtxexport
# (libevtx-utils) reads an .evtx as XML; tracerpt_evtx_compare.py pairs
# the events and compares every System, EventData and ProcessingErrorData
# value: Windows' with tracerpt's XML dump, then with the XML of
# tracerpt's .evtx (-of EVTX; EventRecordID too), which evtxinfo must
# read whole: no records recovered, not corrupted. Windows' files are not
# part of the tree: without them the test is one skip.
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
if ! command -v evtxexport > /dev/null || ! command -v evtxinfo > /dev/null; then
	echo "not ok 1 - evtxexport, evtxinfo (libevtx-utils, scripts/deps) are not installed"
	echo "1..1"
	exit 1
fi
rm -rf "$out" && mkdir -p "$out" || exit 1
cmp=$(dirname "$0")/tracerpt_evtx_compare.py
n=0 fail=0

# The TAP lines of file $1 numbered on from $n, each named after $2.
tap() {
	awk -v n="$n" -v what="$2" '/^(not )?ok [0-9]+/ { n++; sub(/ok [0-9]+ - /, "ok " n " - " what ": ") }
		!/^1\.\./ { print }' "$1"
	n=$((n + $(grep -Ec '^(not )?ok [0-9]+' "$1")))
	! grep -q '^not ok' "$1" || fail=1
}

evtxexport -f xml "$dir/HTTP_Server.evtx" > "$out/windows.xml" 2> "$out/evtxexport.err"
"$nt" tracerpt "$dir/HTTP_Server.etl" -import "$dir/HTTP_Server.man" -o "$out/ours.xml" \
	> "$out/tracerpt.out" 2>&1
python3 "$cmp" "$out/windows.xml" "$out/ours.xml" > "$out/xml.tap"
tap "$out/xml.tap" "XML"

"$nt" tracerpt "$dir/HTTP_Server.etl" -import "$dir/HTTP_Server.man" -of EVTX \
	-o "$out/ours.evtx" > "$out/tracerpt-evtx.out" 2>&1
st=$?
n=$((n + 1))
if [ $st = 0 ] && evtxinfo "$out/ours.evtx" > "$out/evtxinfo.out" 2>&1 &&
   grep -Eq 'Number of records[[:space:]]+: [1-9]' "$out/evtxinfo.out" &&
   grep -Eq 'recovered records[[:space:]]+: 0$' "$out/evtxinfo.out" &&
   ! grep -qi corrupt "$out/evtxinfo.out"; then
	echo "ok $n - EVTX: written, evtxinfo reads it whole (nothing recovered, not corrupted)"
else
	echo "not ok $n - EVTX: tracerpt exit $st, evtxinfo:" \
		"$(tr '\n\t' '  ' < "$out/evtxinfo.out" 2>/dev/null)"
	fail=1
fi
evtxexport -f xml "$out/ours.evtx" > "$out/ours-evtx.xml" 2> "$out/ours-evtxexport.err"
python3 "$cmp" --record-ids "$out/windows.xml" "$out/ours-evtx.xml" > "$out/evtx.tap"
tap "$out/evtx.tap" "EVTX"
echo "1..$n"
exit $fail
