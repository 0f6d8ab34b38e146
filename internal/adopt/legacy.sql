-- The demo's additions to GitLab's own tables (gitlab/structure.sql, loaded into schema legacy
-- first): the index its population and its queries lean on that gitlab/structure.sql lacks
-- (GitLab has its own on namespaces.parent_id; its definition was not taken with the tables). The
-- indexes of projects are GitLab's own, in gitlab/structure.sql.
create index on legacy.namespaces (parent_id);
