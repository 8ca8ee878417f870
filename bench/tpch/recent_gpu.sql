-- recent.sql with gpu_sum
SELECT gpu_sum(l_quantity) FROM lineitem WHERE l_shipdate >= CURRENT_DATE - INTERVAL '30 years';
