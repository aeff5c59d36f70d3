#!/bin/sh
# The nttrace tool's command line: help, numbers, --opt=value, directories
# given as files, escaping in `dump --formats` (and `show`), `start --mode`,
# `--kernel FLAGS` of start, record and show (the NT Kernel Logger and
# system loggers, `record -- COMMAND`, their flags in query and list), and
# the message for a module that is not loaded. Prints TAP.
#
# In the VM (cwd /nttrace, the module loaded) it tests u64/nttrace and
# u32/nttrace. On a host without /dev/nttrace the checks that need the
# module are left out and those for a module not loaded run instead:
#
#   NTTRACE_TOOLS=build/u64/nttrace sh tests/vm/cli_test.sh
#
# trace_sample is taken from each tool's own directory.
. tests/vm/tap.sh

tools=${NTTRACE_TOOLS:-"u64/nttrace u32/nttrace"}
tmp=${TMPDIR:-/tmp}/cli-test.$$
mkdir -p "$tmp"
module=0
[ -e /dev/nttrace ] && module=1
subs="start stop query list flush record dump show formats version call enable disable providers"
modes="sequential circular append newfile preallocate secure realtime buffering global-sequence local-sequence paged no-per-processor"
others="nonstoppable delay-open private add-header
	kbytes relog private-in-proc"
notloaded="nttrace: the nttrace kernel module is not loaded (/dev/nttrace not found)"
kl="NT Kernel Logger"
# The names --kernel lists, a few of them, and its refusal of a flag
# nttrace writes no events for (registry: no Linux source is planned).
flagnames="process, thread, image_load, process_counters, cswitch"
unbuilt="nttrace: --kernel 'PROCESS+Img,registry': nttrace writes no events for registry (see \`nttrace version\`)"

# run CMD...: stdout in $tmp/out, stderr in $tmp/err, exit status in $rc.
run() {
	"$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
}

# say WHAT: a diagnostic line in the TAP output.
say() {
	echo "# $*" | head -n 3 >&3
}

# exits N PATTERN CMD...: CMD exits N and its stderr matches PATTERN
# (an extended regular expression; "" matches anything).
exits() {
	want=$1
	pat=$2
	shift 2
	run "$@"
	if [ "$rc" -eq "$want" ] && { [ -z "$pat" ] || grep -Eq -- "$pat" "$tmp/err"; }; then
		return 0
	fi
	say "$*: exit $rc, stderr: $(head -c 200 "$tmp/err")"
	return 1
}

# refused PATTERN CMD...: a usage error (exit 2) saying PATTERN, nothing on
# stdout.
refused() {
	exits 2 "$@" && [ ! -s "$tmp/out" ]
}

# helps TOOL SUB: `SUB --help`, `SUB -h` and `help SUB` all print SUB's usage
# on stdout, nothing on stderr, and exit 0.
helps() {
	run $1 $2 --help
	[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] &&
		head -n 1 "$tmp/out" | grep -q "^usage: nttrace $2" || {
		say "$1 $2 --help: exit $rc"
		return 1
	}
	cp "$tmp/out" "$tmp/help"
	run $1 $2 -h
	[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/out" "$tmp/help" || {
		say "$1 $2 -h: exit $rc"
		return 1
	}
	run $1 help $2
	[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/out" "$tmp/help" || {
		say "$1 help $2: exit $rc"
		return 1
	}
}

# not_started TOOL NAME: no session NAME is running (and none is left).
not_started() {
	[ $module -eq 0 ] && return 0
	if $1 query "$2" > /dev/null 2>&1; then
		$1 stop "$2" > /dev/null 2>&1
		return 1
	fi
}

# The value of a "Field:   value" line of the last `query` output.
field() {
	sed -n "s/^$1: *//p" "$tmp/out"
}

# shows FIELD PATTERN: that value matches PATTERN.
shows() {
	field "$1" | grep -Eq -- "$2" && return 0
	say "$1: $(field "$1")"
	return 1
}

for tool in $tools; do
	dir=$(dirname "$tool")
	b=$(basename "$dir")
	word=${b#u}-bit		# trace_sample's "64-bit" or "32-bit"
	s=cli-$b-$$
	rm -f "$tmp/r.etl"

	# ---- help ----
	for h in -h --help help; do
		run $tool $h
		check "$b: nttrace $h prints the usage and exits 0" \
			sh -c "[ $rc -eq 0 ] && grep -q '^usage: nttrace COMMAND' '$tmp/out'"
	done
	for sub in $subs; do
		check "$b: $sub --help, $sub -h and help $sub" helps $tool $sub
	done
	check "$b: help on an unknown topic" refused "unknown.*nosuch" $tool help nosuch
	check "$b: help takes one topic" refused "" $tool help start stop
	check "$b: query NAME --help is help" exits 0 "" $tool query somename --help

	# ---- numbers ----
	for arg in "--buffer-size abc" "--buffer-size 12x" "--max-buffers 12x" \
		   "--buffer-size -4" "--max-buffers 5000" "--min-buffers 1" \
		   "--buffer-size 2" "--buffer-size 4294967297" "--flush-timer -1" \
		   "--flush-timer 99999999999999999999" "--buffer-size= " \
		   "--max-buffers=" "--min-buffers 0x" "--buffer-size 1e3"; do
		opt=${arg%%[ =]*}
		check "$b: start $arg is refused" refused "$opt" $tool start $s $arg
		check "$b: ... and starts nothing" not_started $tool $s
	done
	check "$b: start accepts C notation" refused "out of range" \
		$tool start $s --buffer-size 0x1000
	for arg in "--max-size abc" "--max-size -1" "--max-size 4294967296" \
		   "--duration abc" "--duration -1" "--duration 1s" "--duration nan" \
		   "--duration inf" "--id 0" "--id 65" "--id abc" "--id -1"; do
		opt=${arg%% *}
		if [ "$opt" = --id ]; then
			check "$b: record $arg is refused" \
				refused "logger ID '${arg#--id }'" $tool record $arg -o "$tmp/r.etl"
		else
			check "$b: record $arg is refused" refused "$opt" \
				$tool record $s -o "$tmp/r.etl" $arg
		fi
	done
	check "$b: record refused: no file made" test ! -e "$tmp/r.etl"
	for sub in query stop flush; do
		for id in 0 65 abc -1 3x ""; do
			check "$b: $sub --id '$id' is refused" \
				refused "logger ID '$id'" $tool $sub --id "$id"
		done
	done
	check "$b: call --size abc" refused "size" $tool call --size abc 0x200
	check "$b: call --size 5000" refused "size" $tool call --size 5000 0x200
	check "$b: call --handle -1" refused "handle" $tool call --handle -1 0x200
	check "$b: call --handle x" refused "handle" $tool call --handle x 0x200
	check "$b: call FLAGS 0x100000000" refused "FLAGS" $tool call 0x100000000
	check "$b: call FLAGS -1" refused "FLAGS" $tool call -- -1
	g=6e7a0c11-1111-4222-8300-0000000000c1
	for arg in "nosuch" "{$g" "6e7a0c11-1111-4222-8300-0000000000c" \
		   "6e7a0c11x1111-4222-8300-0000000000c1" \
		   "6e7a0c11-1111-4222-8300-0000000000g1"; do
		check "$b: enable GUID '$arg' is refused" refused "GUID '" \
			$tool enable $s "$arg"
	done
	check "$b: enable --level 256" refused "--level" $tool enable $s $g --level 256
	check "$b: enable --level -1" refused "--level" $tool enable $s $g --level -1
	check "$b: enable --flags 0x100000000" refused "--flags" \
		$tool enable $s $g --flags 0x100000000
	check "$b: enable --id 65" refused "logger ID '65'" $tool enable --id 65 $g
	check "$b: enable with no GUID" refused "usage" $tool enable $s
	check "$b: disable --flags" refused "usage" $tool disable $s $g --flags 1
	check "$b: providers takes no argument" refused "usage" $tool providers x

	# ---- --opt=value ----
	for sub in query stop flush; do
		check "$b: $sub --id=0 is the option, not a name" \
			refused "logger ID '0'" $tool $sub --id=0
	done
	check "$b: record --id=0 is the option" refused "logger ID '0'" \
		$tool record --id=0 -o "$tmp/r.etl"
	check "$b: start --buffer-size=abc" refused "--buffer-size" \
		$tool start $s --buffer-size=abc
	check "$b: record --duration=x" refused "--duration" \
		$tool record $s --output="$tmp/r.etl" --duration=x
	check "$b: call --size=abc" refused "size" $tool call --size=abc 0x200

	# ---- start --mode: the kernel's modes only ----
	run $tool start --help
	cp "$tmp/out" "$tmp/start-help"
	for m in $modes; do
		check "$b: start --help lists mode $m" grep -qw -- "$m" "$tmp/start-help"
	done
	for m in $others; do
		check "$b: start --help does not offer $m" \
			sh -c "! grep -qw -- '$m' '$tmp/start-help'"
		check "$b: start --mode $m is refused, naming the accepted" \
			refused "$(echo $modes | sed 's/ /, /g')" $tool start $s --mode $m
		check "$b: ... and starts nothing" not_started $tool $s
	done
	check "$b: start --mode with an unknown name among good ones" \
		refused "'bogus'" $tool start $s --mode circular,bogus
	check "$b: start --mode 0x40 (nonstoppable as a number)" refused "mode" \
		$tool start $s --mode 0x40
	check "$b: start --mode sequential,circular" refused "sequential.*circular" \
		$tool start $s --mode sequential,circular
	check "$b: start --mode newfile,sequential" refused "newfile.*sequential" \
		$tool start $s --mode newfile,sequential
	check "$b: start --mode global-sequence,local-sequence" \
		refused "global-sequence.*local-sequence" \
		$tool start $s --mode global-sequence,local-sequence
	check "$b: start --mode ''" refused "mode" $tool start $s --mode ""
	check "$b: start --mode circular,,realtime" refused "mode" \
		$tool start $s --mode circular,,realtime
	check "$b: ... nothing started" not_started $tool $s

	# ---- --kernel FLAGS: the names, errors ----
	check "$b: start --help lists the kernel flags" \
		grep -q "^    $flagnames," "$tmp/start-help"
	check "$b: ... xperf's and logman's names too" \
		grep -q "^    also: img, net, proc_thread, loader, hard_faults, perf_counter, diageasy\$" \
		"$tmp/start-help"
	for sub in start show; do
		check "$b: $sub --kernel bogus is refused, listing the flags" \
			refused "--kernel 'process,bogus': no such flag 'bogus'; the flags are:" \
			$tool $sub --kernel process,bogus
		check "$b: ... the list" grep -q "^  $flagnames," "$tmp/err"
		check "$b: ... not started" not_started $tool "$kl"
	done
	check "$b: record --kernel bogus is refused" refused "no such flag 'bogus'" \
		$tool record --kernel bogus -o "$tmp/r.etl"
	check "$b: start --kernel ''" refused "--kernel '': an empty name" \
		$tool start --kernel ""
	check "$b: start --kernel process,,thread" refused "an empty name" \
		$tool start --kernel process,,thread
	check "$b: start --kernel process+" refused "an empty name" $tool start --kernel process+
	check "$b: start --kernel 0x100000000" refused "--kernel '0x100000000': out of range" \
		$tool start --kernel 0x100000000
	check "$b: start --kernel -1" refused "--kernel '-1': out of range" $tool start --kernel -1
	check "$b: start --kernel 12x" refused "--kernel '12x': not a number" \
		$tool start --kernel 12x
	check "$b: start --kernel FLAGS NAME EXTRA" refused "usage" \
		$tool start --kernel process a b
	check "$b: start with neither NAME nor --kernel" refused "usage" $tool start
	check "$b: record --kernel with --id" refused "--kernel starts a session: it takes no --id" \
		$tool record --kernel process --id 1 -o "$tmp/r.etl"
	check "$b: record -- with no COMMAND" refused "no COMMAND after --" \
		$tool record --kernel process -o "$tmp/r.etl" --
	check "$b: record --kernel without -o" refused "usage" $tool record --kernel process
	check "$b: show --kernel FLAGS NAME EXTRA" refused "usage" \
		$tool show --kernel process a b
	check "$b: ... no file made, nothing started" \
		sh -c "[ ! -e '$tmp/r.etl' ]" && not_started $tool "$kl"

	# ---- directories ----
	check "$b: dump DIR" exits 1 "$tmp is a directory" $tool dump "$tmp"
	check "$b: dump --formats DIR FILE" exits 1 "$tmp is a directory" \
		$tool dump --formats "$tmp" "$tmp/none.etl"
	check "$b: formats DIR" exits 1 "$tmp is a directory" $tool formats "$tmp"
	check "$b: formats FILE DIR" exits 1 "$tmp is a directory" \
		$tool formats "$dir/trace_sample" "$tmp"
	check "$b: dump of a missing file" exits 1 "No such file" \
		$tool dump "$tmp/none.etl"
	check "$b: show DIR" exits 1 "$tmp is a directory" $tool show "$tmp"
	check "$b: show --formats DIR FILE" exits 1 "$tmp is a directory" \
		$tool show --formats "$tmp" "$tmp/none.etl"
	check "$b: show of a missing file" exits 1 "ERROR_FILE_NOT_FOUND" \
		$tool show "$tmp/none.etl"
	check "$b: show --level 256" refused "--level" $tool show --level 256 "$tmp/none.etl"
	check "$b: show --pid x" refused "--pid" $tool show --pid x "$tmp/none.etl"
	check "$b: show --provider x" refused "--provider" $tool show --provider x "$tmp/none.etl"

	# ---- dump --formats escapes what is not printable ----
	etl=$tmp/sample-$b.etl
	check "$b: trace_sample --private" \
		sh -c "'$dir/trace_sample' --private '$etl' > /dev/null"
	$tool formats "$dir/trace_sample" > "$tmp/sample.tmf"
	prefix=$(sed -n 's/^\([0-9a-f-]* 10 [48] si [^ ]*\) .*/\1/p' "$tmp/sample.tmf")
	# An escape sequence, tab, newline, DEL, bytes that are not UTF-8,
	# UTF-8 text, a C1 control, a bidi override, a backslash (as the format
	# file writes them).
	fmt='[START] %s \x1b[31mred\x1b[0m tab\there nl\nend cr\rdel\x7f bad\xff\xfe utf8 é ok c1\xc2\x9b bidi\xe2\x80\xae trunc\xe2\x80 long\xc0\xaf back\\slash, pid %d'
	printf '%s "%s"\n' "$prefix" "$fmt" > "$tmp/esc.tmf"
	run $tool dump --formats "$tmp/esc.tmf" "$etl"
	check "$b: dump --formats with control characters exits 0" test $rc -eq 0
	grep -F '[START]' "$tmp/out" > "$tmp/line"
	check "$b: ... the message is one line" test "$(wc -l < "$tmp/line")" -eq 1
	want='[START] '$word' \x1b[31mred\x1b[0m tab\there nl\nend cr\rdel\x7f bad\xff\xfe utf8 é ok c1\u009b bidi\u202e trunc\xe2\x80 long\xc0\xaf back\slash, pid '
	check "$b: ... control characters and bad bytes escaped, text kept" \
		grep -qF -- "$want" "$tmp/line"
	want_text=$want
	# Only the two bytes of "é" are outside printable ASCII.
	check "$b: ... no raw control or non-UTF-8 byte in the output" \
		test "$(tr -d '\n\040-\176' < "$tmp/out" | wc -c)" -eq 2
	run $tool dump --json --formats="$tmp/esc.tmf" "$etl"
	want='"message":"[START] '$word' \u001b[31mred\u001b[0m tab\u0009here nl\u000aend cr\u000ddel\u007f bad\u00ff\u00fe utf8 é ok c1\u009b bidi\u202e trunc\u00e2\u0080 long\u00c0\u00af back\\slash, pid '
	check "$b: dump --json: the same escaped as JSON, UTF-8 kept" \
		grep -qF -- "$want" "$tmp/out"
	check "$b: dump --json: no raw control or non-UTF-8 byte" \
		test "$(tr -d '\n\040-\176' < "$tmp/out" | wc -c)" -eq 2
	run $tool show --formats "$tmp/esc.tmf" "$etl"
	check "$b: show --formats escapes as dump does" grep -qF -- "$want_text" "$tmp/out"
	run $tool dump --formats "$dir/trace_sample" "$etl"
	check "$b: printable messages unchanged" \
		grep -q "\] $word sample started, pid [0-9]*\$" "$tmp/out"

	# ---- formats: a line longer than 8 KB comes out whole ----
	long=$(head -c 9000 /dev/zero | tr '\0' A)
	printf '%s "%s"\n' "$prefix" "$long" > "$tmp/long.tmf"
	run $tool formats "$tmp/long.tmf"
	check "$b: formats: a 9000-character format printed whole" \
		grep -qF "\"$long\"" "$tmp/out"
	cp "$tmp/out" "$tmp/long2.tmf"
	run $tool formats "$tmp/long2.tmf"
	check "$b: ... and it loads back the same" cmp -s "$tmp/out" "$tmp/long2.tmf"

	# ---- with the module ----
	if [ $module -eq 1 ]; then
		check "$b: start with --opt=value" exits 0 "" $tool start $s \
			--buffer-size=8 --min-buffers=2 --max-buffers=4 \
			--flush-timer=3 --clock=system --mode=circular,global-sequence
		run $tool query $s
		check "$b: ... buffer size" shows 'Buffer size' '^8 KB$'
		check "$b: ... buffers" shows 'Buffers per CPU' '^2 min, 4 max'
		check "$b: ... flush timer" shows 'Flush timer' '^3 s$'
		check "$b: ... mode" shows 'Log file mode' '[(]circular,global-sequence[)]$'
		check "$b: ... clock" shows Clock '^system'
		id=$(field 'Logger ID')
		check "$b: query --id=$id" exits 0 "" $tool query --id=$id
		check "$b: ... is the session" shows Name "^$s\$"
		check "$b: query --id $id" exits 0 "" $tool query --id $id
		check "$b: flush --id=$id" exits 0 "" $tool flush --id=$id
		check "$b: record --id=$id --output= --duration= --max-size=" \
			exits 0 "" $tool record --id=$id --output="$tmp/r.etl" \
			--duration=0.5 --max-size=1 --quiet
		check "$b: ... a file was written" test -s "$tmp/r.etl"
		check "$b: stop --id=$id" exits 0 "" $tool stop --id=$id
		check "$b: ... stopped" not_started $tool $s
		for m in $modes; do
			check "$b: start --mode $m works" exits 0 "" \
				$tool start $s --mode=$m
			check "$b: ... and stops" exits 0 "" $tool stop $s
		done
		check "$b: start --mode 0x102 (circular,realtime as a number)" \
			exits 0 "" $tool start $s --mode 0x102
		run $tool query $s
		check "$b: ... mode" shows 'Log file mode' '[(]circular,realtime[)]$'
		check "$b: ... and stops" exits 0 "" $tool stop $s
		check "$b: query of no such session" exits 1 "no such session" \
			$tool query $s

		# ---- the NT Kernel Logger and system loggers: --kernel ----
		check "$b: version names the kernel flags the module writes" \
			exits 0 "" $tool version
		check "$b: ... asked of the module" grep -qx \
			"kernel flags with events: process,thread,image_load,process_counters,cswitch,systemcall,disk_io,disk_file_io,disk_io_init,dispatcher,memory_page_faults,memory_hard_faults,virtual_alloc,network_tcpip,profile,file_io,file_io_init" \
			"$tmp/out"
		check "$b: start --kernel process,thread" exits 0 "" \
			$tool start --kernel process,thread
		check "$b: ... prints the session" shows 'Logger ID' '^65535$'
		check "$b: ... with its kernel flags by name" \
			shows 'Kernel flags' '^0x00000003 [(]process,thread[)]$'
		check "$b: ... no warning: both are written" test ! -s "$tmp/err"
		run $tool query "$kl"
		check "$b: query shows the kernel flags" \
			shows 'Kernel flags' '^0x00000003 [(]process,thread[)]$'
		run $tool list
		check "$b: list shows the kernel flags" \
			grep -Eq "^65535 +$kl +[0-9]+ +[0-9]+ +[0-9]+  process,thread\$" "$tmp/out"
		check "$b: start --kernel again: running" exits 1 "a session of that name is running" \
			$tool start --kernel cswitch
		rm -f "$tmp/k.etl"
		check "$b: record \"$kl\" -o FILE records it" exits 0 "" \
			$tool record "$kl" -o "$tmp/k.etl" --duration 0.3 --quiet
		check "$b: ... a file" test -s "$tmp/k.etl"
		check "$b: ... and leaves it running" exits 0 "" $tool query --id 65535
		check "$b: stop it" exits 0 "" $tool stop "$kl"
		check "$b: start --kernel PROCESS+Img,registry (a flag not written): refused" \
			exits 1 "" $tool start --kernel PROCESS+Img,registry
		check "$b: ... naming it" \
			sh -c "[ \"\$(cat '$tmp/err')\" = \"\$1\" ]" sh "$unbuilt"
		check "$b: ... and nothing started" exits 1 "" $tool query --id 65535
		check "$b: start --kernel PROCESS+Img (case, +)" exits 0 "" \
			$tool start --kernel PROCESS+Img
		check "$b: ... its flags" \
			shows 'Kernel flags' '^0x00000005 [(]process,image_load[)]$'
		check "$b: ... and stops" exits 0 "" $tool stop --id 65535
		check "$b: start --kernel 0x810 NAME: a system logger" exits 0 "" \
			$tool start --kernel 0x810 $s-sys
		check "$b: ... its mode" shows 'Log file mode' '[(]system-logger[)]$'
		check "$b: ... its flags" shows 'Kernel flags' '^0x00000810 [(]cswitch,dispatcher[)]$'
		check "$b: start NAME (no --kernel)" exits 0 "" $tool start $s
		run $tool list
		check "$b: list: a system logger's flags" \
			grep -Eq "^[0-9]+ +$s-sys +[0-9]+ +[0-9]+ +[0-9]+  cswitch,dispatcher\$" "$tmp/out"
		check "$b: list: - for another session" \
			grep -Eq "^[0-9]+ +$s +[0-9]+ +[0-9]+ +[0-9]+  -\$" "$tmp/out"
		run $tool query $s
		check "$b: query: no kernel flags for another session" \
			sh -c "! grep -q '^Kernel flags' '$tmp/out'"
		check "$b: stop both" sh -c "$tool stop $s-sys >/dev/null && $tool stop $s >/dev/null"

		rm -f "$tmp/k.etl"
		check "$b: record --kernel process,thread -o FILE -- COMMAND" exits 0 "" \
			$tool record --kernel process,thread -o "$tmp/k.etl" -- sh -c 'echo kernel-test; exit 3'
		check "$b: ... the command ran" grep -q "^kernel-test\$" "$tmp/out"
		check "$b: ... and the summary says how it ended" \
			grep -q "^sh exited with status 3\$" "$tmp/out"
		check "$b: ... the session is stopped" not_started $tool "$kl"
		run $tool dump "$tmp/k.etl"
		check "$b: ... the file dumps" test "$rc" -eq 0
		check "$b: ... its session is the NT Kernel Logger" grep -q "^# session \"$kl\"" "$tmp/out"
		# ImageFileName: the program file's name; sh is busybox's applet.
		check "$b: ... the command's exec: its Process/Start, by its program's name" \
			grep -Eq " Process/Start v4 tid [0-9]+ pid [0-9]+ ptr(32|64) .* UserSID=S-1-22-1-[0-9]+ ImageFileName=\"busybox\" CommandLine=\"sh -c echo kernel-test; exit 3\"" "$tmp/out"
		check "$b: ... the rundown: init's Process/DCStart, IDs shown as -" \
			grep -Eq " Process/DCStart v4 tid - pid - ptr(32|64) .* ProcessId=1 ParentId=0 " "$tmp/out"
		check "$b: ... and DCEnd at the stop" grep -q " Process/DCEnd v4 " "$tmp/out"
		check "$b: ... threads by name" grep -Eq " Thread/(DC)?(Start|End) v3 .* ThreadName=\"" "$tmp/out"
		check "$b: ... nothing else: no context switch" sh -c "! grep -q CSwitch '$tmp/out'"
		check "$b: record --kernel NAME -- a command that does not exist" exits 0 \
			"nttrace: $tmp/nosuch: No such file or directory" \
			$tool record --kernel process $s-rec -o "$tmp/k.etl" -- "$tmp/nosuch"
		check "$b: ... status 127" grep -q "exited with status 127\$" "$tmp/out"
		check "$b: ... stopped" not_started $tool $s-rec
		check "$b: start NAME for record NAME -- COMMAND" exits 0 "" $tool start $s
		check "$b: record NAME -o FILE -- COMMAND ends with the command" exits 0 "" \
			$tool record $s -o "$tmp/k.etl" --quiet -- sh -c 'kill -TERM $$'
		check "$b: ... which the summary says" \
			grep -q "^sh was killed by signal 15 (Terminated)\$" "$tmp/out"
		check "$b: ... a session it did not start goes on" exits 0 "" $tool query $s
		check "$b: ... until stopped" exits 0 "" $tool stop $s
		# Every flag the module writes, and those coming (taken with a
		# warning until then), while something runs: every event decodes
		# to its last byte.
		check "$b: record --kernel (every flag written) --duration" exits 0 "" \
			$tool record -o "$tmp/k.etl" --duration 0.5 --quiet \
			--kernel process,thread,img,cswitch,dispatcher,disk_io,disk_io_init,net
		check "$b: ... stopped" not_started $tool "$kl"
		run $tool dump "$tmp/k.etl"
		check "$b: ... dumps" test "$rc" -eq 0
		check "$b: ... every kernel event by its class" \
			sh -c "! grep -E '^[0-9-]+ [0-9:.]+ [+][0-9.]+s cpu [0-9]+ event ' '$tmp/out'"
		check "$b: ... each decoded to its last byte" \
			sh -c "! grep -E ' cut short at | extra \\[' '$tmp/out'"
		check "$b: ... processes, threads, images" \
			sh -c "grep -q ' Process/DCStart v4 ' '$tmp/out' && grep -q ' Thread/DCStart v3 ' '$tmp/out' && grep -q ' Image/DCStart v3 ' '$tmp/out'"
		check "$b: ... context switches" grep -Eq " Thread/CSwitch v2 tid - pid - .* NewThreadId=" "$tmp/out"
		check "$b: ... the old thread's state and wait reason by name" \
			grep -Eq " OldThreadWaitReason=(Executive|UserRequest|WrPreempted|WrTerminated)\([0-9]+\) OldThreadWaitMode=(KernelMode|UserMode)\([01]\) OldThreadState=(Ready|Waiting|Terminated)\([0-9]\) " "$tmp/out"

		# (Removed first: the checks after must not read the other run's.)
		rm -f "$tmp/show.out" "$tmp/show.err"
		$tool show --kernel process --no-status > "$tmp/show.out" 2> "$tmp/show.err" &
		pid=$!
		wait_caught $pid 2	# the logger started, its handler set
		kill -INT $pid
		wait_gone $pid
		wait $pid
		rc=$?
		check "$b: show --kernel process until SIGINT exits 0" test $rc -eq 0
		[ $rc -eq 0 ] || say "show exited $rc: $(head -c 400 "$tmp/show.err")"
		check "$b: ... shows the rundown" \
			grep -Eq "cpu [0-9]+ Process/DCStart v4 tid - pid - .* ProcessId=1 " "$tmp/show.out"
		check "$b: ... and, at the stop, the rundown's end" \
			grep -Eq "cpu [0-9]+ Process/DCEnd v4 tid - pid - .* ProcessId=1 " "$tmp/show.out"
		check "$b: ... and stops the session" not_started $tool "$kl"

		# Only CAP_PERFMON in the initial user and PID namespaces may
		# start one (module/policy.c): not from a user namespace of its
		# own (no capability in the initial one), nor as root in a PID
		# namespace of its own.
		for ns in "-U" "-p -f"; do
			if ! busybox unshare $ns true > /dev/null 2>&1; then
				say "busybox unshare $ns fails here: its --kernel checks are left out"
				continue
			fi
			for sub in "start --kernel process" "show --kernel process" \
				   "record --kernel process -o $tmp/nobody.etl"; do
				check "$b: $sub in unshare $ns is not permitted" exits 1 \
					"^nttrace: start $kl: not permitted [(]a system logger needs CAP_PERFMON or CAP_SYS_ADMIN in the initial user and PID namespaces[)]\$" \
					busybox unshare $ns $tool $sub
				check "$b: ... nothing started" not_started $tool "$kl"
			done
		done

		# ---- providers: enable, disable, providers ----
		check "$b: enable for no such session" exits 1 "no such session" \
			$tool enable $s $g
		check "$b: start for enable" exits 0 "" $tool start $s
		run $tool query $s
		id=$(field 'Logger ID')
		check "$b: enable SESSION GUID --flags --level" exits 0 "" \
			$tool enable $s "{$g}" --flags 0x11 --level 4
		check "$b: ... says so" grep -q "enabled {$g} for session $id (flags 0x00000011, level 4): 0 registrations notified" "$tmp/out"
		run $tool providers
		check "$b: providers lists the enable" \
			grep -Eq "^$g +- +session $id $s: level 4, flags 0x00000011, any 0x11, all 0x0\$" "$tmp/out"
		check "$b: enable --id=N GUID changes it" exits 0 "" \
			$tool enable --id=$id $g --level=5
		run $tool providers
		check "$b: ... providers shows the change" \
			grep -Eq "^$g +- +session $id $s: level 5, flags 0x00000000" "$tmp/out"
		check "$b: enable --any --all sets the keywords" exits 0 "" \
			$tool enable $s $g --level 4 --any 0x30 --all 0x10
		run $tool providers
		check "$b: ... providers shows them" \
			grep -Eq "^$g +- +session $id $s: level 4, flags 0x00000000, any 0x30, all 0x10\$" "$tmp/out"
		check "$b: disable takes no --any" refused "usage" $tool disable $s $g --any 1
		check "$b: disable SESSION GUID" exits 0 "" $tool disable $s $g
		check "$b: disable again: not enabled" exits 1 "does not enable" \
			$tool disable $s $g
		run $tool providers
		check "$b: providers no longer lists it" sh -c "! grep -q '$g' '$tmp/out'"
		check "$b: stop" exits 0 "" $tool stop $s
	else
		for cmd in list "query $s" "stop $s" "flush $s" "start $s" \
			   "start --kernel process" "record --kernel process -o $tmp/r.etl" \
			   "show --kernel process" \
			   "record $s -o $tmp/r.etl" version "call 0x200" \
			   "enable $s $g" "disable $s $g" providers; do
			run $tool $cmd
			check "$b: $cmd without the module: says so" \
				sh -c "[ $rc -eq 1 ] && [ ! -s '$tmp/out' ] &&
				       [ \"\$(cat '$tmp/err')\" = '$notloaded' ]"
		done
	fi
done
rm -rf "$tmp"
tap_done
