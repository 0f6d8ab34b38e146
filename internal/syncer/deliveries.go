package syncer

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/nslifecycle/nslifecycle/internal/db"
	"github.com/nslifecycle/nslifecycle/internal/dberr"
)

// SignatureHeader is the header a webhook receiver checks: "sha256=" and the hex HMAC-SHA256 of
// the request body under the webhook's secret. IdempotencyHeader carries the key a receiver
// deduplicates on (IdempotencyKey).
const (
	SignatureHeader   = "X-Lifecycle-Signature"
	IdempotencyHeader = "Idempotency-Key"
)

// The statuses of a webhook delivery: lifecycle.webhook_deliveries.status (its check constraint,
// webhook_deliveries_status_check), what lifecycle.webhook_delivery_result returns after an
// attempt, and the status label of lifecycle_syncer_webhook_deliveries_total (each exported from
// the start, at 0; TestDeliveryStatusesAreTheTables keeps the list and the constraint together).
const (
	deliveryDelivered = "delivered" // a 2xx
	deliveryPending   = "pending"   // not delivered, tried again after the backoff
	deliveryFailed    = "failed"    // a 4xx other than 408 and 429: not tried again
	deliveryDead      = "dead"      // not delivered after -webhook-max-attempts attempts
)

var deliveryStatuses = []string{deliveryDelivered, deliveryPending, deliveryFailed, deliveryDead}

// IdempotencyKey is the Idempotency-Key header of a delivery: the body's idempotency_key, which is
// the fact's audit row's (lifecycle.audit_events.idempotency_key), "<commit LSN>/<position>": the
// commit LSN of the source transaction as PostgreSQL prints a pg_lsn (two hex numbers and a slash,
// "0/1F15BE0") and the fact's position in that transaction (0, 1, …). So header and body agree;
// every attempt of a delivery, and every delivery of one fact (webhooks that overlap), carry the
// same key; and the key orders facts in commit order (LSN, then position).
//
// The delivery row's own key (lifecycle.webhook_deliveries.idempotency_key) adds "/<webhook id>";
// it stays the row's unique key in the database and is what deliveryKey is. It is used as it is
// only for a body without an idempotency_key, which facts_record never writes.
func IdempotencyKey(body []byte, deliveryKey string) string {
	var b struct {
		IdempotencyKey string `json:"idempotency_key"`
	}
	if json.Unmarshal(body, &b) == nil && b.IdempotencyKey != "" {
		return b.IdempotencyKey
	}
	return deliveryKey
}

// Sign computes the signature header's value for a body.
func Sign(secret string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// deliverLoop sends due webhook deliveries with up to WebhookWorkers attempts in flight, entirely
// apart from the replication stream: it claims only as many as there are free workers, so a slow
// or dead receiver occupies one worker and delays only its own deliveries. Whether a response
// means delivered, retry later or give up is decided by lifecycle.webhook_delivery_result.
func (s *Syncer) deliverLoop(ctx context.Context) {
	free := make(chan struct{}, s.cfg.WebhookWorkers)
	for range s.cfg.WebhookWorkers {
		free <- struct{}{}
	}
	var inFlight sync.WaitGroup
	defer inFlight.Wait()
	for ctx.Err() == nil {
		// Wait for one free worker, then take the others that are free too.
		select {
		case <-ctx.Done():
			return
		case <-free:
		}
		n := 1
		for more := true; more; {
			select {
			case <-free:
				n++
			default:
				more = false
			}
		}
		batch, err := s.claimDeliveries(ctx, n)
		if err != nil && ctx.Err() == nil {
			s.log.Error("claim webhook deliveries", "err", dberr.FromDB(err))
		}
		for _, d := range batch {
			inFlight.Add(1)
			go func() {
				defer inFlight.Done()
				defer func() { free <- struct{}{} }()
				s.deliver(ctx, d)
			}()
		}
		for range n - len(batch) {
			free <- struct{}{}
		}
		if len(batch) == 0 {
			sleep(ctx, s.cfg.DeliveryPoll)
		}
	}
}

// claimDeliveries leases up to n due deliveries, and reads the allowlist and the forbidden ranges
// they are sent under. When the ranges cannot be read it returns no delivery: nothing is sent, and
// the ones it leased are due again when their lease ends, their attempts untouched.
func (s *Syncer) claimDeliveries(ctx context.Context, n int) ([]db.WebhookDeliveriesClaimRow, error) {
	batch, err := db.New(s.pool).WebhookDeliveriesClaim(ctx, db.WebhookDeliveriesClaimParams{
		BatchSize: int32(n),
		// Leased for longer than an attempt can take: a crash mid-attempt retries after it.
		Lease: pgtype.Interval{Microseconds: (2*s.cfg.WebhookTimeout + time.Minute).Microseconds(), Valid: true},
	})
	if len(batch) > 0 {
		s.loadAllowedHosts(ctx)
		if !s.loadForbiddenRanges(ctx) {
			return nil, err
		}
	}
	return batch, err
}

// loadAllowedHosts reads lifecycle.settings.webhook_allowed_hosts before each batch, so that an
// operator's change applies without a restart. When it cannot be read, the last value read stays
// (at start: nothing allowed beyond public addresses).
func (s *Syncer) loadAllowedHosts(ctx context.Context) {
	hosts, err := db.New(s.pool).WebhookAllowedHosts(ctx)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Warn("read lifecycle.settings.webhook_allowed_hosts; keeping the last value", "err", dberr.FromDB(err))
		}
		return
	}
	s.guard.setAllowed(hosts)
}

// loadForbiddenRanges reads lifecycle.webhook_forbidden_ranges before each batch, as the
// allowlist, and says whether it could. It fails closed: when the table cannot be read, or has no
// rows (it ships with them; an empty one was emptied, and an operator's exceptions belong in the
// allowlist), the guard is left with no ranges and refuses every dial until a read succeeds.
func (s *Syncer) loadForbiddenRanges(ctx context.Context) bool {
	rules, err := readForbiddenRanges(ctx, db.New(s.pool))
	if err != nil {
		s.guard.setRules(nil)
		if ctx.Err() == nil {
			s.log.Error("webhooks not sent: cannot read the address ranges they may not be sent to", "err", err)
		}
		return false
	}
	s.guard.setRules(rules)
	return true
}

// readForbiddenRanges is lifecycle.webhook_forbidden_ranges, read through q; an error when it
// cannot be read or holds no row.
func readForbiddenRanges(ctx context.Context, q *db.Queries) (addressRules, error) {
	rows, err := q.WebhookForbiddenRanges(ctx)
	if err != nil {
		return nil, fmt.Errorf("read lifecycle.webhook_forbidden_ranges: %w", dberr.FromDB(err))
	}
	if len(rows) == 0 {
		return nil, errors.New("lifecycle.webhook_forbidden_ranges has no rows: taken as unreadable")
	}
	rules := make(addressRules, len(rows))
	for i, r := range rows {
		rules[i] = forbiddenRange{prefix: r.Network.Masked(), reason: r.Reason}
	}
	return rules, nil
}

func (s *Syncer) deliver(ctx context.Context, d db.WebhookDeliveriesClaimRow) {
	id := *d.DeliveryID
	code, errText, cause := s.post(ctx, *d.Url, *d.Secret, IdempotencyKey(d.Body, *d.IdempotencyKey), d.Body)
	var codeArg *int32
	var errArg *string
	if code != 0 {
		codeArg = &code
	}
	if errText != "" {
		errArg = &errText
	}
	status, err := db.New(s.pool).WebhookDeliveryResult(context.WithoutCancel(ctx), db.WebhookDeliveryResultParams{
		DeliveryID: id, StatusCode: codeArg, Error: errArg, MaxAttempts: int32(s.cfg.WebhookMaxAttempts),
		Backoff: pgtype.Interval{Microseconds: s.cfg.WebhookBackoff.Microseconds(), Valid: true},
	})
	if err != nil {
		s.log.Error("record webhook delivery", "delivery_id", id, "err", dberr.FromDB(err))
		return
	}
	s.metrics.deliveries.WithLabelValues(status).Inc()
	level := s.log.Info
	if status != deliveryDelivered {
		level = s.log.Warn
	}
	level("webhook delivery", "delivery_id", id, "url", *d.Url, "status", status, "http_status", code, "err", errText, "cause", cause)
}

// post sends one attempt; it returns the HTTP status, or 0, and what last_error is to say
// (statusText, failureText: nothing the receiver sent), and the whole error for the log.
func (s *Syncer) post(ctx context.Context, url, secret, key string, body []byte) (int32, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, "invalid URL", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "nslifecycle-syncer")
	req.Header.Set(SignatureHeader, Sign(secret, body))
	req.Header.Set(IdempotencyHeader, key)
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, failureText(err), err
	}
	defer resp.Body.Close()
	// Read a little of the body, unseen, so that the connection can be reused.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode >= 300 {
		return int32(resp.StatusCode), statusText(resp.StatusCode), nil
	}
	return int32(resp.StatusCode), "", nil
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
