package main

import (
	"flag"
	"testing"

	"github.com/nslifecycle/nslifecycle/internal/flagdoc"
)

// docs/operations.md lists exactly adopt's flags, with their defaults and usage text (generated
// from flagSet by make generate).
func TestOperationsDocListsTheFlags(t *testing.T) {
	flagdoc.Check(t, "../../docs/operations.md", "cmd/adopt", func() *flag.FlagSet { return flagSet(&options{}) })
}
