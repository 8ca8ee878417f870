#!/usr/bin/env bash
# test/check_links.sh -- every relative Markdown link between the repository's
# .md files resolves: the file (or folder) it names exists, and a #anchor names
# a heading of that file (GitHub's slugs: lower case, punctuation dropped,
# spaces to hyphens, -1, -2 ... for repeats).  No network: http(s) and mailto
# links are skipped.  Links inside fenced code blocks and `code spans` are not
# links and are skipped.
#
# usage: bash test/check_links.sh [FILE.md ...]   (default: every tracked .md)
# Prints each broken link, then 'N passed, N failed'; exits non-zero on any.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ $# -gt 0 ]; then
	files=("$@")
else
	mapfile -t files < <(git ls-files '*.md' 2>/dev/null || find . -name '*.md' -not -path './.git/*' | sed 's#^\./##')
fi

# the text of FILE without fenced code blocks and code spans
prose() {
	awk '/^[ \t]*(```|~~~)/ {fence = !fence; next} !fence' "$1" | sed 's/`[^`]*`//g'
}

# the anchors of FILE's headings, one a line, as GitHub makes them
anchors() {
	awk '/^[ \t]*(```|~~~)/ {fence = !fence; next} !fence && /^##* / {print}' "$1" |
		sed -E 's/^#{1,6} +//; s/ +#+ *$//' |
		sed -E 's/`//g; s/\[([^]]*)\]\([^)]*\)/\1/g' |
		tr 'A-Z' 'a-z' |
		sed -E 's/[^a-z0-9 _-]//g; s/ /-/g' |
		awk '{n = seen[$0]++; print (n ? $0 "-" n : $0)}'
}

passed=0
failed=0
for f in "${files[@]}"; do
	[ -f "$f" ] || { echo "check_links: no file $f"; failed=$((failed + 1)); continue; }
	dir=$(dirname "$f")
	# inline links [text](target) and images ![alt](target); the target up to ')' or a space
	while IFS= read -r target; do
		case $target in
		http://* | https://* | mailto:* | ftp://*) continue ;;
		esac
		path=${target%%#*}
		anchor=
		[ "$path" != "$target" ] && anchor=${target#*#}
		if [ -z "$path" ]; then
			dest=$f
		else
			dest=$dir/$path
		fi
		if [ ! -e "$dest" ]; then
			echo "BROKEN $f: ($target): no such file $dest"
			failed=$((failed + 1))
			continue
		fi
		if [ -n "$anchor" ]; then
			if [ -d "$dest" ] || [ "${dest##*.}" != md ]; then
				echo "BROKEN $f: ($target): an anchor into a file that is not Markdown"
				failed=$((failed + 1))
				continue
			fi
			if ! anchors "$dest" | grep -qxF -- "$anchor"; then
				echo "BROKEN $f: ($target): no heading '#$anchor' in $dest"
				failed=$((failed + 1))
				continue
			fi
		fi
		passed=$((passed + 1))
	done < <(prose "$f" | grep -oE '\]\([^) ]+(\)| )' | sed -E 's/^\]\(//; s/[) ]$//; s/^<//; s/>$//')
done
echo "links in ${#files[@]} Markdown files:"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
