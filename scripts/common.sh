# Shared settings for nttrace's scripts; sourced, not run.
#
# Test kernels are cached outside the tree, in $NTTRACE_CACHE (default
# ~/.cache/nttrace), one directory per flavour and key. The key hashes the
# config fragments, the kernel source package version and KERNEL_RECIPE, so
# a change to any of them builds a fresh kernel and leaves the old one
# (`make clean-cache` removes them all).

NTTRACE_TOP=$(cd "$(dirname "$0")/.." && pwd)
NTTRACE_CACHE=${NTTRACE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/nttrace}
NTTRACE_BUILD=${NTTRACE_BUILD:-$NTTRACE_TOP/build}

# Bump when scripts/build-kernel changes what it builds for debug or bench.
KERNEL_RECIPE=1

die() {
	echo "$(basename "$0"): $*" >&2
	exit 1
}

pkg_version() {
	dpkg-query -W -f='${Version}' "$1" 2>/dev/null
}

# The directory holding a built kernel of one flavour: bzImage (or vmlinuz),
# and a `build` tree to compile modules against.
kernel_dir() {
	flavour=$1
	case $flavour in
	debug|bench)
		ver=$(pkg_version linux-source-6.12) ||
			die "linux-source-6.12 is not installed (run scripts/deps)"
		key=$(cat "$NTTRACE_TOP/scripts/kconfig/common.config" \
			"$NTTRACE_TOP/scripts/kconfig/$flavour.config" |
			{ cat; echo "$ver $KERNEL_RECIPE"; } | sha256sum | cut -c1-12)
		echo "$NTTRACE_CACHE/kernel-$flavour-$key"
		;;
	debian)
		ver=$(pkg_version linux-headers-amd64) ||
			die "linux-headers-amd64 is not installed (run scripts/deps)"
		echo "$NTTRACE_CACHE/kernel-debian-$ver"
		;;
	*)
		die "unknown flavour '$flavour' (debug, bench or debian)"
		;;
	esac
}

# The libraries FILE... link (their loader too), copied into DIR.
bundle_libs() {
	libdir=$1
	shift
	for f in "$@"; do
		ldd "$f" | awk '/=> \// { print $3 } /^\t\/.*ld-linux/ { print $1 }'
	done | sort -u | while read -r lib; do cp -L "$lib" "$libdir/"; done
}

# PROGRAM (a path) and the libraries it links into DIR, for a guest that
# has none of them (a busybox initramfs): DIR/NAME, DIR/lib/, and
# DIR/NAME.sh, which defines a shell function NAME running it by its own
# loader from /add/DIR's base name (vm-run --add DIR).
program_bundle() {
	bundle=$1
	bin=$2
	name=$3
	rm -rf "$bundle"
	mkdir -p "$bundle/lib"
	cp "$bin" "$bundle/$name"
	bundle_libs "$bundle/lib" "$bin"
	loader=$(basename "$(ls "$bundle"/lib/ld-linux-*.so.* | head -n 1)")
	base=$(basename "$bundle")
	echo "$name() { /add/$base/lib/$loader --library-path /add/$base/lib /add/$base/$name \"\$@\"; }" \
		> "$bundle/$name.sh"
}

# The host's perf (Debian's linux-perf, installed if missing) as
# program_bundle DIR: DIR/perf.sh defines `perf`. For scripts/profile-vm,
# scripts/bench-kernel-logger and tests/vm/tracepoints_test.sh.
perf_bundle() {
	command -v perf > /dev/null || {
		apt-get update -q &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends linux-perf
	} > /dev/null || die "cannot install linux-perf"
	# /usr/bin/perf may be a wrapper script naming the versioned binary.
	bin=$(readlink -f "$(command -v perf)")
	if head -c 2 "$bin" | grep -q '#!'; then
		bin=$(ls /usr/bin/perf_* 2> /dev/null | sort -V | tail -n 1)
	fi
	[ -x "$bin" ] || die "no perf binary found"
	program_bundle "$1" "$bin" perf
}

# Debian's bpftrace (installed if missing; it brings LLVM, about 200 MB
# with its libraries) as program_bundle DIR: DIR/bpftrace.sh defines
# `bpftrace`. For tests/vm/bpftrace_test.sh in the debian kernel, the one
# test kernel with BPF (Debian's own).
bpftrace_bundle() {
	command -v bpftrace > /dev/null || {
		apt-get update -q &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends bpftrace
	} > /dev/null || die "cannot install bpftrace"
	program_bundle "$1" "$(readlink -f "$(command -v bpftrace)")" bpftrace
}

# LTTng's relay daemon and babeltrace2 with its plugins (Debian's
# lttng-tools and babeltrace2, which scripts/deps installs) for a guest
# that has neither: DIR/relay.sh defines `lttng_relayd` and `babeltrace2`,
# each run by its own loader from /add/DIR's base name, the plugins' and
# the programs' libraries in DIR/lib. For tests/vm/relay_live_test.sh.
relay_bundle() {
	bundle=$1
	relayd=$(command -v lttng-relayd) || die "lttng-relayd is not installed (scripts/deps)"
	bt=$(command -v babeltrace2) || die "babeltrace2 is not installed (scripts/deps)"
	plugins=$(ls -d /usr/lib/*/babeltrace2/plugins 2> /dev/null | head -n 1)
	[ -n "$plugins" ] || die "babeltrace2's plugins are not installed"
	rm -rf "$bundle"
	mkdir -p "$bundle/lib" "$bundle/plugins" "$bundle/no-providers"
	cp "$relayd" "$bundle/lttng-relayd"
	cp "$bt" "$bundle/babeltrace2"
	cp "$plugins"/*.so "$bundle/plugins/"
	bundle_libs "$bundle/lib" "$relayd" "$bt" "$plugins"/*.so
	# babeltrace2's text goes through stdio, in 4 KB blocks to a file: a
	# live viewer's last events would wait there. Line-buffered instead.
	printf '#include <stdio.h>\n%s\n' \
		'static void __attribute__((constructor)) lines(void) { setvbuf(stdout, NULL, _IOLBF, 0); }' |
		gcc -shared -fPIC -x c -o "$bundle/lib/linebuf.so" - || die "cannot build linebuf.so"
	loader=$(basename "$(ls "$bundle"/lib/ld-linux-*.so.* | head -n 1)")
	base=/add/$(basename "$bundle")
	cat > "$bundle/relay.sh" <<EOS
lttng_relayd() { $base/lib/$loader --library-path $base/lib $base/lttng-relayd "\$@"; }
babeltrace2() {
	BABELTRACE_PLUGIN_PATH=$base/plugins \\
	LIBBABELTRACE2_PLUGIN_PROVIDER_DIR=$base/no-providers \\
		$base/lib/$loader --library-path $base/lib --preload $base/lib/linebuf.so \\
		$base/babeltrace2 "\$@"
}
EOS
}

# LTTng's control tool, session and consumer daemons, and nttrace_bench_lttng
# (an LTTng-UST program) with their libraries, for a guest that has none:
# DIR/NAME runs each (a shell script calling its loader, so that the session
# daemon can run the consumer daemon by its path). For scripts/bench-relay.
lttng_bundle() {
	bundle=$1
	bench=$2
	consumerd=$(ls /usr/lib/*/lttng/libexec/lttng-consumerd 2> /dev/null | head -n 1)
	[ -n "$consumerd" ] || die "lttng-consumerd is not installed (scripts/deps)"
	rm -rf "$bundle"
	mkdir -p "$bundle/lib"
	base=/add/$(basename "$bundle")
	for f in "$(command -v lttng)" "$(command -v lttng-sessiond)" "$consumerd" "$bench"; do
		cp "$f" "$bundle/$(basename "$f").bin"
	done
	bundle_libs "$bundle/lib" "$(command -v lttng)" "$(command -v lttng-sessiond)" \
		"$consumerd" "$bench"
	# What liblttng-ust opens by name at run time; the schema the
	# session daemon checks session files against (it reads none here).
	cp -L /usr/lib/*/liblttng-ust-*.so.1 "$bundle/lib/" 2> /dev/null || true
	cp /usr/share/xml/lttng/session.xsd "$bundle/" ||
		die "lttng-tools' session.xsd is not installed"
	loader=$(basename "$(ls "$bundle"/lib/ld-linux-*.so.* | head -n 1)")
	for f in lttng lttng-sessiond lttng-consumerd "$(basename "$bench")"; do
		printf '#!/bin/sh\nexport LTTNG_SESSION_CONFIG_XSD_PATH=%s\nexec %s/lib/%s --library-path %s/lib %s/%s.bin "$@"\n' \
			"$base" "$base" "$loader" "$base" "$base" "$f" > "$bundle/$f"
		chmod +x "$bundle/$f"
	done
}
