#!/bin/sh
# The names nttrace's own headers give their includers: the uapi (installed as <nttrace/uapi.h>) and the library's native
# headers, <nttrace/session.h>, <nttrace/etl.h> and <nttrace/tmf.h>, must
# define nothing outside nttrace's prefixes: macros NTTRACE_* (or
# _NTTRACE_* / _UAPI_NTTRACE_* include guards), and struct, union, enum,
# typedef, enumerator and function names nttrace_* / NTTRACE_*. Windows'
# names (BOOL, TRUE, STATUS_*, EVENT_HEADER, ...) belong to the headers
# named after the Windows SDK's (<nttrace/evntrace.h> and the rest), which
# a program includes to have them.
#
#   tests/host/names_test.sh CC
#
# Prints a TAP line per header and lists each name out of place; exit
# status 1 if any.
set -u
cc=${1:-cc}
top=$(cd "$(dirname "$0")/../.." && pwd)
# <nttrace/uapi.h>: the build's copy of uapi/nttrace.h (make headers).
gen=${NTTRACE_BUILD:-$top/build}/generated
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

for h in nttrace/uapi.h nttrace/session.h nttrace/etl.h nttrace/tmf.h; do
	n=$((n + 1))
	printf '#include <%s>\n' "$h" > "$tmp/t.c"
	# -dD keeps each #define where it is made; the line markers say in
	# which file. Only what nttrace's own files declare is looked at.
	if ! "$cc" -E -dD -I"$gen" -I"$top/include" -I"$top/userlib/include" "$tmp/t.c" > "$tmp/pp" 2> "$tmp/err"; then
		cat "$tmp/err"
		echo "not ok $n - $h: does not preprocess"
		fail=1
		continue
	fi
	perl -e '
		my ($dir, $root) = @ARGV;
		my ($ours, $text) = (0, "");
		my %bad;
		open my $f, "<", "${dir}pp" or die;
		while (<$f>) {
			if (/^# \d+ "([^"]*)"/) {
				$ours = index($1, $root) == 0;
				next;
			}
			next unless $ours;
			if (/^#define\s+(\w+)/) {
				$bad{"macro $1"} = 1
					unless $1 =~ /^_?(UAPI_)?NTTRACE_/;
				next;
			}
			next if /^#/;
			$text .= $_;
		}
		# Declarations: tags, typedef names, enumerators, functions.
		$text =~ s{/\*.*?\*/}{}gs;
		while ($text =~ /\b(?:struct|union|enum)\s+(\w+)/g) {
			$bad{"tag $1"} = 1 unless $1 =~ /^nttrace_/;
		}
		# Typedef names: "(*name)" of a function pointer type, else the
		# last name before the ";" (struct bodies flattened first).
		my $flat = $text;
		1 while $flat =~ s/\{[^{}]*\}/ /g;
		while ($flat =~ /\btypedef\b([^;]*);/g) {
			my $t = $1;
			my $name = $t =~ /\(\s*\*\s*(\w+)\s*\)/ ? $1 :
				   $t =~ /(\w+)\s*(?:\[[^\]]*\]\s*)*$/ ? $1 : "";
			$bad{"typedef $name"} = 1 unless $name =~ /^nttrace_/;
		}
		while ($text =~ /\benum\b[^{;]*\{([^}]*)\}/g) {
			for my $e (split /,/, $1) {
				$bad{"enumerator $1"} = 1
					if $e =~ /^\s*(\w+)/ && $1 !~ /^NTTRACE_/;
			}
		}
		# A function declared at file scope: a name followed by "(" at
		# brace depth 0 (bodies of structs and inline functions skipped).
		$flat =~ s/\btypedef\b[^;]*;//g;
		while ($flat =~ /(\w+)\s*\(/g) {
			my $name = $1;
			next if $name =~ /^(__attribute__|__typeof__|sizeof|_Static_assert|__extension__)$/;
			$bad{"function $name"} = 1 unless $name =~ /^nttrace_/;
		}
		print "$_\n" for sort keys %bad;
	' "$tmp/" "$top/" > "$tmp/bad"
	if [ -s "$tmp/bad" ]; then
		sed "s|^|# $h: |" "$tmp/bad"
		echo "not ok $n - $h defines names outside nttrace's prefixes"
		fail=1
	else
		echo "ok $n - $h defines only nttrace's names"
	fi
done
echo "1..$n"
exit $fail
