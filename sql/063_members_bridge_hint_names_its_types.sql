-- legacy_members_bridge_add's hint for missing tables showed the call as it was before 060, without
-- namespace_types: copied, it named no function. It now shows the call with the types a bridge
-- installed before 060 kept, read from lifecycle.namespace_types (for GitLab, pass only its
-- groups' type, as cmd/adopt's preset does). Nothing else changes.
--
-- Locks: none on a table; the function is replaced in place (its grants stay).

{{ template "functions/legacy_members_bridge_add.sql" . }}

---- create above / drop below ----

{{ template "snapshots/060/legacy_members_bridge_add.sql" . }}
