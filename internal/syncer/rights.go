package syncer

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// ReplicationRightError: the server refuses the syncer's role a replication connection (SQLSTATE
// 42501, as a FATAL at connection; PostgreSQL 15 says "must be superuser or replication role to
// start walsender", 16 and later "permission denied to start WAL sender": only the code is read). Only an administrator can grant the right (the schema owner cannot: a
// role's REPLICATION is a superuser's to give, and a managed service's admin gives its own
// equivalent), so reconnecting cannot help: Run stops and returns it, and cmd/syncer exits 3.
type ReplicationRightError struct {
	Role string          // the role the syncer connects as
	Err  *pgconn.PgError // the server's refusal
}

func (e *ReplicationRightError) Error() string {
	return fmt.Sprintf("role %s may not open a replication connection: %s (SQLSTATE %s)", e.Role, e.Err.Message, e.Err.Code)
}

func (e *ReplicationRightError) Unwrap() error { return e.Err }

// Grant is what an administrator runs to give the role the right, on a server of one's own and on
// each managed service (docs/operations.md, Managed PostgreSQL).
func (e *ReplicationRightError) Grant() string {
	r := pgx.Identifier{e.Role}.Sanitize()
	return fmt.Sprintf("ALTER ROLE %s WITH REPLICATION (as a superuser; Google Cloud SQL: as a cloudsqlsuperuser member; "+
		"Azure Flexible Server: as the admin); Amazon RDS and Aurora: GRANT rds_replication TO %s (as the master user)", r, r)
}

// replicationRefused is err as a *ReplicationRightError when it is the server refusing role the
// replication right (42501 when a replication connection is opened, or a replication command is
// run on one: the ordinary connections of the same role are known to work by then), else nil.
func replicationRefused(role string, err error) *ReplicationRightError {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "42501" {
		return &ReplicationRightError{Role: role, Err: pgErr}
	}
	return nil
}

// replicationConfig is the replication connection's configuration: DATABASE_URL with
// replication=database.
func (s *Syncer) replicationConfig() (*pgconn.Config, error) {
	cfg, err := pgconn.ParseConfig(s.cfg.DatabaseURL)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	cfg.RuntimeParams["replication"] = "database"
	return cfg, nil
}

// checkReplicationRight opens a replication connection and closes it, so that a syncer whose role
// lacks the right says so when it starts, not first when it is to take over as the active one
// (a standby never connects for replication while another holds the slot). Only the server's
// refusal of the right is returned; any other failure is left to the stream's reconnects.
func (s *Syncer) checkReplicationRight(ctx context.Context) error {
	cfg, err := s.replicationConfig()
	if err != nil {
		return nil // the stream reports it
	}
	conn, err := pgconn.ConnectConfig(ctx, cfg)
	if err != nil {
		if rr := replicationRefused(cfg.User, err); rr != nil {
			return rr
		}
		return nil
	}
	conn.Close(context.Background())
	return nil
}
