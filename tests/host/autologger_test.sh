#!/bin/sh
# `nttrace autologger` on the host, without the module: the configuration
# it writes (files, modes, values as Windows names them), updates, listing,
# removal, and what it refuses; `boot` without the module counts the
# failure and writes the status. (A boot that starts them: the debug
# guest's, tests/vm/autologger_boot.sh.)
#
#   tests/host/autologger_test.sh NTTRACE
#
# Prints TAP; exit status 1 if a check failed.
set -u
tool=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export NTTRACE_AUTOLOGGER_DIR=$dir/etc/nttrace/autologger
al="$tool autologger"
n=0
fail=0
guid=11111111-2222-3333-4444-555555555555

ok() {
	n=$((n + 1))
	if "$@" > /dev/null 2>&1; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what"
		fail=1
	fi
}

# holds FILE TEXT: FILE is TEXT (printf's escapes), whole.
holds() {
	printf "$2" | cmp -s - "$1"
}

# exits N PATTERN CMD...: CMD exits N and its output matches PATTERN.
exits() {
	want=$1 pat=$2
	shift 2
	out=$("$@" 2>&1)
	[ $? -eq "$want" ] && printf '%s\n' "$out" | grep -Eq -- "$pat"
}

what="add: a session and a provider" ok exits 0 "added: 1 provider" \
	$al add Boot FileName=/tmp/x.etl BufferSize=64 LogFileMode=0x2 \
	-p "$guid" EnableLevel=5 MatchAnyKeyword=0xff
d=$NTTRACE_AUTOLOGGER_DIR/Boot
what="... the key's values, Start=1 added" ok \
	holds "$d/values" 'Start=1\nFileName=/tmp/x.etl\nBufferSize=64\nLogFileMode=0x2\n'
what="... the provider's subkey, Enabled=1 added" ok \
	holds "$d/{$guid}" 'Enabled=1\nEnableLevel=5\nMatchAnyKeyword=0xff\n'
what="... files 0600, the session's directory 0700" ok \
	sh -c "[ \$(stat -c %a '$d/values') = 600 ] && [ \$(stat -c %a '$d/{$guid}') = 600 ] &&
	       [ \$(stat -c %a '$d') = 700 ]"
what="add again: values set, the rest kept; value names in any case" ok exits 0 "updated" \
	$al add Boot buffersize=128 -p "{$guid}" enablelevel=4
what="... BufferSize=128, FileName kept" ok \
	sh -c "grep -qx BufferSize=128 '$d/values' && grep -qx FileName=/tmp/x.etl '$d/values'"
what="... the provider's level 4, its keywords kept" ok \
	sh -c "grep -qx EnableLevel=4 '$d/{$guid}' && grep -qx MatchAnyKeyword=0xff '$d/{$guid}'"
what="list NAME" ok exits 0 "^  \\{$guid\\}" $al list Boot
what="list: all" ok exits 0 "^Boot" $al list
what="a value Windows does not have: refused" ok exits 2 "no value 'Bogus'" \
	$al add Boot Bogus=1
what="... and nothing written" ok sh -c "! grep -q Bogus '$d/values'"
what="a number that is not one: refused" ok exits 2 "BufferSize '12x'" $al add Boot BufferSize=12x
what="a DWORD too large: refused" ok exits 2 "" $al add Boot BufferSize=0x100000000
what="EnableFlags outside a system logger: refused" ok exits 2 "only a system logger" \
	$al add Boot EnableFlags=1
what="... a system logger of its own (LogFileMode 0x2000000) takes them" ok exits 0 "added" \
	$al add Sys LogFileMode=0x2000000 EnableFlags=0x1
what="... and stops taking them when its mode goes" ok exits 2 "only a system logger" \
	$al add Sys LogFileMode=0
what="providers for the NT Kernel Logger: refused" ok exits 2 "enables no providers" \
	$al add "NT Kernel Logger" -p "$guid"
what="... and no half-made autologger left" ok sh -c "[ ! -e '$NTTRACE_AUTOLOGGER_DIR/NT Kernel Logger' ]"
what="a file for a buffering session: refused" ok exits 2 "writes no file at boot" \
	$al add Mem LogFileMode=0x400 FileName=/tmp/m.etl
what="... which takes none" ok exits 0 "added" $al add Mem LogFileMode=0x400
what="a name that is a path: refused" ok exits 2 "not a session name" $al add ../escape
what="a provider nobody knows: refused" ok exits 2 "not a GUID" $al add Boot -p Nowhere
what="a hand-edited file with a value not known: boot refuses that autologger" ok \
	sh -c "mkdir -m 700 '$NTTRACE_AUTOLOGGER_DIR/Bad' && echo 'Strat=1' > '$NTTRACE_AUTOLOGGER_DIR/Bad/values' &&
	       ! $al boot > '$dir/boot.out' 2>&1 && grep -q \"no value 'Strat'\" '$dir/boot.out'"
what="boot without the module: the failure counted and said" ok \
	grep -q "0 autologgers started, 4 failed" "$dir/boot.out"
what="... the status written, as Windows writes Status" ok \
	sh -c "grep -q '^Status=[1-9]' '$d/status' && $al list Boot | grep -q 'last boot:'"
# Who may: what the directory allows. An unprivileged user (setpriv, where
# util-linux has it) reads nothing of root's configuration and writes none.
if command -v setpriv > /dev/null && [ "$(id -u)" = 0 ]; then
	chmod 755 "$dir" "$dir/etc" "$dir/etc/nttrace"
	nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
	what="an unprivileged user: add refused (the directory is root's)" ok \
		exits 1 "Permission denied" $nobody $al add Theirs Start=1
	what="... list of an autologger: its values unreadable (0600)" ok \
		exits 1 "Permission denied" $nobody $al list Boot
	what="... remove refused" ok exits 1 "Permission denied" $nobody $al remove Boot
	what="... and the configuration as it was" ok \
		sh -c "[ -f '$d/values' ] && [ ! -e '$NTTRACE_AUTOLOGGER_DIR/Theirs' ]"
else
	n=$((n + 1))
	echo "ok $n - an unprivileged user # SKIP setpriv missing or not root"
fi
what="remove" ok exits 0 "removed" $al remove Boot
what="... gone, with its status and provider files" ok sh -c "[ ! -e '$d' ]"
what="remove of nothing" ok exits 2 "no autologger 'Boot'" $al remove Boot
what="remove of one whose file does not parse" ok exits 0 "removed" $al remove Bad

# logman's way to the same configuration: autosession\NAME.
lm="$tool logman"
what="logman create trace autosession\\LmBoot -p GUID 0x3 win:Verbose -o PATH -bs -nb -max -ft" \
	ok exits 0 "completed successfully" $lm create trace 'autosession\LmBoot' \
	-p "$guid" 0x3 win:Verbose -o "$dir/lm" -bs 64 -nb 16 32 -max 100 -ft 1
d=$NTTRACE_AUTOLOGGER_DIR/LmBoot
what="... the values logman's options give (.etl added to the file)" ok holds "$d/values" \
	"Start=1\nFileName=$dir/lm.etl\nMaxFileSize=100\nBufferSize=64\nMinimumBuffers=16\nMaximumBuffers=32\nFlushTimer=1\n"
what="... the provider's level by name, its keywords" ok \
	holds "$d/{$guid}" 'Enabled=1\nEnableLevel=5\nMatchAnyKeyword=0x3\n'
what="... create again: already exists" ok exits 1 "Data Collector Set already exists" \
	$lm create trace 'autosession\LmBoot' -bs 64
what="... update -bs 128" ok exits 0 "completed successfully" $lm update 'autosession\LmBoot' -bs 128
what="... query shows it" ok exits 0 "BufferSize=128" $lm query 'autosession\LmBoot'
what="... with -ets: refused" ok exits 1 "-ets: not with autosession" \
	$lm create trace 'autosession\Other' -ets
what="... the NT Kernel Logger by logman's keyword names" ok exits 0 "completed successfully" \
	$lm create trace 'autosession\NT Kernel Logger' -p "Windows Kernel Trace" "(process,thread)"
what="... EnableFlags 0x3" ok grep -qx "EnableFlags=0x3" "$NTTRACE_AUTOLOGGER_DIR/NT Kernel Logger/values"
what="... delete" ok exits 0 "completed successfully" $lm delete 'autosession\LmBoot'
what="... delete again: not found" ok exits 1 "Data Collector Set was not found" \
	$lm delete 'autosession\LmBoot'
what="... update of none: not found" ok exits 1 "Data Collector Set was not found" \
	$lm update 'autosession\LmBoot' -bs 64
echo "1..$n"
exit $fail
