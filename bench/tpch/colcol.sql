-- Issue 25's column against column filter on lineitem
SELECT sum(l_quantity) FROM lineitem WHERE l_commitdate > l_receiptdate;
