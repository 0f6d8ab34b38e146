package bench

import (
	"context"
	"errors"
)

type RefreshRun struct{}
type EffectiveRun struct{}
type SchedulingRun struct{}
type TransferRun struct{}
type SweeperResult struct{}
type SyncerResult struct{}
type TargetCheck struct{}

var errWIP = errors.New("not written yet")

func runRefresh(ctx context.Context, e *env) error        { return errWIP }
func runEffectiveState(ctx context.Context, e *env) error { return errWIP }
func runScheduling(ctx context.Context, e *env) error     { return errWIP }
func runTransfer(ctx context.Context, e *env) error       { return errWIP }
func runSweeper(ctx context.Context, e *env) error        { return errWIP }
func runSyncer(ctx context.Context, e *env) error         { return errWIP }
func evaluateTargets(r *Results) []TargetCheck            { return nil }
