-- The staging table of lifecycle.organization_move_in.

-- name: OrganizationImportsCopy :copyfrom
INSERT INTO lifecycle.organization_imports (organization_id, kind, data) VALUES (@organization_id, @kind, @data);
