select
  l_returnflag,
  l_linestatus,
  gpu_sum(l_quantity) as sum_qty,
  gpu_sum(l_extendedprice) as sum_base_price,
  gpu_sum(l_extendedprice * (1 - l_discount)) as sum_disc_price,
  gpu_sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as sum_charge,
  gpu_avg(l_quantity) as avg_qty,
  gpu_avg(l_extendedprice) as avg_price,
  gpu_avg(l_discount) as avg_disc,
  count(*) as count_order
from lineitem
where l_shipdate <= date '1998-12-01' - interval '90' day
group by l_returnflag, l_linestatus
order by l_returnflag, l_linestatus
