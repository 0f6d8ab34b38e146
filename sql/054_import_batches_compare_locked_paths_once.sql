-- The import's batches lock their parents' paths, then read them again to see whether a move
-- committed in between changed one (issue 26, point 8). That second reading asked of every
-- ancestor id whether it was among those locked (a.id <> all (path_ids)): a scan of the array an
-- id, quadratic in the batch's ancestors, 10-260 ms a batch, 0.75 s of the 5.4 s of batches of a
-- 100k GitLab adoption (auto_explain). The paths are now read again as a sorted array and compared
-- with the locked one as a whole. What a batch locks and decides is unchanged.

{{ template "functions/namespace_import_batch.sql" . }}

---- create above / drop below ----

{{ template "snapshots/050/namespace_import_batch.sql" . }}
