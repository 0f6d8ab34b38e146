-- traversal_ids belongs to the database: computed from the parent on INSERT and when parent_id
-- changes, refused when a client writes it directly. Also the one form of the hierarchy rules of a
-- row, refused with NS010: an id from 1 to 2^63 - 2 (0 is the "no parent" key of the sibling
-- paths, coalesce(parent_id, 0), and the guards bound a subtree by its last id + 1), a known type,
-- a root-only type (an organization) only as a root, nothing below itself (its own parent, or its
-- own subtree), a type that takes no children (a project) has none (lifecycle.namespace_types),
-- and nothing placed deeper than lifecycle.namespace_max_depth() (a move checks its whole subtree
-- beforehand, in transfer_target_refusal). No check constraint says the first four again: one is
-- read back and planned, with the type predicates inlined, by every statement that writes the
-- table, an UPDATE of state too. The rows only these statements can write are judged here: an
-- INSERT, a move (UPDATE of parent_id), and the schema's owner's UPDATE of type or id (no client
-- role may make one). The import and an organization's move in, whose rows do not fire the INSERT
-- trigger, judge theirs set-based (namespace_import_batch, organization_move_in); a change of
-- lifecycle.namespace_types that would leave a row breaking these rules is refused
-- (namespace_types_digest_write).
-- PostgreSQL fires row triggers of one timing in name order; the number in each name on
-- lifecycle.namespaces states that order: 1 traversal_ids, 2 the state gate, 3 the state record.
create or replace function lifecycle.namespaces_traversal_ids_maintain()
returns trigger
language plpgsql
-- Definer: it reads rows and calls functions the application role may not.
security definer
set search_path to ''
as $$
declare
  parent_type text;
  parent_traversal_ids bigint[];
  locked_path bigint[];
begin
  if tg_op = 'UPDATE' and new.parent_id is not distinct from old.parent_id then
    -- The only legitimate writer of traversal_ids alone is the cascade trigger, one level down.
    if new.traversal_ids is distinct from old.traversal_ids and pg_catalog.pg_trigger_depth() < 2 then
      raise exception using
        errcode = 'NS010',
        message = 'traversal_ids is maintained by the database',
        detail = pg_catalog.format('namespace_id=%s', new.id),
        hint = 'Change parent_id (through a transfer) and the database recomputes traversal_ids.';
    end if;
    -- Neither the type nor the id changes either: nothing here to judge.
    if new.type = old.type and new.id = old.id then
      return new;
    end if;
  end if;

  if new.id < 1 or new.id > 9223372036854775806 then
    raise exception using
      errcode = 'NS010',
      message = pg_catalog.format('namespace id %s is outside 1 to 9223372036854775806 (2^63 - 2)', new.id),
      detail = pg_catalog.format('namespace_id=%s', new.id),
      hint = '0 is the "no parent" key of sibling paths and a subtree ends at its last id + 1: let the identity sequence choose the id.';
  end if;
  if new.type is null or not lifecycle.namespace_type_known(new.type) then
    raise exception using
      errcode = 'NS010',
      message = pg_catalog.format('unknown namespace type %L', new.type),
      detail = pg_catalog.format('type=%s', new.type),
      hint = pg_catalog.format('A namespace is of one of the types in lifecycle.namespace_types: %s.',
                               pg_catalog.array_to_string(lifecycle.namespace_type_names(), ', '));
  end if;
  if new.parent_id is not null and lifecycle.namespace_type_root_only(new.type) then
    raise exception using
      errcode = 'NS010',
      message = pg_catalog.format('a namespace of type %s has no parent', new.type),
      detail = pg_catalog.format('parent_id=%s type=%s', new.parent_id, new.type),
      hint = pg_catalog.format('Create a namespace of type %s at the root.', new.type);
  end if;
  if new.parent_id = new.id then
    raise exception using
      errcode = 'NS010',
      message = 'a namespace cannot be placed below itself',
      detail = pg_catalog.format('namespace_id=%s parent_id=%s', new.id, new.parent_id),
      hint = 'Choose a parent outside the namespace''s own subtree.';
  end if;
  -- The owner's UPDATE of type or id alone: the path stays.
  if tg_op = 'UPDATE' and new.parent_id is not distinct from old.parent_id then
    return new;
  end if;

  if new.parent_id is null then
    new.traversal_ids := array[new.id];
    return new;
  end if;

  -- Lock the parent's path root first (step 1 of the global lock order, namespace_lock_path; row
  -- locks, which a bulk INSERT may take by the thousand): the parent and its ancestors must not
  -- move, nor change state, until this row commits, so the path copied here stays true. A move
  -- committed between the read and the lock changes the path; then lock the new one.
  loop
    select n.traversal_ids into locked_path from lifecycle.namespaces n where n.id = new.parent_id;
    if not found then
      raise exception using
        errcode = 'NS004',
        message = 'parent namespace not found',
        detail = pg_catalog.format('parent_id=%s', new.parent_id),
        hint = 'Create the parent first, or pass the id of an existing namespace.';
    end if;
    perform lifecycle.namespace_lock_path(locked_path);
    select n.type, n.traversal_ids
      into parent_type, parent_traversal_ids
      from lifecycle.namespaces n
     where n.id = new.parent_id;
    exit when parent_traversal_ids = locked_path;
  end loop;

  if not lifecycle.namespace_type_can_be_parent(parent_type) then
    raise exception using
      errcode = 'NS010',
      message = pg_catalog.format('a %s cannot have children', parent_type),
      detail = pg_catalog.format('parent_id=%s type=%s', new.parent_id, parent_type),
      hint = pg_catalog.format('Place the namespace under a namespace of a type that takes children: %s.',
                               (select pg_catalog.string_agg(t.name, ', ' order by t.name)
                                  from lifecycle.namespace_types t where t.can_be_parent));
  end if;

  if new.id = any (parent_traversal_ids) then
    raise exception using
      errcode = 'NS010',
      message = 'a namespace cannot be placed below itself',
      detail = pg_catalog.format('namespace_id=%s parent_id=%s', new.id, new.parent_id),
      hint = 'Choose a parent outside the namespace''s own subtree.';
  end if;

  if pg_catalog.cardinality(parent_traversal_ids) >= lifecycle.namespace_max_depth() then
    raise exception using
      errcode = 'NS010',
      message = pg_catalog.format('a namespace cannot be deeper than %s levels', lifecycle.namespace_max_depth()),
      detail = pg_catalog.format('parent_id=%s parent_depth=%s max_depth=%s', new.parent_id,
                                 pg_catalog.cardinality(parent_traversal_ids), lifecycle.namespace_max_depth()),
      hint = 'Place the namespace higher in the tree.';
  end if;

  new.traversal_ids := parent_traversal_ids || new.id;
  return new;
end
$$;

-- A plain INSERT fires the _insert triggers; the import's rows, written with lifecycle.importing
-- set, do not: the import computes and checks them set-based (namespace_import_batch). A client
-- that sets lifecycle.importing skips nothing: without the import's flag its statement is refused
-- (NS010, settings_confirmed). Updates fire the other trigger: of the columns it judges, which no
-- change of state, rename or visibility change names.
create or replace trigger namespaces_1_traversal_ids_maintain
  before update of parent_id, traversal_ids, type, id on lifecycle.namespaces
  for each row execute function lifecycle.namespaces_traversal_ids_maintain();

create or replace trigger namespaces_1_traversal_ids_maintain_insert
  before insert on lifecycle.namespaces
  for each row when (pg_catalog.current_setting('lifecycle.importing', true) is distinct from 'on')
  execute function lifecycle.namespaces_traversal_ids_maintain();
