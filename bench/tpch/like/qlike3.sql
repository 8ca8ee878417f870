-- TPC-H Q2's part filter alone: a suffix pattern over a small table
select p_brand, count(*) as parts, avg(p_retailprice) as avg_price
from part
where p_type like '%BRASS'
group by p_brand
order by p_brand;
