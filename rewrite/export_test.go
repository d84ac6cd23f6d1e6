package rewrite

// SnapshotOf is snapshotOf for the external tests (package rewrite_test),
// which write plans through package atomicwrite.
var SnapshotOf = snapshotOf
