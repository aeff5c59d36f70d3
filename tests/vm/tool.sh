# Sourced after tap.sh by the shell tests of the Windows-style commands
# (wpr_test.sh, xperf_test.sh, logman_test.sh): a directory of their own
# in $tmp, the state those commands keep in $XDG_RUNTIME_DIR inside it,
# and their checks. $tool is the nttrace that reads the files back.
tmp=${TMPDIR:-/tmp}/$1.$$
mkdir -p "$tmp"
export XDG_RUNTIME_DIR=$tmp/run
mkdir -p "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
tool=$(pwd)/u64/nttrace

# run CMD...: its stdout in $tmp/out, stderr in $tmp/err, status in $rc.
run() {
	"$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
}

# say WHAT: a diagnostic line in the TAP output.
say() {
	echo "# $*" | head -n 3 >&3
}

# exits N PATTERN CMD...: CMD exits N and its stdout or stderr matches
# PATTERN (an extended regular expression; "" matches anything).
exits() {
	want=$1
	pat=$2
	shift 2
	run "$@"
	if [ "$rc" -eq "$want" ] && { [ -z "$pat" ] || cat "$tmp/out" "$tmp/err" | grep -Eq -- "$pat"; }; then
		return 0
	fi
	say "$*: exit $rc: $(cat "$tmp/out" "$tmp/err" | head -c 300)"
	return 1
}

# running PATTERN: no session whose `nttrace list` line matches PATTERN runs.
none_matching() {
	if $tool list | grep -Eq -- "$1"; then
		say "still running: $($tool list | grep -E -- "$1")"
		return 1
	fi
}

# dumped FILE PATTERN MIN: at least MIN lines of `nttrace dump FILE` match PATTERN.
dumped() {
	cnt=$($tool dump "$1" 2> /dev/null | grep -Ec -- "$2")
	[ "$cnt" -ge "$3" ] && return 0
	say "$1: $cnt lines match '$2', want at least $3"
	return 1
}
