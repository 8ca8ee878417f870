-- Issue 25's IN list filter on lineitem
SELECT sum(l_quantity) FROM lineitem WHERE l_linenumber IN (1, 3, 5);
