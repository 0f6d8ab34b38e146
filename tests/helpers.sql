-- Helpers for the pgTAP files, in their own schema so nothing of them leaks into the product.
-- Loaded once into the pgTAP database by scripts/test.sh, after the migrations.
create schema lifecycle_test;

-- create_namespace inserts a namespace the way a client does (a plain INSERT) and returns its id.
create function lifecycle_test.create_namespace(parent_id bigint, type text, path text)
returns bigint
language sql
set search_path to ''
as $$
  insert into lifecycle.namespaces (parent_id, type, path, name)
  values (create_namespace.parent_id, create_namespace.type, create_namespace.path, create_namespace.path)
  returning id
$$;

-- lock_rule_tables makes the tests that change the rule tables or lifecycle.states run one at a
-- time (pg_prove --jobs 2). Their triggers rewrite the digest functions (transition_rule,
-- state_names: rows of pg_proc every such change writes), so two of them in parallel wait for each
-- other's rows and deadlock. A test takes it first, before it creates anything (a namespace's path
-- lock taken before it could close another cycle); it lasts until the test's rollback.
create function lifecycle_test.lock_rule_tables()
returns void
language sql
set search_path to ''
as $$
  select pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('lifecycle_test.lock_rule_tables'))
$$;

-- id_of finds a namespace by its full path (paths in tests are unique).
create function lifecycle_test.id_of(full_path text)
returns bigint
language sql
stable
set search_path to ''
as $$
  select n.id from lifecycle.namespaces n where lifecycle.namespace_full_path(n.id) = id_of.full_path
$$;

-- design_matrix is docs/design.md §3's transition matrix, written out here on purpose (not read from
-- lifecycle.state_transitions): tests check the product against the document. expected: yes =
-- allowed, no = refused with NS001, - = same state (an idempotent no-op). The last column,
-- creation_in_progress, is docs/design.md's "nothing ever goes to creation_in_progress".
create function lifecycle_test.design_matrix()
returns table (n bigint, from_state text, to_state text, expected text)
language sql
immutable
set search_path to ''
as $$
  select row_number() over (order by r.from_state, c.i), r.from_state, c.to_state, r.cells[c.i]
    from (values
      --                         active archived del_sched del_in_prog transfer maint  creation
      ('active',               array['-',   'yes',  'yes',   'no',       'yes',  'yes', 'no']),
      ('archived',             array['yes', '-',    'yes',   'no',       'yes',  'no',  'no']),
      ('creation_in_progress', array['yes', 'no',   'no',    'yes',      'no',   'no',  '-' ]),
      ('deletion_in_progress', array['yes', 'yes',  'yes',   '-',        'no',   'no',  'no']),
      ('deletion_scheduled',   array['yes', 'yes',  '-',     'yes',      'no',   'no',  'no']),
      ('transfer_in_progress', array['yes', 'yes',  'no',    'no',       '-',    'no',  'no']),
      ('maintenance',          array['yes', 'no',   'no',    'no',       'no',   '-',   'no'])
    ) as r(from_state, cells)
   cross join unnest(array['active', 'archived', 'deletion_scheduled', 'deletion_in_progress',
                           'transfer_in_progress', 'maintenance', 'creation_in_progress'])
         with ordinality as c(to_state, i)
$$;

-- create_in_state creates a project below parent_id and brings it to state through allowed
-- transitions of the API, as the system (creation_in_progress: created so). Returns its id.
create function lifecycle_test.create_in_state(parent_id bigint, path text, state text)
returns bigint
language plpgsql
set search_path to ''
as $$
declare
  project bigint;
  s text;
begin
  if state = 'creation_in_progress' then
    insert into lifecycle.namespaces (parent_id, type, path, name, state)
    values (create_in_state.parent_id, 'project', create_in_state.path, create_in_state.path, 3)
    returning id into project;
    return project;
  end if;
  project := lifecycle_test.create_namespace(create_in_state.parent_id, 'project', create_in_state.path);
  foreach s in array case state
                       when 'deletion_in_progress' then array['deletion_scheduled', 'deletion_in_progress']
                       when 'active' then array[]::text[]
                       else array[state] end loop
    perform lifecycle.namespace_transition(project, s, null);
  end loop;
  return project;
end
$$;

-- transition_outcome is what namespace_transition does, undone: 'allowed' when the call goes
-- through (a no-op included), else the SQLSTATE it raises. The forced error rolls the call back,
-- so each call starts afresh.
create function lifecycle_test.transition_outcome(namespace_id bigint, to_state text, actor_id bigint)
returns text
language plpgsql
set search_path to ''
as $$
begin
  perform lifecycle.namespace_transition(transition_outcome.namespace_id, transition_outcome.to_state,
                                         transition_outcome.actor_id);
  raise exception using errcode = 'TTUND', message = 'undo';
exception
  when sqlstate 'TTUND' then
    return 'allowed';
  when others then
    return sqlstate;
end
$$;

-- create_mixed_tree builds a tree seven levels deep (acme/eng/platform/infra/storage/backup/agent)
-- with own states on several levels, plus two other roots. The whole tree is built first (nothing
-- is created below a namespace with an own state); states are then set by raw UPDATEs, as the system.
create function lifecycle_test.create_mixed_tree()
returns void
language plpgsql
set search_path to ''
as $$
begin
  perform lifecycle_test.create_namespace(null, 'organization', 'acme');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'group', 'platform');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng/platform'), 'group', 'infra');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng/platform/infra'), 'group', 'storage');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng/platform/infra/storage'), 'group', 'backup');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng/platform/infra/storage/backup'), 'project', 'agent');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng/platform/infra'), 'project', 'dns');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'tools');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'sunset');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme/sunset'), 'project', 'reports');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme/sunset'), 'project', 'misc');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'ops');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme/ops'), 'project', 'runbooks');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'moving');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme/moving'), 'project', 'app');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'labs');
  insert into lifecycle.namespaces (parent_id, type, path, name, state)
  values (lifecycle_test.id_of('acme/labs'), 'project', 'proto', 'proto', 3);
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'doomed');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme/doomed'), 'project', 'data');
  perform lifecycle_test.create_namespace(null, 'organization', 'beta');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('beta'), 'project', 'site');
  perform lifecycle_test.create_namespace(null, 'user', 'alice');

  update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/eng/platform');
  update lifecycle.namespaces set state = 2 where id = lifecycle_test.id_of('acme/eng/platform/infra/storage');
  update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/sunset/reports');
  update lifecycle.namespaces set state = 2 where id = lifecycle_test.id_of('acme/sunset');
  update lifecycle.namespaces set state = 6 where id = lifecycle_test.id_of('acme/ops');
  -- A transfer in progress has its accepted request (lifecycle.check_invariants).
  insert into lifecycle.transfer_requests (namespace_id, from_parent_id, to_parent_id, requested_by, status, expires_at,
                                           decided_at)
  values (lifecycle_test.id_of('acme/moving'), lifecycle_test.id_of('acme'), lifecycle_test.id_of('beta'), 1001, 'accepted',
          pg_catalog.now() + interval '7 days', pg_catalog.now());
  update lifecycle.namespaces set state = 5 where id = lifecycle_test.id_of('acme/moving');
  update lifecycle.namespaces set state = 2 where id = lifecycle_test.id_of('acme/doomed');
  update lifecycle.namespaces set state = 4 where id = lifecycle_test.id_of('acme/doomed');
end
$$;

-- create_doomed_tree builds acme/doomed (a root to hard-delete) with 14 descendants on two more
-- levels: g1 (a b c d), g2 (a b c), g3 (a b c) and the project p0; acme/keep, a sibling that must
-- survive, with its project site; user 1001 owns acme.
create function lifecycle_test.create_doomed_tree()
returns void
language plpgsql
set search_path to ''
as $$
begin
  perform lifecycle_test.create_namespace(null, 'organization', 'acme');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'doomed');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'keep');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme/doomed'), 'group', g) from pg_catalog.unnest(array['g1', 'g2', 'g3']) g;
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme/doomed'), 'project', 'p0');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme/doomed/' || g), 'project', p)
    from (values ('g1', 'a'), ('g1', 'b'), ('g1', 'c'), ('g1', 'd'), ('g2', 'a'), ('g2', 'b'), ('g2', 'c'),
                 ('g3', 'a'), ('g3', 'b'), ('g3', 'c')) v(g, p);
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme/keep'), 'project', 'site');
  insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
  values (lifecycle_test.id_of('acme'), 1001, 50);
end
$$;

-- create_gitlab_legacy builds a GitLab-shaped legacy schema beside the tree and bridges it
-- (docs/adoption.md): groups' archived flag in legacy.namespace_settings and their scheduled
-- deletions as rows of legacy.group_deletion_schedules; projects' archived flag,
-- marked_for_deletion_at/_by_user_id and pending_delete in legacy.projects (project_namespace_id is
-- the lifecycle id). The tree: acme (organization) > eng (group) > site, docs (projects); user 1001
-- owns acme. The bridges come first: adding one creates a trigger on lifecycle.namespaces (a SHARE
-- ROW EXCLUSIVE lock), which must not wait behind another test's INSERT of 'acme' while this one
-- holds the lock on that path (a deadlock under pg_prove --jobs 2).
create function lifecycle_test.create_gitlab_legacy()
returns void
language plpgsql
set search_path to ''
as $$
begin
  create schema legacy;
  create table legacy.namespace_settings (namespace_id bigint primary key, archived boolean not null default false);
  create table legacy.group_deletion_schedules (group_id bigint primary key, marked_for_deletion_on date not null,
                                                user_id bigint);
  create table legacy.projects (id bigint primary key, project_namespace_id bigint not null unique,
                                archived boolean not null default false, marked_for_deletion_at timestamptz,
                                marked_for_deletion_by_user_id bigint, pending_delete boolean not null default false);
  perform lifecycle.legacy_bridge_add('legacy.namespace_settings', 'namespace_id', 'archived', 'archived');
  perform lifecycle.legacy_bridge_add('legacy.group_deletion_schedules', 'group_id', 'deletion_scheduled', null,
                                      'marked_for_deletion_on', 'user_id', array['organization', 'group']);
  perform lifecycle.legacy_bridge_add('legacy.projects', 'project_namespace_id', 'archived', 'archived');
  perform lifecycle.legacy_bridge_add('legacy.projects', 'project_namespace_id', 'deletion_scheduled', 'marked_for_deletion_at',
                                      'marked_for_deletion_at', 'marked_for_deletion_by_user_id');
  perform lifecycle.legacy_bridge_add('legacy.projects', 'project_namespace_id', 'deletion_in_progress', 'pending_delete');
  perform lifecycle_test.create_namespace(null, 'organization', 'acme');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'site');
  perform lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'docs');
  insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (lifecycle_test.id_of('acme'), 1001, 50);
  insert into legacy.namespace_settings (namespace_id) values (lifecycle_test.id_of('acme')), (lifecycle_test.id_of('acme/eng'));
  insert into legacy.projects (id, project_namespace_id) values (501, lifecycle_test.id_of('acme/eng/site')),
                                                                (502, lifecycle_test.id_of('acme/eng/docs'));
end
$$;

-- fact_of is a fact as lifecycle.fact_emit writes it to the WAL (without its MAC: the syncer
-- passes verified facts on), for the namespace as it is now: what effective_states_apply is given.
create function lifecycle_test.fact_of(action text, namespace_id bigint, details jsonb default '{}')
returns jsonb
language sql
stable
set search_path to ''
as $$
  select pg_catalog.jsonb_build_object('action', fact_of.action, 'namespace_id', fact_of.namespace_id,
           'traversal_ids', n.traversal_ids, 'full_path', lifecycle.namespace_full_path(fact_of.namespace_id),
           'actor_id', null, 'details', fact_of.details, 'occurred_at', pg_catalog.now())
    from (select) dummy
    left join lifecycle.namespaces n on n.id = fact_of.namespace_id
$$;

-- The product's roles may call pgTAP and these helpers, once for every test. A test that GRANTs
-- them itself updates the schemas' catalog rows, which it then holds until its rollback: an import
-- test doing so waits for the key of all sibling paths while a test holding that key shared waits
-- to GRANT the same (make test runs two at a time), a deadlock.
grant usage on schema tap, lifecycle_test to lifecycle_app, lifecycle_worker;

-- apply records facts (as fact_of makes them) as audit rows waiting for lifecycle.effective_states
-- (what facts_record leaves for it), alone (what waits in the outbox counts as applied), and runs
-- effective_states_apply: what it wrote (-1: rebuilt whole).
create function lifecycle_test.apply(facts jsonb[])
returns bigint
language plpgsql
set search_path to ''
as $$
declare
  written bigint;
begin
  delete from lifecycle.effective_states_pending;
  update lifecycle.facts set applied = true where not applied;
  with a as (
    insert into lifecycle.audit_events (idempotency_key, committed_at, action, namespace_id, details)
    select 'test/' || pg_catalog.gen_random_uuid(), pg_catalog.now(), f ->> 'action', (f ->> 'namespace_id')::bigint,
           coalesce(f -> 'details', '{}')
      from pg_catalog.unnest(facts) f
    returning id
  )
  insert into lifecycle.effective_states_pending (audit_event_id) select a.id from a;
  select a.written into written from lifecycle.effective_states_apply() a;
  return written;
end
$$;

-- gitlab_structure is GitLab's own DDL of its namespace tables (internal/adopt/gitlab/structure.sql,
-- given to this file by scripts/test.sh as the psql variable gitlab_structure).
create function lifecycle_test.gitlab_structure()
returns text
language sql
immutable
set search_path to ''
return :'gitlab_structure';

-- create_gitlab_tables loads GitLab's own tables into schema legacy and bridges them as
-- docs/adoption.md does (states and tree, acting for user 42 where a row names nobody), then writes
-- a small GitLab as GitLab's code writes it, which the tree bridges carry to the lifecycle: group
-- acme (900001, owned by 42) > platform (900002) > project docs (900010: its namespaces row, then
-- its projects row 9100); user alice (900005). Ids far above what the other tests make. search_path
-- is left as GitLab's sessions have it (legacy first), for GitLab's trigger functions.
create function lifecycle_test.create_gitlab_tables()
returns void
language plpgsql
as $$
begin
  create schema legacy;
  perform pg_catalog.set_config('search_path', 'legacy, ' || pg_catalog.current_setting('search_path'), false);
  execute lifecycle_test.gitlab_structure();
  perform lifecycle.legacy_bridge_add('legacy.namespace_settings', 'namespace_id', 'archived', 'archived',
                                      namespace_types => array['organization', 'group'], actor_id => 42, insert_missing => true);
  perform lifecycle.legacy_bridge_add('legacy.group_deletion_schedules', 'group_id', 'deletion_scheduled', null,
                                      'marked_for_deletion_on', 'user_id', array['organization', 'group'], actor_id => 42);
  perform lifecycle.legacy_bridge_add('legacy.projects', 'project_namespace_id', 'archived', 'archived', actor_id => 42);
  perform lifecycle.legacy_bridge_add('legacy.projects', 'project_namespace_id', 'deletion_scheduled', 'marked_for_deletion_at',
                                      'marked_for_deletion_at', 'marked_for_deletion_by_user_id', actor_id => 42);
  perform lifecycle.legacy_bridge_add('legacy.projects', 'project_namespace_id', 'deletion_in_progress', 'pending_delete',
                                      actor_id => 42);
  perform lifecycle.legacy_tree_bridge_add('legacy.namespaces', 'id', 'parent_id', 'path', 'name', 'visibility_level', 'type',
    '{"Group": "group", "User": "user", "Project": "project"}', array['group', 'user'], 42, '{"organization_id": 1}');
  perform lifecycle.legacy_tree_bridge_add('legacy.projects', 'project_namespace_id', 'namespace_id', 'path', 'name',
    'visibility_level', null, '"project"', null, 42, '{"organization_id": 1}');
  insert into legacy.namespaces (id, name, path, parent_id, type, visibility_level, organization_id) values
    (900001, 'Acme', 'acme', null, 'Group', 20, 1),
    (900002, 'Platform', 'platform', 900001, 'Group', 20, 1),
    (900005, 'Alice', 'alice', null, 'User', 20, 1),
    (900010, 'Docs', 'docs', 900002, 'Project', 20, 1);
  insert into legacy.projects (id, name, path, namespace_id, project_namespace_id, visibility_level, organization_id)
  values (9100, 'Docs', 'docs', 900002, 900010, 20, 1);
  insert into legacy.namespace_settings (namespace_id, created_at, updated_at)
  values (900001, now(), now()), (900002, now(), now()), (900005, now(), now());
  insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900001, 42, 50);
end
$$;

-- bridge_gitlab_members bridges GitLab's members (after create_gitlab_tables) and writes the
-- memberships create_gitlab_tables gave the lifecycle into members as GitLab has them (its
-- GroupMember rows of user 42, written below the bridge: replica mode, as an import would).
create function lifecycle_test.bridge_gitlab_members()
returns void
language plpgsql
as $$
begin
  perform lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', array['group']);
  set local session_replication_role = replica;
  insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, member_namespace_id)
  values (50, 900001, 'Namespace', 42, 3, 900001);
  set local session_replication_role = origin;
end
$$;

-- create_movable_organization builds an organization at path (a root) to move between clusters
-- (organization_move_*), in several states: path/platform (group, user 1001 a developer) with
-- api (archived) and web (renamed from site: a redirect), path/old (a group scheduled for
-- deletion), path/infra (a group) with tool (transferred there from platform: a completed
-- request, a redirect, history), and a webhook of the organization; user 1000 owns it. Returns
-- its id.
create function lifecycle_test.create_movable_organization(path text)
returns bigint
language plpgsql
set search_path to ''
as $$
declare
  org bigint := lifecycle_test.create_namespace(null, 'organization', path);
  platform bigint := lifecycle_test.create_namespace(org, 'group', 'platform');
  infra bigint := lifecycle_test.create_namespace(org, 'group', 'infra');
  old bigint := lifecycle_test.create_namespace(org, 'group', 'old');
  api bigint := lifecycle_test.create_namespace(platform, 'project', 'api');
  site bigint := lifecycle_test.create_namespace(platform, 'project', 'site');
  tool bigint := lifecycle_test.create_namespace(platform, 'project', 'tool');
begin
  insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (org, 1000, 50), (platform, 1001, 30);
  insert into lifecycle.webhooks (namespace_id, url, secret) values (org, 'https://hooks.example.com/' || path, 'a-secret-of-16-chars');
  perform lifecycle.namespace_event(api, 'archive', 1000);
  perform lifecycle.namespace_rename(site, 'web', 1000);
  perform lifecycle.namespace_event(old, 'schedule_deletion', 1000);
  perform lifecycle.namespace_transfer_request(tool, infra, 1000);
  perform lifecycle.namespace_transfer_execute(tool);
  return org;
end
$$;

-- detail_of runs a statement that should fail and answers its error's DETAIL (null when it runs):
-- pgTAP's throws_ok compares the code and the message only.
create function lifecycle_test.detail_of(statement text)
returns text
language plpgsql
as $$
declare
  detail text;
begin
  execute statement;
  return null;
exception when others then
  get stacked diagnostics detail = pg_exception_detail;
  return detail;
end
$$;

-- move_out_for_staging moves the organization at path (made by create_movable_organization) out
-- of this cluster, keeping the rows organization_export streamed in the temporary table exported
-- (dropped at commit); staged_move_in then stages them back, tampered with by a statement, and
-- answers the call of organization_move_in to run on them (for throws_ok and detail_of).
create function lifecycle_test.move_out_for_staging(path text)
returns bigint
language plpgsql
as $$
declare
  org bigint := lifecycle_test.id_of(path);
begin
  perform lifecycle.organization_move_out_start(path, 'cluster-b');
  create temporary table exported on commit drop as select e.* from lifecycle.organization_export(org) e;
  perform lifecycle.organization_move_out_finish(org);
  return org;
end
$$;

create function lifecycle_test.staged_move_in(org bigint, tampering text)
returns text
language plpgsql
as $$
begin
  delete from lifecycle.organization_imports;
  insert into lifecycle.organization_imports select org, e.kind, e.data from pg_temp.exported e;
  execute tampering;
  return pg_catalog.format('select * from lifecycle.organization_move_in(%s, %L)', org, 'cluster-a');
end
$$;
