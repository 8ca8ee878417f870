#!/usr/bin/env bash
# test/check_bench.sh -- the benchmarks' scripts and the files the documents
# name, without running anything (seconds, no server; .ci/run's docs stage):
#
#   syntax    every tracked bench/ shell script passes 'bash -n', every bench/
#             python script parses (python3's ast; skipped without python3)
#   paths     every source or script path that README.md, doc/*.md and the
#             bench/ Markdown name (bench/..., test/..., sql/..., src/...,
#             cuda/..., common/..., ending .sh .py .sql .c .h .cu .cuh .md)
#             exists, from the repository root or the document's folder; a
#             path written REV:path (read with 'git show REV:path') is history
#             and skipped, as are build outputs (no such extension) and globs
#   commands  each 'make -C DIR' those documents show names a DIR with a
#             Makefile, and every bench/ README names at least one script or
#             Makefile that exists (its command runs something in the tree)
#
# Running the benchmarks themselves, at a small size, is a manual step: each
# README's command from a fresh clone (bench/README.md).
#
# usage: bash test/check_bench.sh
# Prints each failure, then 'N passed, N failed'; exits non-zero on any.
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() {
	echo "check_bench: $*"
	failed=$((failed + 1))
}

# syntax
mapfile -t scripts < <(git ls-files 'bench/*.sh')
for s in "${scripts[@]}"; do
	if err=$(bash -n "$s" 2>&1); then ok; else bad "bash -n $s: $err"; fi
done
mapfile -t pys < <(git ls-files 'bench/*.py')
if [ "${#pys[@]}" -gt 0 ] && command -v python3 >/dev/null 2>&1; then
	for p in "${pys[@]}"; do
		if err=$(python3 -c 'import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])' "$p" 2>&1); then
			ok
		else
			bad "python3 cannot parse $p: $err"
		fi
	done
fi

# The paths a document names, one a line: REV:path for history, else the path.
named_paths() {
	grep -oP '(?<![A-Za-z0-9_./~$-])([0-9a-f]{7,40}:)?(\.\./)*(bench|test|sql|src|cuda|common|doc|sqlgen|\.ci)/[A-Za-z0-9_.+/-]*\.(sh|py|sql|c|h|cu|cuh|md)(?![A-Za-z0-9_])' "$1" |
		sort -u
}

# paths and commands
mapfile -t docs < <({ echo README.md; git ls-files 'doc/*.md' 'bench/*.md'; } | sort -u)
for f in "${docs[@]}"; do
	dir=$(dirname "$f")
	runs=0
	while IFS= read -r p; do
		case $p in [0-9a-f]*:*) continue ;; esac
		if [ -e "$p" ] || [ -e "$dir/$p" ]; then
			ok
			case $p in *.sh | *.py) runs=$((runs + 1)) ;; esac
		else
			bad "$f names $p, which is not in the tree (history is written REV:path)"
		fi
	done < <(named_paths "$f")
	while IFS= read -r d; do
		case $d in *'$'*) continue ;; esac
		if [ -f "$d/Makefile" ]; then
			ok
			runs=$((runs + 1))
		else
			bad "$f: 'make -C $d': no $d/Makefile"
		fi
	done < <(grep -oP 'make -C \K[^ `]+' "$f" | sort -u)
	case $f in
	bench/*README.md)
		if [ "$runs" -gt 0 ]; then ok; else bad "$f names no script or Makefile of the tree"; fi
		;;
	esac
done

echo "bench scripts (${#scripts[@]} shell, ${#pys[@]} python) and the paths in ${#docs[@]} documents:"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
