-- lineitem loaded from gen.py's CSV (psql -v csv=PATH)
\ir create.sql
\set copy '\\copy lineitem FROM ' :'csv' ' WITH (FORMAT csv, DELIMITER ''|'')'
:copy
VACUUM (FREEZE, ANALYZE) lineitem;
