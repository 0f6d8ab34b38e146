-- Whether a namespace's lifecycle path is what its legacy path became (docs/design.md §10.3): the
-- same, its normalised form, or that form with the namespace's id appended (the import's and the
-- tree bridges' three outcomes). A legacy write of a path that matches changes nothing (GitLab
-- writes `Docs` back as it was, the lifecycle keeps `docs`), and the write-back leaves a legacy
-- path that matches alone. Immutable SQL: inlined into the statements that ask it.
create or replace function lifecycle.legacy_path_matches(legacy text, lifecycle_path text, ns_id bigint)
returns boolean
language sql
immutable
parallel safe
return legacy = lifecycle_path
    or lifecycle.path_normalised(legacy) = lifecycle_path
    or lifecycle.legacy_path_suffixed(legacy, ns_id) = lifecycle_path;

comment on function lifecycle.legacy_path_matches(text, text, bigint) is
  'Whether a lifecycle path is what a legacy path became (as it is, normalised, or normalised with the id).';
