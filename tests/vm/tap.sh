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

# Waits on a condition of another process, never on a time (the short
# sleeps only pace the look). Each returns 1 if the process ended first.
# wait_attached PID: PID has mapped /dev/nttrace (attached to a session).
wait_attached() {
	while kill -0 "$1" 2> /dev/null; do
		grep -q /dev/nttrace "/proc/$1/maps" 2> /dev/null && return 0
		sleep 0.05
	done
	return 1
}
# listening PORT: a TCP socket listens on PORT, any address (/proc/net/tcp,
# state 0A): the guest has no other tool to ask.
listening() {
	grep -qi "^ *[0-9]*: [0-9A-F]*:$(printf '%04X' "$1") [0-9A-F:]* 0A " /proc/net/tcp
}
# say_threads WHO PID: where each of PID's threads is (its wait channel,
# state, signal masks and kernel stack), as diagnostic lines of the TAP.
say_threads() {
	for t in /proc/"$2"/task/*; do
		echo "# $1 $2: thread ${t##*/} in $(cat "$t/wchan" 2> /dev/null)," \
			"$(cut -d' ' -f3 "$t/stat" 2> /dev/null)," \
			$(grep -E '^Sig(Pnd|Blk|Ign|Cgt)|^ShdPnd' "$t/status" 2> /dev/null) >&3
		sed 's/^/#   /' "$t/stack" >&3 2> /dev/null
	done
}
# wait_caught PID SIGNUM: PID, a program started in the background, has
# a handler for SIGNUM (SigCgt). Only once PID runs its program: until its
# exec, the child is a copy of this shell, and busybox sh catches SIGINT
# when it runs a script; a SIGINT sent then went to that copy's handler
# and was lost, so the program ran on, never told to stop (the test hung),
# or the copy ended itself before running the program. A wait that goes
# on (2400 looks) says once where PID's threads are, for the log: the
# wait itself goes on, on the condition alone.
wait_caught() {
	looks=0
	shell=$(readlink /proc/$$/exe)
	while kill -0 "$1" 2> /dev/null; do
		# The program first, then its handlers: read the other way, the
		# handlers could be the shell's copy's, read just before the
		# exec (it catches SIGINT), and the signal then go to the
		# program before it catches it (a background job ignores it).
		caught_exe=$(readlink "/proc/$1/exe" 2> /dev/null)
		cgt=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2> /dev/null)
		[ -n "$caught_exe" ] && [ "$caught_exe" != "$shell" ] && [ -n "$cgt" ] &&
			[ $(((0x$cgt >> ($2 - 1)) & 1)) -eq 1 ] && return 0
		looks=$((looks + 1))
		[ $looks -ne 2400 ] || say_threads wait_caught "$1"
		sleep 0.05
	done
	return 1
}
# wait_gone PID: PID has ended (a child of ours: `wait PID` reaps it after).
# A wait that goes on (2400 looks) says once where PID's threads are, as
# wait_caught does.
wait_gone() {
	looks=0
	while kill -0 "$1" 2> /dev/null && ! grep -q '^State:.*Z' "/proc/$1/status" 2> /dev/null; do
		looks=$((looks + 1))
		[ $looks -ne 2400 ] || say_threads wait_gone "$1"
		sleep 0.05
	done
}
# wait_grep PATTERN FILE PID: FILE has a line matching PATTERN (grep -E).
wait_grep() {
	until grep -Eq -- "$1" "$2" 2> /dev/null; do
		kill -0 "$3" 2> /dev/null || return 1
		sleep 0.05
	done
	return 0
}
