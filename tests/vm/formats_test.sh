#!/bin/sh
# `nttrace dump --formats` and `nttrace formats` end to end, for the 64-bit
# and 32-bit tools: the sample program's WPP-style messages, traced by the
# user-mode logger of its 64-bit and 32-bit builds, come back as text from
# the binaries' formats, and the same from a format file. Prints TAP.
. tests/vm/tap.sh

for bits in 64 32; do
	check "$bits-bit sample traces to its user-mode logger" \
		sh -c "u$bits/trace_sample --private /tmp/fmt-$bits.etl >/dev/null"
done
for bits in 64 32; do
	tool=u$bits/nttrace
	both=u64/trace_sample,u32/trace_sample
	for src in 64 32; do
		out=/tmp/fmt-$bits-$src.txt
		$tool dump --formats $both /tmp/fmt-$src.etl > $out 2>&1
		check "$bits-bit tool, $src-bit file: dump --formats exits 0" test $? -eq 0
		check "$bits-bit tool, $src-bit file: the first WPP message as text" \
			grep -q "\[trace_sample.c:[0-9]*\] $src-bit sample started, pid [0-9]*\$" $out
		check "$bits-bit tool, $src-bit file: three steps with %.1f%% and %p" \
			test "$(grep -c "step [1-3] of 3: [0-9.]*% done, state at 0x[0-9a-f]*\$" $out)" -eq 3
		check "$bits-bit tool, $src-bit file: %zu" \
			grep -q "done: 28 bytes of greeting\$" $out
		check "$bits-bit tool, $src-bit file: TraceMessage's own text untouched" \
			grep -q "\"hello from a $src-bit program\"\$" $out
		check "$bits-bit tool, $src-bit file: no mismatch" \
			sh -c "! grep -q 'does not match' $out"
	done
	$tool formats u64/trace_sample u32/trace_sample > /tmp/fmt-$bits.tmf
	check "$bits-bit: formats writes a format file of 2 x 3 messages" \
		test "$(grep -c '^[0-9a-f-]* [0-9]* [48] ' /tmp/fmt-$bits.tmf)" -eq 6
	$tool dump --formats /tmp/fmt-$bits.tmf /tmp/fmt-32.etl > /tmp/fmt-file-$bits.txt 2>&1
	check "$bits-bit: the format file renders as the binaries do" \
		cmp -s /tmp/fmt-file-$bits.txt /tmp/fmt-$bits-32.txt
	$tool dump --json --formats $both /tmp/fmt-64.etl > /tmp/fmt-$bits.json
	check "$bits-bit: --json has file, line and message" \
		grep -q '"file":"samples/trace_sample.c","line":[0-9]*,"message":"step 2 of 3: 66.7% done' /tmp/fmt-$bits.json
	check "$bits-bit: a missing formats file is an error" \
		sh -c "! $tool dump --formats /nonexistent /tmp/fmt-64.etl 2>/dev/null"
	check "$bits-bit: junk as formats is an error" \
		sh -c "! $tool dump --formats /tmp/fmt-64.etl /tmp/fmt-64.etl 2>/dev/null"
	check "$bits-bit: a binary without formats is said so" \
		sh -c "$tool formats $tool 2>&1 | grep -q 'no message formats'"
	check "$bits-bit: formats --help" sh -c "$tool formats --help >/dev/null"
	check "$bits-bit: formats without a path is refused" \
		sh -c "! $tool formats 2>/dev/null"
done
tap_done
