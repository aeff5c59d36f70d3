# Sourced by the host's shell tests: TAP on stdout. `check DESCRIPTION
# COMMAND...` runs a test, `ok`, `bad` and `skip` say one's result as it
# is, `done_tap` ends the plan and exits (non-zero if one failed).
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
bad() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else bad "$desc"; fi
}
done_tap() { echo "1..$n"; exit $fail; }

# listening ADDRESS PORT: a TCP socket listens there (what a test waits
# on before it goes on, never a time).
listening() {
	python3 -c 'import socket, sys
s = socket.socket()
sys.exit(s.connect_ex((sys.argv[1], int(sys.argv[2]))))' "$1" "$2"
}
