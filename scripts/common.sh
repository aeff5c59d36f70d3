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

# The host's perf (Debian's linux-perf, installed if missing) and the
# libraries it links, into DIR, for a guest that has no perf of its own
# (a busybox initramfs): DIR/perf, DIR/lib/, and DIR/perf.sh, which defines
# a shell function `perf` running it by its own loader from /add/DIR's
# base name (vm-run --add DIR). For scripts/profile-vm and
# scripts/bench-kernel-logger.
perf_bundle() {
	bundle=$1
	command -v perf > /dev/null || {
		apt-get update -q &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends linux-perf
	} > /dev/null || die "cannot install linux-perf"
	rm -rf "$bundle"
	mkdir -p "$bundle/lib"
	# /usr/bin/perf may be a wrapper script naming the versioned binary.
	bin=$(readlink -f "$(command -v perf)")
	if head -c 2 "$bin" | grep -q '#!'; then
		bin=$(ls /usr/bin/perf_* 2> /dev/null | sort -V | tail -n 1)
	fi
	[ -x "$bin" ] || die "no perf binary found"
	cp "$bin" "$bundle/perf"
	ldd "$bin" | awk '/=> \// { print $3 } /^\t\/.*ld-linux/ { print $1 }' |
		while read -r lib; do cp -L "$lib" "$bundle/lib/"; done
	loader=$(basename "$(ls "$bundle"/lib/ld-linux-*.so.* | head -n 1)")
	base=$(basename "$bundle")
	echo "perf() { /add/$base/lib/$loader --library-path /add/$base/lib /add/$base/perf \"\$@\"; }" \
		> "$bundle/perf.sh"
}
