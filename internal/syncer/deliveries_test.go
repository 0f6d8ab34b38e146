package syncer

import "testing"

// The header is the body's idempotency_key (the audit row's key), not the delivery row's, which
// adds the webhook id; a body without one (none is written so) falls back to the delivery's key.
func TestIdempotencyKeyIsTheBodys(t *testing.T) {
	for _, c := range []struct{ body, delivery, want string }{
		{`{"id": 7, "action": "archived", "idempotency_key": "0/1F15BE0/0"}`, "0/1F15BE0/0/1", "0/1F15BE0/0"},
		{`{"idempotency_key": "A/FF/12", "details": {"idempotency_key": "nested"}}`, "A/FF/12/30", "A/FF/12"},
		{`{"action": "archived"}`, "0/1F15BE0/0/1", "0/1F15BE0/0/1"},
		{`not json`, "0/1/0/1", "0/1/0/1"},
	} {
		if got := IdempotencyKey([]byte(c.body), c.delivery); got != c.want {
			t.Errorf("IdempotencyKey(%s, %q) = %q, want %q", c.body, c.delivery, got, c.want)
		}
	}
}
