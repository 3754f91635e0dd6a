#!/bin/sh
# Review history on hand-written threads (tests/fixtures/review/): every
# NAME.mbox is imported into its own database twice, in file order and in
# reverse order, and NAME.expect is checked against both: tags, statuses,
# links and series must not depend on the order mail arrives in.
. "$top_srcdir/tests/lib/test-lib.sh"
need jq
need sqlite3

FIX="$top_srcdir/tests/fixtures/review"

# Messages of an mbox, last first.
reverse_mbox() {
	awk '/^From / { n++ } { m[n] = m[n] $0 "\n" }
	    END { for (i = n; i >= 1; i--) printf "%s", m[i] }' "$1"
}

# A Message-Id, or ~words_of_a_subject for a message without one.
resolve() {
	case $1 in
	\~*)
		"$MLQ" search --patches --subject "$(echo "${1#\~}" | tr _ ' ')" \
		    --format json | jq -r '.[0].message_id' ;;
	*) echo "$1" ;;
	esac
}

check() { # ORDER VERB ID WANT
	if [ "$2" = series-links ]; then
		# Links to a cover letter in another thread: only where needed.
		is "$(sqlite3 "$MLQ_DB" 'SELECT count(*) FROM link WHERE kind = 4')" \
		    "$4" "$1: $2"
		return 0
	fi
	_id=$(resolve "$3")
	# One show per message and import: several checks read the same.
	_c="$TMP/show-$(basename "$MLQ_DB" .db)-$(printf '%s' "$_id" | cksum | tr ' ' -)"
	[ -f "$_c" ] || "$MLQ" show --format json "$_id" >"$_c"
	_j=$(cat "$_c")
	case $2 in
	status) _got=$(echo "$_j" | jq -r '.status') ;;
	tags|reply) _got=$(echo "$_j" | jq -r '.tags | if length == 0 then "-" else join(",") end') ;;
	versions) _got=$(echo "$_j" | jq -r '[.versions[].message_id] | join(",")') ;;
	reverted_by|fixed_by)
		_got=$(echo "$_j" | jq -r --arg k "$2" \
		    '[.[$k][].message_id] | if length == 0 then "-" else join(",") end') ;;
	cover) _got=$(echo "$_j" | jq -r '.series.cover') ;;
	from) _got=$(echo "$_j" | jq -r '"\(.from.name) <\(.from.email)>"') ;;
	series) _got=$(echo "$_j" | jq -r '.series | "\(.version)/\(.index)/\(.total)"') ;;
	missing) _got=$(echo "$_j" | jq -r '.missing | sort | join(",")') ;;
	replies) _got=$(echo "$_j" | jq -r '[.replies[].message_id] | sort |
	    if length == 0 then "-" else join(",") end') ;;
	*) _got="unknown check $2" ;;
	esac
	is "$_got" "$4" "$1: $2 $3"
	# Replies are the labeled set for per-tag precision and recall.
	[ "$2" = reply ] && case $1 in */forward) echo "$4 $_got" >>"$TMP/labels" ;; esac
	return 0
}

for _exp in "$FIX"/*.expect; do
	_name=$(basename "$_exp" .expect)
	for _order in forward reverse; do
		export MLQ_DB="$TMP/$_name-$_order.db"
		_extra=
		[ -f "$FIX/$_name-orig.txt" ] && _extra="$FIX/$_name-orig.txt"
		if [ $_order = forward ]; then
			"$MLQ" import $_extra "$FIX/$_name.mbox" >/dev/null
		else
			reverse_mbox "$FIX/$_name.mbox" >"$TMP/$_name.rev"
			"$MLQ" import "$TMP/$_name.rev" $_extra >/dev/null
		fi
		while read -r _verb _id _want; do
			check "$_name/$_order" "$_verb" "$_id" "$_want"
		done <"$_exp"
	done
done

# Per-tag precision and recall over the labeled replies (want got).
awk '{ split($1 == "-" ? "" : $1, w, ","); split($2 == "-" ? "" : $2, g, ",")
	for (i in w) W[$0, w[i]] = 1; for (i in g) G[$0, g[i]] = 1
	for (i in w) { t = w[i]; tags[t] = 1; if ((($0, t) in G)) tp[t]++; else fn[t]++ }
	for (i in g) { t = g[i]; tags[t] = 1; if (!(($0, t) in W)) fp[t]++ }
	n++ }
    END { printf "# %d labeled replies\n", n
	for (t in tags) printf "#   %-18s tp %d fp %d fn %d\n", t, tp[t], fp[t], fn[t] }' \
    "$TMP/labels" | sort
is "$(awk '$1 != $2' "$TMP/labels" | wc -l | tr -d ' ')" 0 \
    "every labeled reply tagged exactly (precision and recall 100%)"

# The text timeline: status on top, the lost message as a placeholder.
export MLQ_DB="$TMP/missing-forward.db"
"$MLQ" show ms-p@example.org >"$TMP/show.txt"
is "$(sed -n 2p "$TMP/show.txt")" "status:   changes-requested" "show: status on top"
is "$(grep -c 'not in the archive' "$TMP/show.txt")" 2 "show: two placeholders"
is "$(awk 'length > 80' "$TMP/show.txt" | wc -l | tr -d ' ')" 0 "show: 80 columns"

test_done
