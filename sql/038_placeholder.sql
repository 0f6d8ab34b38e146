-- Placeholder for the migration numbered 038 on another branch (issue 27, point 1's work is 040
-- and 041; the migrator takes numbers without gaps, and every step must change the schema).
-- Replaced by that migration when the branches are merged.
create function lifecycle.placeholder_038() returns int language sql immutable return 038;
revoke all on function lifecycle.placeholder_038() from public;

---- create above / drop below ----

drop function lifecycle.placeholder_038();
