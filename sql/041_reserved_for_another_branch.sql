-- Placeholder: migration 041 is another branch's (issue 26); tern refuses a gap before 042. The
-- lead drops this file at merge.
select 1;

---- create above / drop below ----

select 1;
