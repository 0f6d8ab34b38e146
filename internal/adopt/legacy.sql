-- The demo's additions to GitLab's own tables (gitlab/structure.sql, loaded into schema legacy
-- first): the indexes its population and its queries lean on. GitLab has its own indexes on these
-- columns; their definitions were not taken with the tables (gitlab/structure.sql's header).
create index on legacy.namespaces (parent_id);
create index on legacy.projects (namespace_id);
create unique index on legacy.projects (project_namespace_id);
