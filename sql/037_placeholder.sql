-- Placeholder for the migration numbered 037 on another branch (issue 27, point 2's work goes in
-- 039; the migrator takes numbers without gaps). Dropped when the branches are merged.
select 1;

---- create above / drop below ----

select 1;
