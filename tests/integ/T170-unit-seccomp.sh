#!/bin/sh
# contrib/mlqd.service's system call filter, as systemd would install it
# (its groups expanded by systemd-analyze): mlqd and mlq import complete
# under it, and the same filter without SystemCallErrorNumber=EPERM kills
# them, as it did before.  systemd-analyze verify accepts the unit.
. "$top_srcdir/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/mlqd.sh"
need systemd-analyze cpp
# A sanitizer's runtime makes calls of its own (LeakSanitizer ptraces
# the process at exit) that the unit denies: this is the plain build's.
if command -v ldd >/dev/null && ldd "$top_builddir/cli/mlq" | grep -q 'lib[at]san'; then
	skip_all "a sanitized build (its runtime needs calls the unit denies)"
fi
UNIT=$top_srcdir/contrib/mlqd.service
# A call the filter breaks must fail the test, not hang it.
filtered() { timeout 120 "$top_builddir/tests/helpers/seccomp-run" "$@"; }

# The names of a group, its nested groups expanded.
expand() {
	systemd-analyze syscall-filter "$1" 2>/dev/null |
	    awk 'NR > 1 && $1 !~ /^#/ && NF { print $1 }' |
	    while read -r s; do
		case $s in @*) expand "$s" ;; *) echo "$s" ;; esac
	    done
}
allow=$(sed -n 's/^SystemCallFilter=\([^~].*\)/\1/p' "$UNIT")
deny=$(sed -n 's/^SystemCallFilter=~\(.*\)/\1/p' "$UNIT")
for g in $allow; do expand "$g"; done | sort -u >"$TMP/allow"
for g in $deny; do expand "$g"; done | sort -u >"$TMP/deny"
ok $(($(wc -l <"$TMP/allow") < 100)) "the unit allows $(wc -l <"$TMP/allow") calls"
is "$(grep -c -x setpriority "$TMP/deny")" 1 "and denies setpriority (@resources)"
comm -23 "$TMP/allow" "$TMP/deny" >"$TMP/names"
# Names to this machine's numbers; a name it does not have is skipped.
sed 's/.*/__NR_& =&/' "$TMP/names" | { echo '#include <sys/syscall.h>'; cat; } |
    cpp -P - 2>/dev/null | awk '$1 ~ /^[0-9]+$/ { print $1 }' >"$TMP/nrs"
ok $(($(wc -l <"$TMP/nrs") < 100)) "$(wc -l <"$TMP/nrs") of them numbered here"
grep -q '^SystemCallErrorNumber=EPERM$' "$UNIT"
ok $? "the unit answers a denied call with EPERM"

filtered "$TMP/nrs" eperm true
[ $? -eq 77 ] && skip_all "no seccomp filter for this architecture"

# mlq import under the unit's filter.
FIX="$top_srcdir/tests/fixtures/daemon"
for f in "$FIX"/a1.eml "$FIX"/a2.eml "$FIX"/a3.eml; do
	echo "From mlq@test Thu Jan  1 00:00:00 1970"; cat "$f"; echo
done >"$TMP/list.mbox"
filtered "$TMP/nrs" eperm "$MLQ" import "$TMP/list.mbox" >"$TMP/out" 2>&1
is "$?:$(tail -n 1 "$TMP/out")" "0:imported 3 new, 0 duplicate, 0 rejected" \
    "mlq import completes under the filter"
rm -f "$MLQ_DB" "$MLQ_DB-mail"

# mlqd --once under it, reading the same mail as a source.
printf '[source "box"]\nurl = %s\n' "$TMP/list.mbox" >"$MLQ_CONFIG"
filtered "$TMP/nrs" eperm "$MLQD" --once >"$TMP/mlqd.log" 2>&1
is "$?:$(stored_ids | wc -l | tr -d ' ')" "0:3" "mlqd --once completes under the filter"

# Without SystemCallErrorNumber the kernel kills at the first denied call.
rm -f "$MLQ_DB" "$MLQ_DB-mail"
filtered "$TMP/nrs" kill "$MLQ" import "$TMP/list.mbox" >/dev/null 2>&1
st=$?
ok $((st < 128)) "without EPERM the same filter kills mlq import (status $st)"
# ... at setpriority: allowed, nothing else kills it.  (As root, SQLite
# also gives a new journal its database's owner with fchown, @privileged;
# a user unit is not root.)
more=__NR_setpriority
[ "$(id -u)" -eq 0 ] && more="$more __NR_fchown"
{ cat "$TMP/nrs"; printf '#include <sys/syscall.h>\n%s\n' $more |
    cpp -P - | grep '^[0-9]'; } >"$TMP/nrs2"
rm -f "$MLQ_DB" "$MLQ_DB-mail"
filtered "$TMP/nrs2" kill "$MLQ" import "$TMP/list.mbox" >/dev/null 2>&1
is "$?" 0 "with setpriority allowed it completes: that was the call"

cp "$UNIT" "$TMP/mlqd.service"
sed -i "s|^ExecStart=[^ ]*|ExecStart=$MLQD|" "$TMP/mlqd.service"
systemd-analyze verify "$TMP/mlqd.service" >"$TMP/verify" 2>&1
is "$?:$(cat "$TMP/verify")" "0:" "systemd-analyze verify accepts the unit"

# The system unit: the same filter, and systemd accepts it.
SYS=$top_srcdir/contrib/mlqd-system.service
is "$(grep '^SystemCall' "$SYS")" "$(grep '^SystemCall' "$UNIT")" \
    "the system unit has the user unit's filter"
mkdir -p "$TMP/system"
sed "s|^ExecStart=[^ ]*|ExecStart=$MLQD|" "$SYS" >"$TMP/system/mlqd.service"
systemd-analyze verify "$TMP/system/mlqd.service" >"$TMP/verify" 2>&1
is "$?:$(cat "$TMP/verify")" "0:" "systemd-analyze verify accepts the system unit"

test_done
