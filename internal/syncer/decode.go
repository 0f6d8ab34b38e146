package syncer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Why a message with the fact prefix is no fact, and is ignored (lifecycle_syncer_messages_ignored_total).
const (
	reasonTooLarge    = "too_large"    // over -fact-max-bytes
	reasonUnreadable  = "unreadable"   // not JSON that jsonb accepts, or nested deeper than factMaxDepth
	reasonInvalidFact = "invalid_fact" // JSON, but not a fact's shape (lifecycle.fact_refusal)
)

const (
	// Deeper nesting is refused before PostgreSQL's recursive JSON parser sees it. A fact's
	// details (state metadata, a transfer, a membership) are three or four levels deep.
	factMaxDepth = 64
	// lifecycle.fact_refusal: an action is a string of 1 to factActionMaxBytes bytes.
	factActionMaxBytes = 128
	// What is kept of a message that is no fact, for tests and logs.
	refusalPayloadMax = 8192
	// What is kept of the explanation.
	refusalDetailMax = 1000
)

// refusal is a message with the fact prefix that cannot be a fact.
type refusal struct {
	reason  string
	err     error  // the explanation (the detail column)
	payload []byte // the message's first refusalPayloadMax bytes, a copy of its own
	size    int    // the message's whole size
}

func newRefusal(reason string, err error, content []byte) *refusal {
	return &refusal{reason: reason, err: err, payload: bytes.Clone(content[:min(len(content), refusalPayloadMax)]),
		size: len(content)}
}

// detail is the explanation as text PostgreSQL takes: valid UTF-8, no NUL, bounded.
func (d *refusal) detail() string {
	s := strings.ReplaceAll(strings.ToValidUTF8(d.err.Error(), "\uFFFD"), "\x00", `\x00`)
	if len(s) > refusalDetailMax {
		cut := refusalDetailMax
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

var errTooDeep = errors.New("nested too deep")

// decodeFact is the one way a message with the fact prefix (a fact before migration 035) is read.
// It accepts exactly what lifecycle.fact_message_adopt can adopt: a payload PostgreSQL's jsonb takes (valid UTF-8 without NUL,
// JSON, no \u0000 escape, no unpaired surrogate escape, every number one numeric can hold) of the
// shape lifecycle.fact_refusal accepts; and nested at most factMaxDepth deep, no longer than
// maxBytes. Anything else is returned with its reason (fact.refused) and ignored, so that no message
// can make the recording transaction fail. The payload is copied (the receive buffer is
// reused), and of a refusal only what it keeps. The checks assume a UTF8 database (a Unicode
// escape above ASCII fails in any other); FuzzFactDecode checks the verdicts against PostgreSQL.
func decodeFact(content []byte, maxBytes int) fact {
	if len(content) > maxBytes {
		return fact{refused: newRefusal(reasonTooLarge,
			fmt.Errorf("%d bytes, more than the syncer's -fact-max-bytes %d", len(content), maxBytes), content)}
	}
	if err := jsonbAccepts(content); err != nil {
		return fact{refused: newRefusal(reasonUnreadable, err, content)}
	}
	f, err := factFields(content)
	if err != nil {
		return fact{refused: newRefusal(reasonInvalidFact, err, content)}
	}
	f.raw = bytes.Clone(content)
	return f
}

// factFields reads a fact's fields out of JSON that jsonbAccepts, with lifecycle.fact_refusal's
// rules: the same verdict, and the values fact_message_adopt extracts.
func factFields(content []byte) (fact, error) {
	var f fact
	if c := firstByte(content); c != '{' {
		return f, fmt.Errorf("the fact is %s, not an object", jsonType(c))
	}
	// Keys compared exactly, the last of duplicates kept: as jsonb does (a struct would match keys
	// case-insensitively).
	var m map[string]json.RawMessage
	if err := json.Unmarshal(content, &m); err != nil {
		return f, err
	}
	action, ok := m["action"]
	if c := firstByte(action); !ok || c != '"' {
		return f, fmt.Errorf("action is %s, not a string", jsonTypeOrMissing(action, ok))
	}
	if err := json.Unmarshal(action, &f.Action); err != nil {
		return f, err
	}
	if len(f.Action) < 1 || len(f.Action) > factActionMaxBytes {
		return f, fmt.Errorf("action is %d bytes long, not 1 to %d", len(f.Action), factActionMaxBytes)
	}
	for _, id := range []struct {
		key string
		to  **int64
	}{{"namespace_id", &f.NamespaceID}, {"actor_id", &f.ActorID}} {
		v, ok := m[id.key]
		if !ok || firstByte(v) == 'n' {
			continue
		}
		n, ok := jsonInteger(v)
		if !ok {
			return f, fmt.Errorf("%s is not an integer (bigint) or null", id.key)
		}
		*id.to = &n
	}
	if v, ok := m["traversal_ids"]; ok {
		var elems []json.RawMessage
		if firstByte(v) != '[' || json.Unmarshal(v, &elems) != nil {
			return f, errors.New("traversal_ids is not an array of integers (bigint)")
		}
		f.Traversal = make([]int64, 0, len(elems))
		for _, e := range elems {
			n, ok := jsonInteger(e)
			if !ok {
				return f, errors.New("traversal_ids is not an array of integers (bigint)")
			}
			f.Traversal = append(f.Traversal, n)
		}
	}
	if v, ok := m["full_path"]; ok {
		if c := firstByte(v); c != '"' && c != 'n' {
			return f, fmt.Errorf("full_path is %s, not a string or null", jsonType(c))
		}
	}
	if v, ok := m["details"]; ok && firstByte(v) != '{' {
		return f, fmt.Errorf("details is %s, not an object", jsonType(firstByte(v)))
	}
	return f, nil
}

func firstByte(b []byte) byte {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// jsonType names a JSON value by its first byte, as jsonb_typeof does.
func jsonType(c byte) string {
	switch c {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

func jsonTypeOrMissing(v []byte, ok bool) string {
	if !ok {
		return "missing"
	}
	return jsonType(firstByte(v))
}

// jsonInteger is a JSON number (jsonbAccepts took it) as lifecycle.fact_refusal sees an integer:
// jsonb keeps it with scale 0 (1e2 is 100, 1.0 and 10e-1 are not integers), within int64.
func jsonInteger(v []byte) (int64, bool) {
	v = bytes.Trim(v, " \t\r\n")
	if c := firstByte(v); c != '-' && (c < '0' || c > '9') {
		return 0, false
	}
	n, ok := parseNumber(v)
	if !ok || n.scale() != 0 {
		return 0, false
	}
	digits := strings.TrimLeft(n.digits, "0")
	if digits == "" {
		return 0, true // -0, 0e5, 0.0e1
	}
	shift := n.exp - int64(len(n.frac)) // ≥ 0: the scale is 0
	if int64(len(digits))+shift > 19 {
		return 0, false
	}
	s := digits + strings.Repeat("0", int(shift))
	if n.neg {
		s = "-" + s
	}
	i, err := strconv.ParseInt(s, 10, 64)
	return i, err == nil
}

// number is a JSON number's parts: sign, integer and fraction digits, exponent.
type number struct {
	neg          bool
	int, frac    string
	digits       string // int + frac
	exp          int64
	expOverflows bool // beyond what PostgreSQL's numeric input takes (±(INT_MAX/2))
}

// pgExpLimit: numeric input refuses an exponent at or beyond INT_MAX/2 either way.
const pgExpLimit = 1<<30 - 1

// parseNumber splits a JSON number token (already checked against the grammar).
func parseNumber(tok []byte) (number, bool) {
	var n number
	s := string(tok)
	if strings.HasPrefix(s, "-") {
		n.neg, s = true, s[1:]
	}
	mant, exp, hasExp := strings.Cut(strings.ReplaceAll(s, "E", "e"), "e")
	n.int, n.frac, _ = strings.Cut(mant, ".")
	n.digits = n.int + n.frac
	if n.int == "" {
		return n, false
	}
	if hasExp {
		neg := strings.HasPrefix(exp, "-")
		exp = strings.TrimLeft(strings.TrimLeft(exp, "+-"), "0")
		if len(exp) > 10 {
			n.expOverflows = true
			return n, true
		}
		e, _ := strconv.ParseInt("0"+exp, 10, 64)
		if e >= pgExpLimit {
			n.expOverflows = true
		}
		if neg {
			e = -e
		}
		n.exp = e
	}
	return n, true
}

// scale is numeric's display scale of the number: its fraction digits less the exponent, at least 0.
func (n number) scale() int64 { return max(0, int64(len(n.frac))-n.exp) }

// pgNumericRefusal says why PostgreSQL's numeric cannot hold the number, or "" when it can:
// numeric keeps a display scale up to 16383 and a weight (base-10000 digits before the point, less
// one) from -32768 to 32767, zero always having weight 0 (src/backend/utils/adt/numeric.c,
// set_var_from_str and make_result).
func (n number) pgNumericRefusal() string {
	if n.expOverflows {
		return "its exponent is out of numeric's range"
	}
	if n.scale() > 16383 {
		return "it has more than 16383 digits after the point"
	}
	k := strings.IndexFunc(n.digits, func(r rune) bool { return r != '0' })
	if k < 0 {
		return ""
	}
	// The decimal exponent of the first non-zero digit, and its base-10000 weight (floored).
	e := int64(len(n.int)) - 1 - int64(k) + n.exp
	w := e / 4
	if e < 0 && e%4 != 0 {
		w--
	}
	if w > 32767 || w < -32768 {
		return "it is too large for numeric"
	}
	return ""
}

// jsonbAccepts says why PostgreSQL's jsonb input would refuse the payload (or this reader's nesting
// bound: errTooDeep), or nil when it takes it.
func jsonbAccepts(b []byte) error {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return fmt.Errorf("a NUL byte at offset %d", i)
	}
	if !utf8.Valid(b) {
		i := 0
		for i < len(b) {
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			i += size
		}
		return fmt.Errorf("invalid UTF-8 at offset %d", i)
	}
	s := &scanner{b: b}
	s.space()
	if err := s.value(0); err != nil {
		return err
	}
	s.space()
	if s.i < len(s.b) {
		return s.unexpected("after the value")
	}
	return nil
}

// scanner checks JSON text with PostgreSQL's rules beside RFC 8259's.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

func (s *scanner) unexpected(where string) error {
	if s.i >= len(s.b) {
		return fmt.Errorf("not JSON: the input ends %s", where)
	}
	r, _ := utf8.DecodeRune(s.b[s.i:])
	return fmt.Errorf("not JSON: unexpected %q at offset %d %s", r, s.i, where)
}

// value reads one value at s.i (no leading space) at nesting depth.
func (s *scanner) value(depth int) error {
	if s.i >= len(s.b) {
		return s.unexpected("where a value was expected")
	}
	switch c := s.b[s.i]; {
	case c == '{' || c == '[':
		if depth+1 > factMaxDepth {
			return fmt.Errorf("%w: more than %d levels at offset %d", errTooDeep, factMaxDepth, s.i)
		}
		return s.container(depth + 1)
	case c == '"':
		return s.string()
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return s.unexpected("where a value was expected")
}

func (s *scanner) literal(word string) error {
	if !bytes.HasPrefix(s.b[s.i:], []byte(word)) {
		return s.unexpected("where a value was expected")
	}
	s.i += len(word)
	return nil
}

// container reads an object or an array (s.i at its opening bracket).
func (s *scanner) container(depth int) error {
	object := s.b[s.i] == '{'
	closing := byte(']')
	if object {
		closing = '}'
	}
	s.i++
	s.space()
	if s.i < len(s.b) && s.b[s.i] == closing {
		s.i++
		return nil
	}
	for {
		if object {
			if s.i >= len(s.b) || s.b[s.i] != '"' {
				return s.unexpected("where a key was expected")
			}
			if err := s.string(); err != nil {
				return err
			}
			s.space()
			if s.i >= len(s.b) || s.b[s.i] != ':' {
				return s.unexpected("where ':' was expected")
			}
			s.i++
			s.space()
		}
		if err := s.value(depth); err != nil {
			return err
		}
		s.space()
		if s.i < len(s.b) && s.b[s.i] == ',' {
			s.i++
			s.space()
			continue
		}
		if s.i < len(s.b) && s.b[s.i] == closing {
			s.i++
			return nil
		}
		return s.unexpected(fmt.Sprintf("where ',' or '%c' was expected", closing))
	}
}

// string reads a string (s.i at its quote). jsonb decodes every escape: \u0000 has no text form, and
// a surrogate escape must be a high one followed at once by a low one.
func (s *scanner) string() error {
	start := s.i
	s.i++
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return nil
		case c < 0x20:
			return fmt.Errorf("not JSON: control character %#02x unescaped in the string at offset %d", c, start)
		case c != '\\':
			s.i++
			continue
		}
		if s.i+1 >= len(s.b) {
			break
		}
		switch s.b[s.i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			s.i += 2
			continue
		case 'u':
		default:
			s.i++
			return s.unexpected("in an escape")
		}
		at := s.i
		u, ok := s.hex4()
		switch {
		case !ok:
			return fmt.Errorf("not JSON: a \\u escape without four hex digits at offset %d", at)
		case u == 0:
			return fmt.Errorf("a \\u0000 escape at offset %d (jsonb has no text for it)", at)
		case u >= 0xDC00 && u <= 0xDFFF:
			return fmt.Errorf("a low surrogate escape not after a high one at offset %d", at)
		case u >= 0xD800 && u <= 0xDBFF:
			if low, ok := s.hex4(); !ok || low < 0xDC00 || low > 0xDFFF {
				return fmt.Errorf("a high surrogate escape not followed by a low one at offset %d", at)
			}
		}
	}
	return fmt.Errorf("not JSON: the string at offset %d does not end", start)
}

// hex4 reads \uXXXX at s.i.
func (s *scanner) hex4() (rune, bool) {
	if s.i+6 > len(s.b) || s.b[s.i] != '\\' || s.b[s.i+1] != 'u' {
		return 0, false
	}
	u, err := strconv.ParseUint(string(s.b[s.i+2:s.i+6]), 16, 16)
	if err != nil {
		return 0, false
	}
	s.i += 6
	return rune(u), true
}

// number reads a number: RFC 8259's grammar, and a value PostgreSQL's numeric can hold.
func (s *scanner) number() error {
	start := s.i
	digits := func() int {
		n := 0
		for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	if s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
	case digits() == 0:
		return s.unexpected("in a number")
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if digits() == 0 {
			return s.unexpected("in a number's fraction")
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if digits() == 0 {
			return s.unexpected("in a number's exponent")
		}
	}
	n, ok := parseNumber(s.b[start:s.i])
	if !ok {
		return fmt.Errorf("not JSON: the number at offset %d", start)
	}
	if why := n.pgNumericRefusal(); why != "" {
		tok := string(s.b[start:s.i])
		if len(tok) > 40 {
			tok = tok[:40] + "…"
		}
		return fmt.Errorf("the number %s at offset %d: %s", tok, start, why)
	}
	return nil
}
