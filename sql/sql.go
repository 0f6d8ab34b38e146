// Package sql is the product's SQL, embedded: the migrations (NNN_name.sql) and the function,
// trigger and snapshot files they include, read by internal/migration to install and upgrade the
// schema. Nothing here is Go but this file; sql/README.md says how the SQL is laid out.
package sql

import (
	"embed"
	"io/fs"
)

//go:embed [0-9]*.sql roles.sql grants.sql releases.txt tables types views functions triggers released
var files embed.FS

// Files is the tree of migration files: NNN_name.sql at its root, the included files below.
func Files() fs.FS { return files }
