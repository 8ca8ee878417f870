# test/debian_mirror.sh -- sourced by test/chroot_suite.sh and test/gpuhost_pack.sh.
# shellcheck shell=bash
#
# host_mirror prints the Debian mirror of this machine's apt: the URI of each
# source whose suites include a release (a suite name without '-', not
# -security or -updates), first the deb822 *.sources files, then the one-line
# lists.  Callers take the first line, or GPU_REDUCE_MIRROR where it is set.

host_mirror() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk '
			function flush() { if (uri != "" && main && deb) print uri; uri = ""; main = 0; deb = 0 }
			/^[ \t]*$/ { flush(); next }
			/^[ \t]*#/ { next }
			tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
			tolower($1) == "uris:" { uri = $2 }
			tolower($1) == "suites:" { for (i = 2; i <= NF; i++) if ($i !~ /-/) main = 1 }
			END { flush() }' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		# deb [options] URI SUITE COMPONENTS...
		sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$f" | awk '$1 == "deb" && $3 !~ /-/ { print $2 }'
	done
}
