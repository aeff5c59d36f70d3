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
