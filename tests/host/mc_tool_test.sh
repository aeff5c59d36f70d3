#!/bin/sh
# `nttrace mc` (userlib/tools/mc.c): the header it makes of
# tests/vm/mc_test.man compiles, as C against libnttrace's own
# headers and against the Windows layer, and runs (tests/host/
# mc_tool_prog.c: no session, nothing enabled, nothing written by a
# disabled write); -km's header is over the kernel-mode API, and refuses a
# floating-point argument; etwlogger.man, a manifest mc.exe compiled, gives mc.exe's
# descriptors when the data directory has it; bad input leaves no file
# and exits 1 with mc.exe's form of message.
#
#   tests/host/mc_tool_test.sh NTTRACE OUTDIR BUILD [DATA]
#
# BUILD: the build directory (its u64/libnttrace.a and generated/);
# DATA: a directory with azure-c-shared-utility-2017/etwlogger.h and .man.
# TAP on stdout.
set -u
nt=$1 out=$2/mc build=$3 data=${4:-}
top=$(cd "$(dirname "$0")/../.." && pwd)
n=0 fail=0
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
rm -rf "$out" && mkdir -p "$out/h" "$out/r" "$out/bad"
man=$top/tests/vm/mc_test.man

"$nt" mc -um -h "$out/h" -r "$out/r" -z mct "$man" > "$out/mc.log" 2>&1
ok $? "nttrace mc -um -h -r -z on the test manifest"
for f in h/mct.h r/mct.rc r/mctTEMP.BIN r/mct_MSG00001.bin; do
	[ -f "$out/$f" ] && [ "$(stat -c %a "$out/$f")" = 644 ]
	ok $? "$f written, 0644"
done
inc="-I$out/h -I$build/generated -I$top/include -I$top/userlib/include"
for mode in native windows; do
	flags=
	[ $mode = windows ] && flags="-fshort-wchar -DUNICODE -I$top/userlib/windows/include"
	# shellcheck disable=SC2086
	${CC:-cc} -m64 -O2 -Wall -Wextra -Werror $flags $inc -o "$out/prog-$mode" \
		"$top/tests/host/mc_tool_prog.c" "$build/u64/libnttrace.a" -static -pthread -lexpat \
		> "$out/cc-$mode.log" 2>&1
	ok $? "the header compiles against $mode headers"
	"$out/prog-$mode" > "$out/prog-$mode.log" 2>&1
	ok $? "the provider runs ($mode; $(grep '^#' "$out/prog-$mode.log"))"
	grep -q '^not ok' "$out/prog-$mode.log" && cat "$out/prog-$mode.log"
done

# mc.exe's own output for etwlogger.man: the same descriptors, bits, names.
if [ -n "$data" ] && [ -f "$data/azure-c-shared-utility-2017/etwlogger.man" ]; then
	a=$data/azure-c-shared-utility-2017
	"$nt" mc -h "$out" -r "$out" "$a/etwlogger.man" > "$out/etw.log" 2>&1
	ok $? "nttrace mc etwlogger.man"
	for pat in 'const GUID MicrosoftServiceBus =' 'const EVENT_DESCRIPTOR Log' \
		   'Microsoft_ServiceBusKeywords\[' 'Microsoft_ServiceBusLevels\[' 'const GUID LogId' \
		   '#define _kw_\|#define _log\|#define Debug\|#define Operational\|#define Log '; do
		grep "$pat" "$a/etwlogger.h" | tr -d ' ' | sort > "$out/want"
		grep "$pat" "$out/etwlogger.h" | tr -d ' ' | sort > "$out/got"
		cmp -s "$out/want" "$out/got"
		ok $? "etwlogger.h: mc.exe's lines of $pat"
	done
else
	echo "ok $((n = n + 1)) # SKIP etwlogger.man (no mc.exe data)"
fi

# Bad input: exit 1, mc.exe's "FILE(LINE): error :", no file.
bad() {
	printf '%s\n' "$2" > "$out/bad/in.man"
	# shellcheck disable=SC2086
	"$nt" mc ${mode_opt:-} -h "$out/bad" -r "$out/bad" "$out/bad/in.man" > "$out/bad/log" 2>&1
	rc=$?
	[ $rc = 1 ] && grep -q "in.man($3): error : .*$4" "$out/bad/log" &&
		[ "$(ls -A "$out/bad" | grep -v '^in.man$\|^log$')" = "" ]
	ok $? "$1 (exit $rc: $(head -1 "$out/bad/log"))"
}
head='<instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events"><instrumentation><events>
<provider name="P" guid="{3c1f2a8e-5b7d-4e21-9f0a-6d4c2b8e1a38}" symbol="P_GUID"><events>'
bad "XML that does not parse" "$head
<event value=\"1\" symbol=\"A\"></events>" 3 "mismatched tag"
bad "two events of one symbol" "$head
<event value=\"1\" symbol=\"A\"/>
<event value=\"2\" symbol=\"A\"/>
</events></provider></events></instrumentation></instrumentationManifest>" 4 "symbol A is defined twice"
bad "two templates of one tid" "$head
<event value=\"1\" symbol=\"A\" template=\"T\"/></events><templates>
<template tid=\"T\"><data name=\"x\" inType=\"win:UInt32\"/></template>
<template tid=\"T\"><data name=\"y\" inType=\"win:UInt32\"/></template>
</templates></provider></events></instrumentation></instrumentationManifest>" 5 "template id T is defined twice"
bad "a count naming a later field" "$head
<event value=\"1\" symbol=\"A\" template=\"T\"/></events><templates>
<template tid=\"T\"><data name=\"a\" inType=\"win:UInt32\" count=\"n\"/>
<data name=\"n\" inType=\"win:UInt32\"/></template>
</templates></provider></events></instrumentation></instrumentationManifest>" 4 "count or length"
bad "an event naming no template" "$head
<event value=\"1\" symbol=\"A\" template=\"None\"/>
</events></provider></events></instrumentation></instrumentationManifest>" 3 "does not define"

# -km: a kernel module's header (tests/vm/mc_test.c builds and loads one).
mkdir -p "$out/km"
"$nt" mc -km -h "$out/km" -r "$out/km" -z mct "$man" > "$out/km.log" 2>&1 &&
	grep -q "^#define MCGEN_USE_KERNEL_MODE_APIS 1" "$out/km/mct.h" &&
	grep -q "^#include <nttrace/wdm.h>" "$out/km/mct.h" &&
	grep -q "EventRegisterNttrace_Mc_Test() McGenEventRegister" "$out/km/mct.h" &&
	! grep -q "include <windows.h>\|nttrace/evntprov.h" "$out/km/mct.h"
ok $? "-km writes a header over <nttrace/wdm.h>"
cmp -s "$out/km/mctTEMP.BIN" "$out/r/mctTEMP.BIN" &&
	cmp -s "$out/km/mct_MSG00001.bin" "$out/r/mct_MSG00001.bin"
ok $? "-km's resources are -um's"
mode_opt=-km bad "-km: a Double argument (kernel code has no floating point)" "$head
<event value=\"1\" symbol=\"A\" template=\"T\"/></events><templates>
<template tid=\"T\"><data name=\"x\" inType=\"win:Double\"/></template>
</templates></provider></events></instrumentation></instrumentationManifest>" 4 "Float or Double"
"$nt" mc -cs Ns "$man" > "$out/cs.log" 2>&1
[ $? = 1 ] && grep -q -- "-cs is not supported" "$out/cs.log"
ok $? "-cs is refused, named"
"$nt" mc -W /nonexistent/winmeta.xml "$man" > "$out/w.log" 2>&1
[ $? = 1 ]
ok $? "-W of a missing file is refused"
echo "1..$n"
exit $fail
