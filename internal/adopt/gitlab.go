package adopt

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// GitLabStructure is GitLab's own DDL of the tables a GitLab database keeps its namespaces in
// (gitlab/structure.sql: namespaces, projects, namespace_settings, group_deletion_schedules,
// members, redirect_routes, their primary keys and the triggers GitLab relies on), taken from
// GitLab's db/structure.sql; its header names the commit and what was read. Names are unqualified:
// LoadGitLabStructure runs it with the target schema in search_path.
//
//go:embed gitlab/structure.sql
var GitLabStructure string

// Execer is what LoadGitLabStructure needs of a connection or a transaction.
type Execer interface {
	Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error)
}

// LoadGitLabStructure creates schema and GitLab's tables in it, with search_path set to the schema
// for GitLab's statements and reset after them (the session's own setting comes back).
func LoadGitLabStructure(ctx context.Context, conn Execer, schema string) error {
	id := pgx.Identifier{schema}.Sanitize()
	if _, err := conn.Exec(ctx, "create schema "+id+"; set search_path to "+id); err != nil {
		return fmt.Errorf("create schema %s: %w", schema, err)
	}
	_, err := conn.Exec(ctx, GitLabStructure)
	if _, rerr := conn.Exec(ctx, "reset search_path"); err == nil && rerr != nil {
		err = rerr
	}
	if err != nil {
		return fmt.Errorf("GitLab's tables in %s: %w", schema, err)
	}
	return nil
}

// stageInsert is the staging table's columns, in the order of the mapping (stage.sql).
const stageInsert = `insert into lifecycle.namespace_imports (id, parent_id, type, path, name, visibility, state, state_changed_at,
                                         state_changed_by, preserved_state, created_at)
`

// gitlabMapping is stage.sql, the one mapping from GitLab's tables to the staging rows, reading
// the tables in schema (a quoted identifier).
func gitlabMapping(schema string) string {
	return strings.ReplaceAll(stageSQL, "legacy.", pgx.Identifier{schema}.Sanitize()+".")
}

// PopulateGitLab fills GitLab's tables in schema legacy (LoadGitLabStructure(…, "legacy") first)
// with the demo's generated population of about total namespaces (populate.sql, deterministic),
// and leaves the function legacy.populate behind. The bench's adoption scenario measures on it.
func PopulateGitLab(ctx context.Context, conn Execer, total int64) error {
	if _, err := conn.Exec(ctx, populateSQL); err != nil {
		return fmt.Errorf("legacy.populate: %w", err)
	}
	if _, err := conn.Exec(ctx, `select legacy.populate($1)`, total); err != nil {
		return fmt.Errorf("legacy.populate(%d): %w", total, err)
	}
	return nil
}
