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
function agg(name, type, ret, extra_arg, sspace, csym, sortop,   args, fargs) {
	args = type extra_arg
	# the transition C function: its own for the first kinds, else the shared one
	if (csym == "")
		csym = "gpu_reduce_" name "_trans"
	printf "CREATE FUNCTION gpu_%s_trans(internal, %s) RETURNS internal\n", name, args
	printf "    AS '\''MODULE_PATHNAME'\'', '\''%s'\'' LANGUAGE C IMMUTABLE PARALLEL SAFE\n", csym
	printf "    SUPPORT gpu_reduce_planner_support;\n"
	printf "CREATE FUNCTION gpu_%s_final(internal, %s) RETURNS %s\n", name, args, ret
	printf "    AS '\''MODULE_PATHNAME'\'', '\''gpu_reduce_final'\'' LANGUAGE C IMMUTABLE PARALLEL SAFE;\n"
	printf "CREATE AGGREGATE gpu_%s(%s) (\n", name, args
	printf "    SFUNC = gpu_%s_trans, STYPE = internal, SSPACE = %d,\n", name, sspace
	printf "    FINALFUNC = gpu_%s_final, FINALFUNC_EXTRA,\n", name
	printf "    COMBINEFUNC = gpu_reduce_combine,\n"
	printf "    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,\n"
	if (sortop != "")
		printf "    SORTOP = OPERATOR(pg_catalog.%s),\n", sortop
	printf "    PARALLEL = SAFE\n"
	printf ");\n\n"
}
# an existing gpu_min/gpu_max gets its sort operator (no ALTER AGGREGATE sets one;
# the operator is a built-in, pinned, so CREATE AGGREGATE records no dependency either)
function set_sortop(name, type, sortop) {
	printf "UPDATE pg_catalog.pg_aggregate SET aggsortop = '\''pg_catalog.%s(%s, %s)'\''::pg_catalog.regoperator\n", sortop, type, type
	printf "    WHERE aggfnoid = '\''gpu_%s(%s)'\''::pg_catalog.regprocedure;\n", name, type
}
function in_range(v) { return v + 0 > lo + 0 && v + 0 <= hi + 0 }
/^[ \t]*(#|$)/ { next }
/^@family/ { family_since[$2] = $3; next }
{
	type = $1; since = $2; sum = $3; avg = $4; space = $5; var = $6; sortop = $7
	gsub(/_/, " ", type); gsub(/_/, " ", sum); gsub(/_/, " ", avg); gsub(/_/, " ", var)
	# gpu_min/gpu_max have sort operators (the index shortcut) from the sortop family on
	sorts = sortop == "yes" && family_since["sortop"] + 0 <= hi + 0
	if (in_range(since))
	{
		printf "-- %s (since %s)\n\n", type, since
		if (sum != "-")
			agg("sum", type, sum, "", space)
		agg("min", type, type, "", 256, "", sorts ? "<" : "")
		agg("max", type, type, "", 256, "", sorts ? ">" : "")
		if (avg != "-")
			agg("avg", type, avg, "", space)
		agg("top2", type, type "[]", "", 256)
		agg("topk", type, type "[]", ", integer", 1024)
	}
	else if (sorts && since + 0 <= lo + 0 && in_range(family_since["sortop"]))
	{
		printf "-- %s: gpu_min and gpu_max get sort operators (since %s)\n\n", type, family_since["sortop"]
		set_sortop("min", type, "<")
		set_sortop("max", type, ">")
		printf "\n"
	}
	# the variance family: from the later of its version and the type version
	vsince = family_since["var"] + 0 > since + 0 ? family_since["var"] : since
	if (var != "-" && var != "" && in_range(vsince))
	{
		printf "-- %s: the variance family (since %s)\n\n", type, vsince
		agg("variance", type, var, "", 256, "gpu_reduce_trans")
		agg("var_pop", type, var, "", 256, "gpu_reduce_trans")
		agg("stddev", type, var, "", 256, "gpu_reduce_trans")
		agg("stddev_pop", type, var, "", 256, "gpu_reduce_trans")
	}
}' "$dir/matrix.txt"
