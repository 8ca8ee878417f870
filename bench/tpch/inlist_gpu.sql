-- inlist.sql with gpu_sum
SELECT gpu_sum(l_quantity) FROM lineitem WHERE l_linenumber IN (1, 3, 5);
