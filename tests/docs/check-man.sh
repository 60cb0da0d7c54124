#!/usr/bin/env bash
# Checks that each manual page given (or every docs/man/*.[1-8] under the
# directories given) is well formed: groff's and man's warnings are errors,
# lexgrog must parse its NAME section, and .TH must carry the file's own
# name and section. Prints one line per problem, naming the file; exits 1 if
# there was any, 2 on usage error or a missing tool.
set -uo pipefail

usage() { echo "usage: $0 PAGE|DIR..." >&2; exit 2; }
[ $# -gt 0 ] || usage
case $1 in -h | --help) echo "usage: $0 PAGE|DIR..."; exit 0 ;; esac

for tool in groff man lexgrog; do
	command -v "$tool" >/dev/null ||
		{ echo "$0: $tool not found (Debian: groff-base, man-db; qemu/host-deps.sh installs them)" >&2; exit 2; }
done

pages=()
for arg; do
	if [ -d "$arg" ]; then
		for p in "$arg"/*.[1-8]; do [ -e "$p" ] && pages+=("$p"); done
	elif [ -f "$arg" ]; then
		pages+=("$arg")
	else
		echo "$0: $arg: no such file or directory" >&2
		exit 2
	fi
done
[ ${#pages[@]} -gt 0 ] || { echo "$0: no manual pages in $*" >&2; exit 2; }

export LC_ALL=C.UTF-8 MANWIDTH=80
bad=0
problem() { echo "$1: $2"; bad=1; }

# Does the NAME section of page $1 list the name $2?
names() {
	awk -v n="$2" '
		$0 ~ /^\.SH +"?NAME"?/ { on = 1; next }
		on && /^\.SH/ { exit }
		on { sub(/ *\\- .*/, ""); gsub(/\\f[BIRP]|,/, " "); for (i = 1; i <= NF; i++) if ($i == n) found = 1 }
		END { exit !found }' "$1"
}

for page in "${pages[@]}"; do
	base=${page##*/}
	name=${base%.*} section=${base##*.}

	# A link page (".so manS/page.S", its one line but comments) for another name a page
	# documents: its target must be here and name it. man and lexgrog
	# resolve it only in an installed tree; the target is checked itself.
	if grep -q '^\.so ' "$page"; then
		target=$(sed -n 's|^\.so man[1-8]/\([^/]*\.[1-8]\)$|\1|p' "$page")
		if [ "$(grep -vc '^\.\\"' "$page")" != 1 ] || [ -z "$target" ]; then
			problem "$page" "a link page is one line (and comments), .so manS/PAGE.S"
		elif [ ! -f "${page%/*}/$target" ]; then
			problem "$page" "links to $target, which is not in ${page%/*}"
		elif ! names "${page%/*}/$target" "$name"; then
			problem "$page" "links to $target, whose NAME section does not name '$name'"
		fi
		continue
	fi

	out=$(groff -man -ww -z "$page" 2>&1)
	[ -z "$out" ] || problem "$page" "groff -man -ww: $out"
	# man reads the preprocessor line ('\" t) and formats for a terminal.
	out=$(man --warnings -l "$page" 2>&1 >/dev/null)
	[ -z "$out" ] || problem "$page" "man --warnings: $out"
	lexgrog "$page" >/dev/null 2>&1 || problem "$page" "lexgrog: NAME section does not parse"

	th=$(awk '$1 == ".TH" { print $2, $3; exit }' "$page")
	want="$(echo "$name" | tr '[:lower:]' '[:upper:]') $section"
	[ "$(echo "$th" | tr '[:lower:]' '[:upper:]')" = "$want" ] ||
		problem "$page" ".TH says '${th:-nothing}', the file name says '$want'"
	names "$page" "$name" ||
		problem "$page" "the NAME section does not name '$name'"
done
[ $bad = 1 ] || echo "${#pages[@]} manual pages well formed: ${pages[*]##*/}"
exit $bad
