-- rev.sql with gpu_sum
SELECT gpu_sum(l_extendedprice * (1 - l_discount)) FROM lineitem;
