-- What a legacy row carries in (a tree bridge's INSERT or rename, an imported row) takes nothing
-- that belongs to another namespace or another cluster:
-- - its id only from 1 to 2^62 - 1, and within the cluster's id range when one is set (NS010): an
--   id of 2^63 - 2 moved the identity sequence to its end, and every creation after it failed;
-- - a path equal, case aside, to a live sibling's is refused like the exact one (NS006): a GitLab
--   group `Platform` beside `platform` became `platform-51` with a redirect from `acme/Platform`,
--   which then led to it instead of the group that path resolved to;
-- - no import redirect from a path that resolves today to another namespace.
{{ template "functions/legacy_tree_final_path.sql" . }}
{{ template "functions/legacy_path_redirect.sql" . }}
{{ template "functions/legacy_tree_create.sql" . }}
{{ template "functions/namespace_import_batch.sql" . }}

---- create above / drop below ----

{{ template "released/1.0.0/functions/legacy_tree_final_path.sql" . }}
{{ template "released/1.0.0/functions/legacy_path_redirect.sql" . }}
{{ template "released/1.0.0/functions/legacy_tree_create.sql" . }}
{{ template "released/1.0.0/functions/namespace_import_batch.sql" . }}
