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
install) lo=0; hi=$2; sed "s/@VERSION@/$hi/g" "$dir/head.sql" ;;
upgrade) lo=$2; hi=$3; cat "$dir/upgrade-$hi.sql" ;;
*) echo "usage: $0 install VERSION | upgrade FROM TO" >&2; exit 2 ;;
esac

awk -v lo="$lo" -v hi="$hi" -v mode="$mode" '
# what each aggregate is, for COMMENT ON AGGREGATE (from the @family comment version on)
function what(name, type) {
	if (name == "sum") return "sum of " type " values, as sum(); a float sum exact (correctly rounded, in any order)"
	if (name == "min") return "smallest " type " value, as min()"
	if (name == "max") return "largest " type " value, as max()"
	if (name == "avg") return "average of " type " values, as avg(); a float average from the exact sum"
	if (name == "top2") return "the 2 largest " type " values, descending (duplicates count)"
	if (name == "topk") return "the k largest " type " values, descending (duplicates count; 1 <= k <= 100000)"
	if (name == "variance") return "sample variance of " type " values, as var_samp()"
	if (name == "var_pop") return "population variance of " type " values, as var_pop()"
	if (name == "stddev") return "sample standard deviation of " type " values, as stddev_samp()"
	return "population standard deviation of " type " values, as stddev_pop()"
}
# the aggregate described, and its support functions marked as internal
function comment(name, type, extra_arg,   args) {
	args = type extra_arg
	printf "COMMENT ON AGGREGATE gpu_%s(%s) IS '\''gpu_reduce: %s'\'';\n", name, args, what(name, type)
	printf "COMMENT ON FUNCTION gpu_%s_trans(internal, %s) IS '\''gpu_reduce internal: the transition function of gpu_%s(%s)'\'';\n", name, args, name, args
	printf "COMMENT ON FUNCTION gpu_%s_final(internal, %s) IS '\''gpu_reduce internal: the final function of gpu_%s(%s)'\'';\n", name, args, name, args
}
# comments exist in a script up to hi
function comments_in(v) { return family_since["comment"] != "" && family_since["comment"] + 0 <= v + 0 }
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
	# comments: with the aggregates once they exist, or for the older ones in the upgrade that adds them
	if (comments_in(hi) && (in_range(since) || in_range(family_since["comment"])))
	{
		printf "-- %s: comments (since %s)\n\n", type, family_since["comment"]
		if (sum != "-")
			comment("sum", type, "")
		comment("min", type, "")
		comment("max", type, "")
		if (avg != "-")
			comment("avg", type, "")
		comment("top2", type, "")
		comment("topk", type, ", integer")
		printf "\n"
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
	if (var != "-" && var != "" && comments_in(hi) && (in_range(vsince) || in_range(family_since["comment"])))
	{
		comment("variance", type, "")
		comment("var_pop", type, "")
		comment("stddev", type, "")
		comment("stddev_pop", type, "")
		printf "\n"
	}
}
END {
	# the shared support functions: internal too
	if (comments_in(hi) && (mode == "install" || in_range(family_since["comment"])))
	{
		printf "-- the shared support functions (comments since %s)\n\n", family_since["comment"]
		printf "COMMENT ON FUNCTION gpu_reduce_combine(internal, internal) IS '\''gpu_reduce internal: combines two partial states of any gpu_* aggregate'\'';\n"
		printf "COMMENT ON FUNCTION gpu_reduce_serialize(internal) IS '\''gpu_reduce internal: serializes a partial state (parallel plans)'\'';\n"
		printf "COMMENT ON FUNCTION gpu_reduce_deserialize(bytea, internal) IS '\''gpu_reduce internal: deserializes a partial state (parallel plans)'\'';\n"
		printf "COMMENT ON FUNCTION gpu_reduce_stats_reset() IS '\''zeroes the counters gpu_reduce_stats() reports for this backend'\'';\n"
		printf "COMMENT ON FUNCTION gpu_reduce_planner_support(internal) IS '\''gpu_reduce internal: planner support of the transition functions (loads the library and its planner hook)'\'';\n"
	}
}' "$dir/matrix.txt"
