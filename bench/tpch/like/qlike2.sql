-- a grouped sum over lineitem's rows whose comment holds a word
select l_shipmode, count(*) as lines, sum(l_extendedprice) as revenue
from lineitem
where l_comment like '%furious%'
group by l_shipmode
order by l_shipmode;
