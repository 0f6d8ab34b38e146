package adopt

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5"
)

// GitLab is what AdoptGitLab needs: where GitLab's tables are and whom their legacy writes act for.
type GitLab struct {
	Schema string // the schema holding GitLab's tables (namespaces, projects, namespace_settings, group_deletion_schedules)
	// ActorID is the user a legacy write naming nobody is made on behalf of, and the user written
	// into GitLab's NOT NULL actor columns (group_deletion_schedules.user_id) for a change the
	// lifecycle makes for nobody (docs/adoption.md, §2).
	ActorID int64
	// OrganizationID fills the organization_id of the rows the tree bridges write for namespaces
	// created through the API (GitLab requires one).
	OrganizationID int64
	BatchSize      int // rows per committed import batch
	Log            *slog.Logger
}

// Divergence is a row of legacy_bridge_check() or check_invariants().
type Divergence struct {
	Check       string // legacy_bridge_check or check_invariants
	NamespaceID int64
	What        string
}

// Rejected is a staged row the import refused (it stays staged with its code and reason).
type Rejected struct {
	ID           int64
	Code, Reason string
}

// Adoption is what AdoptGitLab did and found.
type Adoption struct {
	BridgesKept          bool // the bridges were there as configured and were left alone
	StateBridges         int64
	TreeBridges          int64
	MembersBridges       int64 // 1 when GitLab's members table is bridged (legacy_members_bridge_add)
	Staged               int64 // rows staged by this run (namespaces the lifecycle did not have)
	Imported, Rejections int64 // of this run's import
	Members              int64 // memberships imported or changed by this run
	MembersSkipped       int64 // GitLab member rows on a namespace the lifecycle lacks, or at a level it has not (5, minimal access)
	Backfilled           int64
	BackfillRefused      int64
	Namespaces           int64 // the lifecycle's namespaces afterwards
	Rejected             []Rejected
	Divergences          []Divergence
}

// OK says the adoption is complete: nothing rejected, both checks empty.
func (a *Adoption) OK() bool { return len(a.Rejected) == 0 && len(a.Divergences) == 0 }

// The state bridges and tree bridges of docs/adoption.md §2 (and tests/gitlab_test.go), for the
// tables of one schema (named arguments: the tables as regclass text, the actor, the row defaults
// of the rows written back).
var gitlabBridges = []string{
	`select lifecycle.legacy_bridge_add(@settings::regclass, 'namespace_id', 'archived', 'archived',
	   namespace_types => array['organization', 'group'], actor_id => @actor::bigint, insert_missing => true)`,
	`select lifecycle.legacy_bridge_add(@schedules::regclass, 'group_id', 'deletion_scheduled', null,
	   'marked_for_deletion_on', 'user_id', array['organization', 'group'], actor_id => @actor::bigint)`,
	`select lifecycle.legacy_bridge_add(@projects::regclass, 'project_namespace_id', 'archived', 'archived', actor_id => @actor::bigint)`,
	`select lifecycle.legacy_bridge_add(@projects::regclass, 'project_namespace_id', 'deletion_scheduled', 'marked_for_deletion_at',
	   'marked_for_deletion_at', 'marked_for_deletion_by_user_id', actor_id => @actor::bigint)`,
	`select lifecycle.legacy_bridge_add(@projects::regclass, 'project_namespace_id', 'deletion_in_progress', 'pending_delete',
	   actor_id => @actor::bigint)`,
	`select lifecycle.legacy_tree_bridge_add(@namespaces::regclass, 'id', 'parent_id', 'path', 'name', 'visibility_level', 'type',
	   '{"Group": "group", "User": "user", "Project": "project"}', array['group', 'user'], @actor::bigint, @defaults::jsonb)`,
	`select lifecycle.legacy_tree_bridge_add(@projects::regclass, 'project_namespace_id', 'namespace_id', 'path', 'name',
	   'visibility_level', null, '"project"', null, @actor::bigint, @defaults::jsonb)`,
}

// bridgesNow is every bridge of the sources $1 (regclass[]) as the catalog keeps it, without
// ids and times: two installs of the same bridges read the same.
const bridgesNow = `select coalesce((select jsonb_agg(to_jsonb(b) - 'id' - 'created_at' order by b.source::text, b.state)
                                 from lifecycle.legacy_bridges b where b.source = any ($1::text[]::regclass[])), '[]'),
                          coalesce((select jsonb_agg(to_jsonb(t) - 'id' - 'created_at' order by t.source::text)
                                 from lifecycle.legacy_tree_bridges t where t.source = any ($1::text[]::regclass[])), '[]'),
                          coalesce((select jsonb_agg(to_jsonb(m) - 'id' - 'created_at' order by m.source::text)
                                 from lifecycle.legacy_members_bridges m where m.source = any ($1::text[]::regclass[])), '[]')`

// AdoptGitLab adopts the GitLab tables of g.Schema, as the schema's owner (conn, outside a
// transaction; the import's progress arrives as its NOTICEs): it installs the bridges that keep the lifecycle in step with them (kept when they
// are there already as configured, otherwise every bridge of those tables dropped and added again,
// in one transaction), stages the namespaces the lifecycle does not have with the mapping of
// stage.sql, imports them in committed batches (lifecycle.namespace_import_run: a run that stops
// resumes with what is still staged), imports GitLab's memberships quietly, backfills, and runs legacy_bridge_check() and
// check_invariants(). Running it again changes nothing.
func AdoptGitLab(ctx context.Context, conn *pgx.Conn, g GitLab) (*Adoption, error) {
	if g.Log == nil {
		g.Log = slog.New(slog.DiscardHandler)
	}
	if g.BatchSize < 1 {
		g.BatchSize = 10000
	}
	if g.ActorID < 1 {
		return nil, errors.New("an actor id is required: GitLab's group_deletion_schedules.user_id is NOT NULL")
	}
	// Every statement runs with the search_path pinned to pg_catalog, every other name written
	// with its schema: GitLab's role may create in GitLab's schema (and in public), and an operator
	// or a function it declares there that matches better than pg_catalog's (= on varchar, say,
	// beside pg_catalog's = on text) would otherwise run as the adopting owner. Restored after.
	var searchPath string
	if err := conn.QueryRow(ctx, `select pg_catalog.current_setting('search_path')`).Scan(&searchPath); err != nil {
		return nil, fmt.Errorf("read search_path: %w", err)
	}
	if _, err := conn.Exec(ctx, `select pg_catalog.set_config('search_path', 'pg_catalog', false)`); err != nil {
		return nil, fmt.Errorf("pin search_path: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `select pg_catalog.set_config('search_path', $1, false)`, searchPath)
	// And with row_security off: a policy GitLab's role puts on a table it owns would run with the
	// owner's rights at each read (a superuser bypasses policies; another owner does not). A read
	// such a policy would filter is refused (42501) instead. Restored after.
	var rowSecurity string
	if err := conn.QueryRow(ctx, `select pg_catalog.current_setting('row_security')`).Scan(&rowSecurity); err != nil {
		return nil, fmt.Errorf("read row_security: %w", err)
	}
	if _, err := conn.Exec(ctx, `select pg_catalog.set_config('row_security', 'off', false)`); err != nil {
		return nil, fmt.Errorf("turn row_security off: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `select pg_catalog.set_config('row_security', $1, false)`, rowSecurity)
	table := func(name string) string { return pgx.Identifier{g.Schema, name}.Sanitize() }
	tables := []string{table("namespace_settings"), table("group_deletion_schedules"), table("projects"), table("namespaces")}
	for _, t := range tables {
		var ok bool
		if err := conn.QueryRow(ctx, `select to_regclass($1) is not null`, t).Scan(&ok); err != nil {
			return nil, fmt.Errorf("look for %s: %w", t, err)
		}
		if !ok {
			return nil, fmt.Errorf("no table %s: is %q the schema of GitLab's tables?", t, g.Schema)
		}
	}
	// The backfill acts as the system, which only lifecycle_worker's members and superusers may
	// (docs/design.md §10.2): refused before anything is written, with the grant that fixes it.
	var worker bool
	var who string
	if err := conn.QueryRow(ctx, `select current_user, pg_has_role(current_user, 'lifecycle_worker', 'member')
		or (select rolsuper from pg_roles where rolname = current_user)`).Scan(&who, &worker); err != nil {
		return nil, err
	}
	if !worker {
		return nil, fmt.Errorf("%s is neither a superuser nor a member of lifecycle_worker, and the backfill acts as the system: "+
			"GRANT lifecycle_worker TO %s", who, pgx.Identifier{who}.Sanitize())
	}
	// GitLab's members, when the schema has it: bridged and imported with the namespaces.
	membersTable := table("members")
	var hasMembers bool
	if err := conn.QueryRow(ctx, `select to_regclass($1) is not null`, membersTable).Scan(&hasMembers); err != nil {
		return nil, fmt.Errorf("look for %s: %w", membersTable, err)
	}
	if !hasMembers {
		membersTable = ""
		g.Log.Info("no members table: memberships neither bridged nor imported", "schema", g.Schema)
	}
	a := &Adoption{}
	if err := a.bridges(ctx, conn, g, tables, membersTable); err != nil {
		return a, err
	}
	if err := a.stageAndImport(ctx, conn, g); err != nil {
		return a, err
	}
	if err := a.members(ctx, conn, g, membersTable, tables[2]); err != nil {
		return a, err
	}
	if err := conn.QueryRow(ctx, `select backfilled, refused from lifecycle.legacy_bridge_backfill()`).
		Scan(&a.Backfilled, &a.BackfillRefused); err != nil {
		return a, fmt.Errorf("backfill: %w", err)
	}
	g.Log.Info("backfilled", "namespaces", a.Backfilled, "refused", a.BackfillRefused)
	if err := a.checks(ctx, conn, g); err != nil {
		return a, err
	}
	return a, nil
}

func (a *Adoption) bridges(ctx context.Context, conn *pgx.Conn, g GitLab, tables []string, membersTable string) error {
	rowDefaults := fmt.Sprintf(`{"organization_id": %d}`, g.OrganizationID)
	errKept := errors.New("kept")
	sources := tables
	if membersTable != "" {
		sources = append(append([]string{}, tables...), membersTable)
	}
	err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		var stateBefore, treeBefore, membersBefore []byte
		if err := tx.QueryRow(ctx, bridgesNow, sources).Scan(&stateBefore, &treeBefore, &membersBefore); err != nil {
			return fmt.Errorf("read the bridges: %w", err)
		}
		for _, t := range tables {
			if _, err := tx.Exec(ctx, `select lifecycle.legacy_bridge_drop($1::regclass), lifecycle.legacy_tree_bridge_drop($1::regclass)`, t); err != nil {
				return fmt.Errorf("drop the bridges of %s: %w", t, err)
			}
		}
		for _, call := range gitlabBridges {
			if _, err := tx.Exec(ctx, call, pgx.NamedArgs{"settings": tables[0], "schedules": tables[1], "projects": tables[2],
				"namespaces": tables[3], "actor": g.ActorID, "defaults": rowDefaults}); err != nil {
				return fmt.Errorf("bridge: %w", err)
			}
		}
		// The members bridge (one per database: any other is dropped), carrying GitLab's
		// membership changes from now on; the import below brings in what is there already. Its
		// Namespace rows name GitLab's groups only (a GroupMember's source is a Group; a personal
		// namespace's owner is no member), so memberships of user namespaces are refused.
		if membersTable != "" {
			if _, err := tx.Exec(ctx, `select lifecycle.legacy_members_bridge_drop(b.source) from lifecycle.legacy_members_bridges b`); err != nil {
				return fmt.Errorf("drop the members bridge: %w", err)
			}
			if _, err := tx.Exec(ctx, `select lifecycle.legacy_members_bridge_add($1::regclass, $2::regclass, array['group'])`, membersTable, tables[2]); err != nil {
				return fmt.Errorf("bridge %s: %w", membersTable, err)
			}
		}
		var stateAfter, treeAfter, membersAfter []byte
		if err := tx.QueryRow(ctx, bridgesNow, sources).Scan(&stateAfter, &treeAfter, &membersAfter); err != nil {
			return fmt.Errorf("read the bridges: %w", err)
		}
		if err := tx.QueryRow(ctx, `select (select count(*) from lifecycle.legacy_bridges where source = any ($1::text[]::regclass[])),
		                                   (select count(*) from lifecycle.legacy_tree_bridges where source = any ($1::text[]::regclass[])),
		                                   (select count(*) from lifecycle.legacy_members_bridges where source = any ($1::text[]::regclass[]))`,
			sources).Scan(&a.StateBridges, &a.TreeBridges, &a.MembersBridges); err != nil {
			return err
		}
		if jsonEqual(stateBefore, stateAfter) && jsonEqual(treeBefore, treeAfter) && jsonEqual(membersBefore, membersAfter) {
			// The same bridges were there: leave them (and their ids) untouched.
			g.Log.Info("bridges kept: installed already as configured", "schema", g.Schema, "state_bridges", a.StateBridges,
				"tree_bridges", a.TreeBridges, "members_bridges", a.MembersBridges)
			return errKept // rolled back
		}
		g.Log.Info("bridges installed", "schema", g.Schema, "state_bridges", a.StateBridges, "tree_bridges", a.TreeBridges,
			"members_bridges", a.MembersBridges, "actor_id", g.ActorID)
		return nil
	})
	if errors.Is(err, errKept) {
		a.BridgesKept = true
		return nil
	}
	return err
}

func jsonEqual(a, b []byte) bool { return string(a) == string(b) }

func (a *Adoption) stageAndImport(ctx context.Context, conn *pgx.Conn, g GitLab) error {
	// Only what the lifecycle does not have. A row still staged (a run that stopped, or one the
	// import rejected) is staged again from the legacy data as it is now, its verdict cleared:
	// the import judges it afresh. One statement: one snapshot.
	tag, err := conn.Exec(ctx, stageInsert+`select * from (`+gitlabMapping(g.Schema)+`
) m where not exists (select from lifecycle.namespaces n where n.id = m.id)
on conflict (id) do update set parent_id = excluded.parent_id, type = excluded.type, path = excluded.path, name = excluded.name,
  visibility = excluded.visibility, state = excluded.state, state_changed_at = excluded.state_changed_at,
  state_changed_by = excluded.state_changed_by, preserved_state = excluded.preserved_state, created_at = excluded.created_at,
  legacy_parent_id = excluded.legacy_parent_id, reject_code = null, reject_reason = null`)
	if err != nil {
		return fmt.Errorf("stage: %w", err)
	}
	a.Staged = tag.RowsAffected()
	var queued int64
	if err := conn.QueryRow(ctx, `select count(*) from lifecycle.namespace_imports`).Scan(&queued); err != nil {
		return err
	}
	g.Log.Info("staged", "new", a.Staged, "queued", queued)
	// The import's progress comes as NOTICEs, one per committed batch (the connection's OnNotice).
	// It commits each batch, so it runs outside a transaction, in the simple protocol.
	if err := conn.QueryRow(ctx, fmt.Sprintf(`call lifecycle.namespace_import_run(%d)`, g.BatchSize),
		pgx.QueryExecModeSimpleProtocol).Scan(&a.Imported, &a.Rejections); err != nil {
		return fmt.Errorf("import (committed batches stay; run again to resume): %w", err)
	}
	// Fresh statistics for the planner after a bulk write (docs/operations.md, Importing namespaces).
	if a.Imported > 0 {
		if _, err := conn.Exec(ctx, `analyze lifecycle.namespaces`); err != nil {
			return fmt.Errorf("analyze: %w", err)
		}
	}
	g.Log.Info("imported", "namespaces", a.Imported, "rejected", a.Rejections)
	rows, err := conn.Query(ctx, `select id, reject_code, reject_reason from lifecycle.namespace_imports
	                              where reject_code is not null order by id`)
	if err != nil {
		return err
	}
	a.Rejected, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Rejected, error) {
		var x Rejected
		return x, r.Scan(&x.ID, &x.Code, &x.Reason)
	})
	return err
}

func (a *Adoption) checks(ctx context.Context, conn *pgx.Conn, g GitLab) error {
	rows, err := conn.Query(ctx, `
		select 'legacy_bridge_check', namespace_id, format('%s says %s, the state is %s', source, legacy_says, state)
		  from lifecycle.legacy_bridge_check()
		union all
		select 'check_invariants', namespace_id, format('%s: %s', invariant, reason) from lifecycle.check_invariants()
		order by 1 desc, 2`)
	if err != nil {
		return fmt.Errorf("checks: %w", err)
	}
	a.Divergences, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Divergence, error) {
		var d Divergence
		var id *int64
		err := r.Scan(&d.Check, &id, &d.What)
		if id != nil {
			d.NamespaceID = *id
		}
		return d, err
	})
	if err != nil {
		return fmt.Errorf("checks: %w", err)
	}
	if err := conn.QueryRow(ctx, `select count(*) from lifecycle.namespaces`).Scan(&a.Namespaces); err != nil {
		return err
	}
	g.Log.Info("checked", "divergences", len(a.Divergences), "namespaces", a.Namespaces)
	return nil
}

// members imports GitLab's memberships quietly: one transaction, set-based, with the definition
// the members bridge and the check use (lifecycle.legacy_members: no access request, no pending
// invitation, a Project member on the project's namespace, the higher level of a pair), the rows
// the lifecycle cannot hold (a namespace it has not, GitLab's minimal access) counted and skipped,
// and the row triggers (facts, validation, organization guard) disabled for that transaction only,
// their work done once for the whole set. The trigger's state is catalog data,
// so no other session ever sees it disabled: theirs fire as before (they wait for the lock ALTER
// TABLE takes, SHARE ROW EXCLUSIVE, for the length of the statement). Nothing is audited or
// notified per membership, as nothing is per imported namespace. A level changed since the last
// run is brought in step; a membership GitLab removed is left to the check to report (the bridge
// carries removals from its installation on).
func (a *Adoption) members(ctx context.Context, conn *pgx.Conn, g GitLab, membersTable, projectsTable string) error {
	if membersTable == "" {
		return nil
	}
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		// The row triggers off for this transaction, each one's work done for the whole set
		// instead (PL/pgSQL a row each was two thirds of the adoption's import at 20k namespaces):
		// the facts (nothing is notified); the validation (a namespace the lifecycle has, joined; a
		// level among GitLab's five; a user: in the statement below; the foreign key holds the
		// namespace as the trigger would); the organization guard (its lock rows held shared and a
		// move out refused with NS011, here, for every organization the memberships are in).
		// The members bridge's write-back too: these memberships are GitLab's own already.
		if _, err := tx.Exec(ctx, `alter table lifecycle.namespace_members disable trigger namespace_members_facts,
			disable trigger namespace_members_validate, disable trigger namespace_members_moving,
			disable trigger namespace_members_legacy`); err != nil {
			return fmt.Errorf("members: %w", err)
		}
		// GitLab's memberships read once (legacy_members returns its whole result at once, and
		// its GROUP BY leaves it in hash order), sorted by (namespace_id, user_id): the check
		// below, the INSERT and the count read this copy, and the INSERT walks the primary key and
		// the foreign key's probes of lifecycle.namespaces in key order (each page once, the
		// btree appended at its right edge) instead of at random. The foreign key stays: each row
		// is still checked against lifecycle.namespaces.
		if _, err := tx.Exec(ctx, `create temporary table lifecycle_adopt_members on commit drop as
			select g.namespace_id, g.user_id, g.access_level, g.created_at, g.held
			  from lifecycle.legacy_members($1::regclass, $2::regclass) g
			 order by g.namespace_id, g.user_id`, membersTable, projectsTable); err != nil {
			return fmt.Errorf("members: %w", err)
		}
		// Its statistics, for the statements below: without them the planner takes the copy's
		// namespaces to be 200 and probes lifecycle.namespaces once for each.
		if _, err := tx.Exec(ctx, `analyze pg_temp.lifecycle_adopt_members`); err != nil {
			return fmt.Errorf("members: %w", err)
		}
		// The foreign key to lifecycle.namespaces checks each row on its own: a query a row,
		// SELECT … FOR KEY SHARE of its namespace, two thirds of what the INSERT costs. When
		// this session may (a superuser owner, as namespace_import_batch decides; and unless
		// lifecycle.import_skip_rechecks is off), the same locks are taken here for the whole set,
		// in id order, and the INSERT runs in replica mode, where the foreign key's trigger (and
		// only the three row triggers disabled above) would fire. The guarantee is the foreign
		// key's: every namespace a membership names exists and is held FOR KEY SHARE until commit
		// (a hard deletion waits, then cascades); a namespace gone since the memberships were read
		// fails the transaction, as the foreign key would have (23503), and nothing is written.
		var replica bool
		if err := tx.QueryRow(ctx, `select case when current_setting('is_superuser') = 'on' then lifecycle.namespace_import_skips_rechecks() else false end`).Scan(&replica); err != nil {
			return fmt.Errorf("members: %w", err)
		}
		// The organization guard, done once for the set: the roots of the paths the memberships
		// are on (each namespace once: the guard's join of every membership to its namespace was
		// 0.3 s of 2.4 at 100k), their lock rows held shared, and a move out refused with NS011.
		// Before the namespaces' own locks below: the global lock order (namespace_lock_path).
		if _, err := tx.Exec(ctx, `select lifecycle.organization_moving_check(coalesce(array_agg(r.root), '{}'))
			  from (select d.namespace_id as root from lifecycle.namespace_details d
			         where d.namespace_id = any (array(select distinct n.traversal_ids[1] from lifecycle.namespaces n
			                                            where n.id in (select g.namespace_id from pg_temp.lifecycle_adopt_members g
			                                                            where g.held)))
			         order by d.namespace_id for key share of d) r`); err != nil {
			return fmt.Errorf("members: %w", err)
		}
		if replica {
			var want, locked int64
			if err := tx.QueryRow(ctx, `select (select count(distinct g.namespace_id) from pg_temp.lifecycle_adopt_members g where g.held),
				       (select count(*) from (select from lifecycle.namespaces n
				                               where n.id in (select g.namespace_id from pg_temp.lifecycle_adopt_members g where g.held)
				                               order by n.id for key share of n) k)`).Scan(&want, &locked); err != nil {
				return fmt.Errorf("members: %w", err)
			}
			if locked != want {
				return fmt.Errorf("members: %d of %d namespaces with memberships were deleted while they were read: nothing written, run again", want-locked, want)
			}
			if _, err := tx.Exec(ctx, `set local session_replication_role = replica`); err != nil {
				return fmt.Errorf("members: %w", err)
			}
		}
		// No other session writes lifecycle.namespace_members until this transaction ends (ALTER
		// TABLE above holds SHARE ROW EXCLUSIVE), so a pair is new exactly when the table lacks it
		// now: the levels changed since the last run are set, then the new pairs inserted plainly,
		// without ON CONFLICT's speculative insertion (with the guard's roots above: the transaction's
		// backend CPU 1.42 -> 1.24 s for the 204,500 memberships of 100k namespaces).
		changed, err := tx.Exec(ctx, `update lifecycle.namespace_members m set access_level = g.access_level, updated_at = now()
			  from pg_temp.lifecycle_adopt_members g
			 where g.held and m.namespace_id = g.namespace_id and m.user_id = g.user_id and m.access_level <> g.access_level`)
		if err != nil {
			return fmt.Errorf("members: %w", err)
		}
		tag, err := tx.Exec(ctx, `insert into lifecycle.namespace_members (namespace_id, user_id, access_level, created_at, updated_at)
			select g.namespace_id, g.user_id, g.access_level, g.created_at, now()
			  from pg_temp.lifecycle_adopt_members g
			 where g.held
			   and not exists (select from lifecycle.namespace_members m where m.namespace_id = g.namespace_id and m.user_id = g.user_id)
			 order by g.namespace_id, g.user_id`)
		if err != nil {
			return fmt.Errorf("members: %w", err)
		}
		if replica {
			if _, err := tx.Exec(ctx, `set local session_replication_role = origin`); err != nil {
				return fmt.Errorf("members: %w", err)
			}
		}
		a.Members = changed.RowsAffected() + tag.RowsAffected()
		if err := tx.QueryRow(ctx, `select count(*) from pg_temp.lifecycle_adopt_members g where not g.held`).Scan(&a.MembersSkipped); err != nil {
			return fmt.Errorf("members: %w", err)
		}
		if _, err := tx.Exec(ctx, `alter table lifecycle.namespace_members enable trigger namespace_members_facts,
			enable trigger namespace_members_validate, enable trigger namespace_members_moving,
			enable trigger namespace_members_legacy`); err != nil {
			return fmt.Errorf("members: %w", err)
		}
		g.Log.Info("memberships imported", "written", a.Members, "skipped", a.MembersSkipped)
		return nil
	})
}
