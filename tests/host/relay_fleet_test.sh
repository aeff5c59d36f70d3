#!/bin/sh
# Many hosts, one relay: three "hosts" (network namespaces of their own,
# each with its own address on a bridge the test makes, and a UTS
# namespace with its own host name) stream a trace each at once to one
# lttng-relayd listening on the bridge's address only; each host's trace
# is found under its own name, whole, and none mixed with another's
# (each sent a file of its own, whose babeltrace2 text it must be).
# Needs root (namespaces, links) and lttng-relayd: else skipped. The
# addresses are in 198.18.0.0/15, the range set aside for such tests.
# Prints TAP.
#
#   tests/host/relay_fleet_test.sh NTTRACE BENCH_READ OUTDIR
set -u
tool=$1
gen=$2
out=$3
hosts="1 2 3"
tag=$$
br=nfb$tag
relayd_pid=
. "$(dirname "$0")/tap.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v lttng-relayd > /dev/null ||
   ! command -v babeltrace2 > /dev/null || ! command -v ip > /dev/null ||
   ! ip netns add "nf$tag-probe" 2> /dev/null; then
	n=1
	echo "ok 1 - many hosts, one relay # SKIP needs root, ip netns, lttng-relayd and babeltrace2"
	done_tap
fi
ip netns del "nf$tag-probe"
tmp=$(mktemp -d "$out/relay-fleet.XXXXXX")

cleanup() {
	[ -n "$relayd_pid" ] && kill "$relayd_pid" 2> /dev/null && wait "$relayd_pid"
	for h in $hosts; do
		ip netns del "nf$tag-$h" 2> /dev/null
		ip link del "nf${tag}a$h" 2> /dev/null
	done
	ip link del "$br" 2> /dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT


# The network: a bridge with the relay's address, a veth pair a host.
ip link add "$br" type bridge && ip addr add 198.18.77.1/24 dev "$br" &&
	ip link set "$br" up || { bad "the bridge"; done_tap; }
for h in $hosts; do
	ns=nf$tag-$h
	ip netns add "$ns" &&
		ip link add "nf${tag}a$h" type veth peer name "nf${tag}b$h" &&
		ip link set "nf${tag}a$h" master "$br" up &&
		ip link set "nf${tag}b$h" netns "$ns" &&
		ip -n "$ns" addr add "198.18.77.$((h + 1))/24" dev "nf${tag}b$h" &&
		ip -n "$ns" link set "nf${tag}b$h" up && ip -n "$ns" link set lo up ||
		{ bad "host $h's namespace and link"; done_tap; }
	# Each host's own trace: 2 to 4 CPUs, so that a mix would show.
	"$gen" gen "$tmp/h$h.etl" 1 $((h + 1)) > /dev/null &&
		"$tool" convert --to ctf "$tmp/h$h.ctf" "$tmp/h$h.etl" 2> /dev/null &&
		babeltrace2 "$tmp/h$h.ctf" > "$tmp/h$h.txt" 2> /dev/null ||
		{ bad "host $h's trace"; done_tap; }
done
ok "three hosts: namespaces with 198.18.77.2 to .4 on a bridge with the relay's .1"

port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("198.18.77.1", 0)); print(s.getsockname()[1])'
}
cport=$(port) dport=$(port) lport=$(port)
lttng-relayd -o "$tmp/relay" -C "tcp://198.18.77.1:$cport" -D "tcp://198.18.77.1:$dport" \
	-L "tcp://198.18.77.1:$lport" > "$tmp/relayd.log" 2>&1 &
relayd_pid=$!
while ! listening 198.18.77.1 "$cport" || ! listening 198.18.77.1 "$dport"; do
	kill -0 "$relayd_pid" 2> /dev/null || break
	sleep 0.05
done
check "lttng-relayd listens on the bridge's address alone" listening 198.18.77.1 "$dport"

# All three at once, each under its own host name.
for h in $hosts; do
	ip netns exec "nf$tag-$h" unshare --uts sh -c "hostname fleet-host-$h &&
		'$tool' convert --to net://198.18.77.1:$cport:$dport --name fleet '$tmp/h$h.etl'" \
		> "$tmp/h$h.out" 2>&1 &
	eval "pid$h=\$!"
done
for h in $hosts; do
	eval "wait \$pid$h"
	check "host $h: convert --to net:// exits 0" test $? -eq 0
done
for h in $hosts; do
	dir=$(ls -d "$tmp/relay/fleet-host-$h"/fleet-*/nttrace 2> /dev/null | head -n 1)
	check "host $h: stored under its own name (fleet-host-$h/fleet-DATE/nttrace)" test -d "$dir"
	babeltrace2 "$dir" > "$tmp/r$h.txt" 2> /dev/null
	check "host $h: its own events, whole, none of another's ($(wc -l < "$tmp/r$h.txt"))" \
		cmp -s "$tmp/h$h.txt" "$tmp/r$h.txt"
done
check "nothing else stored: three hosts" test "$(ls "$tmp/relay" | wc -l)" -eq 3
done_tap
