package adopt

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/nslifecycle/nslifecycle/internal/dberr"
)

// replay writes a namespace's legacy data again, in one transaction, so that its bridge carries
// it to the state (docs/adoption.md, "What the backfill leaves"): the condition turned off, then
// on as it was (or on, then off), each in a statement of its own. The bridge takes the legacy
// date and actor from the row it sees turned on. Returns the SQLSTATE of a refusal (the
// transaction rolled back, nothing changed), or "" when the state now follows the legacy data.
func (r *run) replay(ctx context.Context, ns int64, source, says string) (string, error) {
	var steps []string
	switch source + " says " + says {
	case "legacy.namespace_settings says archived", "legacy.namespace_settings says not archived":
		steps = []string{
			`update legacy.namespace_settings set archived = not archived where namespace_id = $1`,
			`update legacy.namespace_settings set archived = not archived where namespace_id = $1`,
		}
	case "legacy.projects says archived", "legacy.projects says not archived":
		steps = []string{
			`update legacy.projects set archived = not archived where project_namespace_id = $1`,
			`update legacy.projects set archived = not archived where project_namespace_id = $1`,
		}
	case "legacy.projects says deletion_in_progress", "legacy.projects says not deletion_in_progress":
		steps = []string{
			`update legacy.projects set pending_delete = not pending_delete where project_namespace_id = $1`,
			`update legacy.projects set pending_delete = not pending_delete where project_namespace_id = $1`,
		}
	case "legacy.projects says deletion_scheduled":
		steps = []string{
			`create temporary table adopt_replay on commit drop as
			   select marked_for_deletion_at, marked_for_deletion_by_user_id from legacy.projects where project_namespace_id = $1`,
			`update legacy.projects set marked_for_deletion_at = null, marked_for_deletion_by_user_id = null where project_namespace_id = $1`,
			`update legacy.projects p set marked_for_deletion_at = k.marked_for_deletion_at,
			        marked_for_deletion_by_user_id = k.marked_for_deletion_by_user_id
			   from adopt_replay k where p.project_namespace_id = $1`,
		}
	case "legacy.projects says not deletion_scheduled":
		steps = []string{
			`update legacy.projects p set marked_for_deletion_at = n.deletion_scheduled_at, marked_for_deletion_by_user_id = n.deletion_scheduled_by
			   from lifecycle.namespaces n where n.id = p.project_namespace_id and n.id = $1`,
			`update legacy.projects set marked_for_deletion_at = null, marked_for_deletion_by_user_id = null where project_namespace_id = $1`,
		}
	case "legacy.group_deletion_schedules says deletion_scheduled":
		steps = []string{
			`create temporary table adopt_replay on commit drop as select * from legacy.group_deletion_schedules where group_id = $1`,
			`delete from legacy.group_deletion_schedules where group_id = $1`,
			`insert into legacy.group_deletion_schedules select * from adopt_replay where group_id = $1`,
		}
	case "legacy.group_deletion_schedules says not deletion_scheduled":
		steps = []string{
			`insert into legacy.group_deletion_schedules (group_id, marked_for_deletion_on, user_id)
			 select n.id, n.deletion_scheduled_at, n.deletion_scheduled_by from lifecycle.namespaces n where n.id = $1`,
			`delete from legacy.group_deletion_schedules where group_id = $1`,
		}
	default:
		return "", fmt.Errorf("no replay for %s saying %s", source, says)
	}
	tx, err := r.app.Begin(ctx)
	if err != nil {
		return "", err
	}
	defer tx.Rollback(ctx)
	for _, step := range steps {
		if _, err := tx.Exec(ctx, step, ns); err != nil {
			var e *dberr.Error
			if errors.As(dberr.FromDB(err), &e) && len(e.Code) == 5 && e.Code[:2] == "NS" {
				return e.Code, nil
			}
			return "", err
		}
	}
	return "", tx.Commit(ctx)
}

// followState writes the legacy data of the namespaces in ids from their states (the bridges'
// own rule, legacy_bridge_says, in plain SQL for the GitLab shape): archived while archived or
// while a deletion keeps archived to return to; a deletion mark with its date and actor while a
// deletion is scheduled or running; pending_delete while it runs. Each statement touches only the
// rows that disagree. The same statements, over every namespace, undo a cutover
// (docs/adoption.md).
func followState(ctx context.Context, conn *pgx.Conn, ids ...int64) error {
	for _, sql := range followStateSQL {
		if _, err := conn.Exec(ctx, sql, ids); err != nil {
			return err
		}
	}
	return nil
}

var followStateSQL = []string{
	`update legacy.namespace_settings s
	    set archived = (n.state = 1 or coalesce(d.state_metadata ->> 'preserved_state' = 'archived', false))
	   from lifecycle.namespaces n join lifecycle.namespace_details d on d.namespace_id = n.id
	  where n.id = s.namespace_id and n.id = any ($1)
	    and s.archived is distinct from (n.state = 1 or coalesce(d.state_metadata ->> 'preserved_state' = 'archived', false))`,
	`delete from legacy.group_deletion_schedules g using lifecycle.namespaces n
	  where n.id = g.group_id and n.id = any ($1) and n.state not in (2, 4)`,
	`insert into legacy.group_deletion_schedules (group_id, marked_for_deletion_on, user_id)
	 select n.id, n.deletion_scheduled_at, coalesce(n.deletion_scheduled_by, 1001) from lifecycle.namespaces n
	  where n.id = any ($1) and n.type in ('organization', 'group') and n.state in (2, 4)
	    and not exists (select from legacy.group_deletion_schedules g where g.group_id = n.id)`,
	`update legacy.projects p
	    set archived = (n.state = 1 or coalesce(d.state_metadata ->> 'preserved_state' = 'archived', false)),
	        marked_for_deletion_at = case when n.state in (2, 4) then coalesce(p.marked_for_deletion_at, n.deletion_scheduled_at::date) end,
	        marked_for_deletion_by_user_id = case when n.state in (2, 4) then coalesce(p.marked_for_deletion_by_user_id, n.deletion_scheduled_by) end,
	        pending_delete = n.state = 4
	   from lifecycle.namespaces n join lifecycle.namespace_details d on d.namespace_id = n.id
	  where n.id = p.project_namespace_id and n.id = any ($1)
	    and (p.archived, p.marked_for_deletion_at is not null, coalesce(p.pending_delete, false))
	        is distinct from (n.state = 1 or coalesce(d.state_metadata ->> 'preserved_state' = 'archived', false), n.state in (2, 4), n.state = 4)`,
}
