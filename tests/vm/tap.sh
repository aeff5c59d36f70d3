# Sourced by the shell tests in the VM: TAP on fd 3 (so that a check's own
# redirections do not swallow it), `check DESCRIPTION COMMAND...` per test,
# `tap_done` at the end.
n=0
fail=0
exec 3>&1
check() {
	desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $desc" >&3
	else
		echo "not ok $n - $desc" >&3
		fail=1
	fi
}
tap_done() {
	echo "1..$n"
	exit $fail
}
