#!/bin/sh
# sqlgen/gen.sh -- write an install or upgrade script of gpu_reduce from
# sqlgen/matrix.txt (the aggregates) and the hand-written parts in sqlgen/.
#
#   gen.sh install VERSION        the install script of VERSION: head.sql,
#                                 then every aggregate of a type added at or
#                                 before VERSION
#   gen.sh upgrade FROM TO        the upgrade script FROM -> TO: upgrade-TO.sql,
#                                 then the aggregates of the types added after
#                                 FROM, up to TO
#
# Writes the script to stdout.  Underscores in matrix.txt stand for spaces
# ('double_precision').  Versions compare as numbers (1.10 > 1.9 is not
# needed yet: versions are 1.x with one digit).
set -eu
dir=$(dirname "$0")
mode=$1
case $mode in
install) lo=0; hi=$2; cat "$dir/head.sql" ;;
upgrade) lo=$2; hi=$3; cat "$dir/upgrade-$hi.sql" ;;
*) echo "usage: $0 install VERSION | upgrade FROM TO" >&2; exit 2 ;;
esac

awk -v lo="$lo" -v hi="$hi" -v mode="$mode" '
function agg(name, type, ret, extra_arg, sspace,   args, fargs) {
	args = type extra_arg
	printf "CREATE FUNCTION gpu_%s_trans(internal, %s) RETURNS internal\n", name, args
	printf "    AS '\''MODULE_PATHNAME'\'', '\''gpu_reduce_%s_trans'\'' LANGUAGE C IMMUTABLE PARALLEL SAFE\n", name
	printf "    SUPPORT gpu_reduce_planner_support;\n"
	printf "CREATE FUNCTION gpu_%s_final(internal, %s) RETURNS %s\n", name, args, ret
	printf "    AS '\''MODULE_PATHNAME'\'', '\''gpu_reduce_final'\'' LANGUAGE C IMMUTABLE PARALLEL SAFE;\n"
	printf "CREATE AGGREGATE gpu_%s(%s) (\n", name, args
	printf "    SFUNC = gpu_%s_trans, STYPE = internal, SSPACE = %d,\n", name, sspace
	printf "    FINALFUNC = gpu_%s_final, FINALFUNC_EXTRA,\n", name
	printf "    COMBINEFUNC = gpu_reduce_combine,\n"
	printf "    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,\n"
	printf "    PARALLEL = SAFE\n"
	printf ");\n\n"
}
/^[ \t]*(#|$)/ { next }
{
	type = $1; since = $2; sum = $3; avg = $4; space = $5
	gsub(/_/, " ", type); gsub(/_/, " ", sum); gsub(/_/, " ", avg)
	if (!(since + 0 > lo + 0 && since + 0 <= hi + 0))
		next
	printf "-- %s (since %s)\n\n", type, since
	if (sum != "-")
		agg("sum", type, sum, "", space)
	agg("min", type, type, "", 256)
	agg("max", type, type, "", 256)
	if (avg != "-")
		agg("avg", type, avg, "", space)
	agg("top2", type, type "[]", "", 256)
	agg("topk", type, type "[]", ", integer", 1024)
}' "$dir/matrix.txt"
