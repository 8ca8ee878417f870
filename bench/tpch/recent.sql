-- Issue 25's filter on a stable expression (evaluated once at the scan's start) on lineitem
SELECT sum(l_quantity) FROM lineitem WHERE l_shipdate >= CURRENT_DATE - INTERVAL '30 years';
