-- Issue 25's aggregate over an expression on a 30 M-row table (lineitem at SF5)
SELECT sum(l_extendedprice * (1 - l_discount)) FROM lineitem;
