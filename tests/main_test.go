// Package tests_test holds the Go tests of the database's behaviour that one pgTAP file cannot
// show: races between sessions, hostile sessions, a hot standby, imports killed between batches.
// The pgTAP tests beside them (tests/<function>/<behaviour>.test.sql) cover one function each.
package tests_test

import (
	"os"
	"testing"

	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }
