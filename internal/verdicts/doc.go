// Package verdicts holds the test that puts the same candidate namespaces through the
// application's INSERT (and the state API) and through the import, on two clones of one database,
// and compares what each decides and writes: the creation rules exist in the triggers and again,
// set-based, in lifecycle.namespace_import_batch, and this is what keeps the two forms agreeing
// (docs/adoption.md §4, Verdicts). It has no code of its own.
package verdicts
