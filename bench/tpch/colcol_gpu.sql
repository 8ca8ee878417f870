-- colcol.sql with gpu_sum
SELECT gpu_sum(l_quantity) FROM lineitem WHERE l_commitdate > l_receiptdate;
