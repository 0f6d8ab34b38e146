-- Decide one due adjourned deletion (seed 004, AdjournedDeletionService), under the namespace's
-- locks: re-check it is still deletion_scheduled and due at as_of (else 'skipped'); then ask
-- whether the user who scheduled it may still delete it now (effective, inherited membership and
-- lifecycle.transition_policies for deletion_in_progress). Yes, or scheduled by the system: the
-- namespace enters deletion_in_progress ('deleting'; the caller then runs the hard delete). No, or
-- the user is gone: it is restored to its preserved state with last_error saying why ('restored').
-- Both changes are made as the system (actor null), with the scheduler in the metadata's reason.
create or replace function lifecycle.sweep_adjourned_deletion(namespace_id bigint, as_of timestamptz)
returns table (outcome text, detail text)
language plpgsql
security definer
set search_path to ''
set lock_timeout to '5s'
as $$
#variable_conflict use_variable
declare
  ns lifecycle.namespaces;
  refusal record;
  why text;
begin
  -- Listed, then removed by another sweeper before this one could claim it.
  if not exists (select from lifecycle.namespaces n where n.id = namespace_id) then
    return query select 'skipped'::text, 'no longer exists'::text;
    return;
  end if;
  ns := lifecycle.namespace_lock(namespace_id);
  if ns.state <> lifecycle.state_code('deletion_scheduled')
     or ns.deletion_scheduled_at >= as_of - pg_catalog.make_interval(
          days => (select s.deletion_adjourned_period_days from lifecycle.settings s)) then
    return query select 'skipped'::text, pg_catalog.format('no longer due: state %s, scheduled at %s',
                                                           lifecycle.state_name(ns.state), ns.deletion_scheduled_at);
    return;
  end if;

  if ns.deletion_scheduled_by is not null then
    select * into refusal
      from lifecycle.actor_refusal(ns.id, ns.traversal_ids, ns.deletion_scheduled_by,
             (select p.min_access_level from lifecycle.transition_policies p
               where p.to_state = lifecycle.state_code('deletion_in_progress')),
             'delete this namespace');
    if found then
      why := pg_catalog.format('deletion scheduled by user %s not carried out: %s (%s)', ns.deletion_scheduled_by,
                               refusal.message, refusal.detail);
      perform lifecycle.namespace_change_state(ns.id, null, 'restore', null::bigint,
        pg_catalog.jsonb_build_object('last_error', pg_catalog.left(why, 2000), 'reason', 'sweep: scheduler lost the right to delete'));
      return query select 'restored'::text, why;
      return;
    end if;
  end if;

  perform lifecycle.namespace_change_state(ns.id, null, 'deletion_start', null::bigint,
    pg_catalog.jsonb_build_object('reason', pg_catalog.format('sweep: grace period over (scheduled by %s)',
                                                              coalesce(ns.deletion_scheduled_by::text, 'the system'))));
  return query select 'deleting'::text,
    pg_catalog.format('scheduled by %s at %s', coalesce(ns.deletion_scheduled_by::text, 'the system'), ns.deletion_scheduled_at);
end
$$;
