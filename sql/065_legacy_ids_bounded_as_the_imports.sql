-- A namespace a legacy INSERT creates through a tree bridge takes the legacy id only from 1 to
-- 2^62 - 1, and within the cluster's id range when one is set (NS010): an id of 2^63 - 2 moved
-- the identity sequence to its end, and every creation after it failed. The import refuses a row
-- outside the cluster's id range too (NS010, per row), so no legacy row moves the sequence there.
{{ template "functions/legacy_tree_create.sql" . }}
{{ template "functions/namespace_import_batch.sql" . }}

---- create above / drop below ----

{{ template "released/1.0.0/functions/legacy_tree_create.sql" . }}
{{ template "released/1.0.0/functions/namespace_import_batch.sql" . }}
