-- TPC-H Q13's filter on orders alone: NOT LIKE with % inside (issue 40)
select count(*) as orders_count, sum(o_totalprice) as total
from orders
where o_comment not like '%special%requests%';
