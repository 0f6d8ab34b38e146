-- The effective state of every namespace by its definition: a recursive walk down from every root,
-- each namespace taking its parent's answer unless it has an own state. The reference the kept
-- table lifecycle.effective_states is verified against (effective_states_verify).
create view lifecycle.effective_states_computed as
with recursive tree as (
  select n.id,
         n.state,
         n.path as full_path,
         case when n.state <> 0 then n.id end as source_id,
         s.name = 'archived' as archived,
         s.pending_deletion,
         s.read_only
    from lifecycle.namespaces n
    join lifecycle.states s on s.code = n.state
   where n.parent_id is null
  union all
  select c.id,
         c.state,
         t.full_path || '/' || c.path,
         case when c.state <> 0 then c.id else t.source_id end,
         t.archived or s.name = 'archived',
         t.pending_deletion or s.pending_deletion,
         t.read_only or s.read_only
    from tree t
    join lifecycle.namespaces c on c.parent_id = t.id
    join lifecycle.states s on s.code = c.state
)
select t.id as namespace_id,
       own.name as state,
       coalesce(src_state.name, 'active') as effective_state,
       nullif(t.source_id, t.id) as inherited_from_namespace_id,
       t.archived as self_or_ancestor_archived,
       t.pending_deletion as self_or_ancestor_deletion_scheduled,
       t.read_only,
       t.full_path
  from tree t
  join lifecycle.states own on own.code = t.state
  left join lifecycle.namespaces src on src.id = t.source_id
  left join lifecycle.states src_state on src_state.code = src.state;

comment on view lifecycle.effective_states_computed is
  'The definition of lifecycle.effective_states (recursive, from every root): the reference the kept table is verified against.';
