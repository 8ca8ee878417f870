#!/bin/sh
# sqlgen/gen.sh -- write the install script of gpu_reduce's default version,
# or the upgrade script into it, from sqlgen/matrix.txt (the aggregates) and
# the hand-written parts in sqlgen/.
#
#   gen.sh install VERSION        the install script of VERSION: head.sql,
#                                 then every aggregate of a type added at or
#                                 before VERSION
#   gen.sh upgrade FROM TO        the upgrade script FROM -> TO: upgrade-TO.sql,
#                                 then the aggregates of the types added after
#                                 FROM, up to TO, and what the @family lines
#                                 of matrix.txt change in the older ones
#
# Writes the script to stdout.  Underscores in matrix.txt stand for spaces
# ('double_precision').  Versions compare as numbers (1.10 > 1.9 is not
# needed yet: versions are 1.x with one digit).  The scripts of versions
# before 1.5 are frozen as released: this writes 1.5's and later ones only.
set -eu
dir=$(dirname "$0")
mode=$1
case $mode in
install) lo=0; hi=$2; sed "s/@VERSION@/$hi/g" "$dir/head.sql" ;;
upgrade) lo=$2; hi=$3; cat "$dir/upgrade-$hi.sql" ;;
*) echo "usage: $0 install VERSION | upgrade FROM TO" >&2; exit 2 ;;
esac

awk -v lo="$lo" -v hi="$hi" -v mode="$mode" '
BEGIN { isch = "gpu_reduce_internal."; q = sprintf("%c", 39) }
# what one signature of an aggregate computes and returns, for COMMENT ON
# AGGREGATE: its input type, its result type and how it differs from the
# native aggregate by class of type (README, SQL reference and Semantics)
function what(name, type, ret, class,   native, note) {
	if (name == "sum") {
		if (class == "float")
			return "exact (correctly rounded) sum of " type " values as " ret ", the same in any row order or plan (sum() rounds at every row)"
		if (class == "numeric")
			return "exact sum of numeric values as numeric, text equal to sum()'"'"'s (the largest input scale)"
		if (ret == "bigint")
			return "sum of " type " values as bigint, as sum() (an error beyond bigint)"
		return "exact sum of " type " values as " ret ", as sum()"
	}
	if (name == "min" || name == "max") {
		native = name "()"
		note = ""
		if (class == "float")
			note = " except that -0.0 counts as below 0.0 (NaN above every number, as in " native ")"
		else if (class == "numeric")
			note = " except that of equal values the one of " (name == "min" ? "smaller scale wins (1.5 over 1.50)" : "larger scale wins (1.50 over 1.5)") "; the value comes back unchanged"
		return (name == "min" ? "minimum" : "maximum") " of " type " values as " ret ", as " native note
	}
	if (name == "avg") {
		if (class == "float")
			return "average of " type " values as " ret ": the exact sum rounded to double, divided by the count (avg() rounds at every row)"
		if (class == "numeric")
			return "average of numeric values as numeric: the exact sum divided by the count, text equal to avg()'"'"'s"
		return "average of " type " values as " ret ", text equal to avg()'"'"'s (exact sum divided by the count)"
	}
	if (name == "top2")
		return "the 2 largest " type " values as " ret ", descending (duplicates count; one element for one value)"
	if (name == "topk")
		return "the k largest " type " values as " ret ", descending (duplicates count; 1 <= k <= 100000, the same k on every row of a group)"
	if (name == "variance") native = "var_samp()"
	else if (name == "var_pop") native = "var_pop()"
	else if (name == "stddev") native = "stddev_samp()"
	else native = "stddev_pop()"
	note = (name == "variance" ? "sample variance" : name == "var_pop" ? "population variance" : name == "stddev" ? "sample standard deviation" : "population standard deviation") " of " type " values as " ret
	if (class == "float")
		return note ", from exact sums of x and x^2 rounded once: the same in any row order or plan (" native " rounds row by row)"
	return note ", text equal to " native "'"'"'s (exact sums of x and x^2)"
}
# COMMENT ON AGGREGATE of one signature (its quotes doubled in the literal)
function comment_agg(name, type, ret, class, extra_arg,   text) {
	text = what(name, type, ret, class)
	gsub(q, q q, text)
	printf "COMMENT ON AGGREGATE gpu_%s(%s%s) IS '\''gpu_reduce: %s'\'';\n", name, type, extra_arg, text
}
# the support functions of a new aggregate, commented as internal
function comment_support(name, type, extra_arg,   args) {
	args = type extra_arg
	printf "COMMENT ON FUNCTION %sgpu_%s_trans(internal, %s) IS '\''gpu_reduce internal: the transition function of gpu_%s(%s)'\'';\n", isch, name, args, name, args
	printf "COMMENT ON FUNCTION %sgpu_%s_final(internal, %s) IS '\''gpu_reduce internal: the final function of gpu_%s(%s)'\'';\n", isch, name, args, name, args
}
# an existing aggregate'"'"'s transition and final functions move to the internal schema
function move_support(name, type, extra_arg,   args) {
	args = type extra_arg
	printf "ALTER FUNCTION gpu_%s_trans(internal, %s) SET SCHEMA gpu_reduce_internal;\n", name, args
	printf "ALTER FUNCTION gpu_%s_final(internal, %s) SET SCHEMA gpu_reduce_internal;\n", name, args
}
# the aggregate itself: CREATE, or with replace CREATE OR REPLACE (the same
# definition, the OID kept: what an upgrade may change in place, such as an
# argument name); extra_arg is the second argument as the aggregate names it
function agg_def(name, type, extra_arg, sspace, sortop, replace) {
	printf "CREATE %sAGGREGATE gpu_%s(%s%s) (\n", replace ? "OR REPLACE " : "", name, type, extra_arg
	printf "    SFUNC = %sgpu_%s_trans, STYPE = internal, SSPACE = %d,\n", isch, name, sspace
	printf "    FINALFUNC = %sgpu_%s_final, FINALFUNC_EXTRA,\n", isch, name
	printf "    COMBINEFUNC = %sgpu_reduce_combine,\n", isch
	printf "    SERIALFUNC = %sgpu_reduce_serialize, DESERIALFUNC = %sgpu_reduce_deserialize,\n", isch, isch
	if (sortop != "")
		printf "    SORTOP = OPERATOR(pg_catalog.%s),\n", sortop
	printf "    PARALLEL = SAFE\n"
	printf ");\n"
}
# a new aggregate: its support functions, itself, and their comments
function agg(name, type, ret, class, fn_arg, agg_arg, sspace, csym, sortop,   args) {
	args = type fn_arg
	# the transition C function: its own for the first kinds, else the shared one
	if (csym == "")
		csym = "gpu_reduce_" name "_trans"
	printf "CREATE FUNCTION %sgpu_%s_trans(internal, %s) RETURNS internal\n", isch, name, args
	printf "    AS '\''MODULE_PATHNAME'\'', '\''%s'\'' LANGUAGE C IMMUTABLE PARALLEL SAFE\n", csym
	printf "    SUPPORT %sgpu_reduce_planner_support;\n", isch
	printf "CREATE FUNCTION %sgpu_%s_final(internal, %s) RETURNS %s\n", isch, name, args, ret
	printf "    AS '\''MODULE_PATHNAME'\'', '\''gpu_reduce_final'\'' LANGUAGE C IMMUTABLE PARALLEL SAFE;\n"
	agg_def(name, type, agg_arg, sspace, sortop, 0)
	comment_agg(name, type, ret, class, fn_arg)
	comment_support(name, type, fn_arg)
	printf "\n"
}
# what an upgrade changes in an aggregate that already exists
function existing(name, type, ret, class, fn_arg, agg_arg, sspace, sortop) {
	if (in_range(family_since["internal"]))
		move_support(name, type, fn_arg)
	if (agg_arg != fn_arg && in_range(family_since["argnames"]))
		agg_def(name, type, agg_arg, sspace, sortop, 1)
	if (in_range(family_since["comment"]))
		comment_agg(name, type, ret, class, fn_arg)
}
# one aggregate of a type line: new in this script, or an older one to change
function one(new, name, type, ret, class, fn_arg, agg_arg, sspace, csym, sortop) {
	if (new)
		agg(name, type, ret, class, fn_arg, agg_arg, sspace, csym, sortop)
	else
		existing(name, type, ret, class, fn_arg, agg_arg, sspace, sortop)
}
function in_range(v) { return v + 0 > lo + 0 && v + 0 <= hi + 0 }
function since_at_most(v) { return v + 0 <= hi + 0 }
/^[ \t]*(#|$)/ { next }
/^@family/ { family_since[$2] = $3; next }
{
	type = $1; since = $2; sum = $3; avg = $4; space = $5; var = $6; sortop = $7; class = $8
	gsub(/_/, " ", type); gsub(/_/, " ", sum); gsub(/_/, " ", avg); gsub(/_/, " ", var)
	if (!since_at_most(since))
		next
	# gpu_min/gpu_max have sort operators (the index shortcut) from the sortop family on
	sorts = sortop == "yes" && since_at_most(family_since["sortop"])
	# gpu_topk names its k from the argnames family on
	k_arg = since_at_most(family_since["argnames"]) ? ", k integer" : ", integer"
	new = in_range(since)
	printf "-- %s (%s)\n\n", type, new ? "since " since : "existing aggregates"
	if (sum != "-")
		one(new, "sum", type, sum, class, "", "", space)
	one(new, "min", type, type, class, "", "", 256, "", sorts ? "<" : "")
	one(new, "max", type, type, class, "", "", 256, "", sorts ? ">" : "")
	if (avg != "-")
		one(new, "avg", type, avg, class, "", "", space)
	one(new, "top2", type, type "[]", class, "", "", 256)
	one(new, "topk", type, type "[]", class, ", integer", k_arg, 1024)
	# the variance family: from the later of its version and the type version
	vsince = family_since["var"] + 0 > since + 0 ? family_since["var"] : since
	if (var != "-" && since_at_most(vsince))
	{
		printf "%s-- %s: the variance family (%s)\n\n", new ? "" : "\n", type, in_range(vsince) ? "since " vsince : "existing aggregates"
		new = in_range(vsince)
		one(new, "variance", type, var, class, "", "", 256, "gpu_reduce_trans")
		one(new, "var_pop", type, var, class, "", "", 256, "gpu_reduce_trans")
		one(new, "stddev", type, var, class, "", "", 256, "gpu_reduce_trans")
		one(new, "stddev_pop", type, var, class, "", "", 256, "gpu_reduce_trans")
	}
	printf "\n"
}' "$dir/matrix.txt"
