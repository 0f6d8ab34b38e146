package syncer

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/text/unicode/norm"
)

// A webhook URL is chosen by the application role, and the syncer sends from inside the
// operator's network: every address a receiver's host resolves to is checked when the syncer
// dials it, and a redirect is never followed. The registration check in SQL
// (lifecycle.webhook_url_refusal) only sees IP-literal hosts; a name may resolve anywhere, and
// resolve differently later, so this check is the one that holds. Both read the ranges from one
// table, lifecycle.webhook_forbidden_ranges (TestAddressRulesAgreeWithSQL compares the two).

// forbiddenRange is a row of lifecycle.webhook_forbidden_ranges: addresses a webhook may not be
// sent to unless the operator allows them, and why.
type forbiddenRange struct {
	prefix netip.Prefix
	reason string
}

// addressRules is lifecycle.webhook_forbidden_ranges as the syncer last read it.
type addressRules []forbiddenRange

var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// refusal says why a webhook may not be sent to a, or "" when it may, as
// lifecycle.webhook_address_refusal does: the reason of the longest range holding a. An IPv4
// address written as IPv6 (IPv4-mapped, or through the well-known NAT64 prefix) is judged as the
// IPv4 address it reaches.
func (r addressRules) refusal(a netip.Addr) string {
	a = a.WithZone("")
	if a.Is4In6() {
		a = a.Unmap()
	} else if nat64.Contains(a) {
		b := a.As16()
		a = netip.AddrFrom4([4]byte(b[12:]))
	}
	best := -1
	for i, f := range r {
		if f.prefix.Contains(a) && (best < 0 || f.prefix.Bits() > r[best].prefix.Bits()) {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return r[best].reason
}

// hostRefusal judges a host (normalised: normalizeHost) before any lookup, as
// lifecycle.webhook_url_refusal judges a URL's: a localhost name is this machine, and an
// IP-literal host, in any numeric form, is judged by its address (literal is true, ip that
// address when it is one). why is "" for a host name, whose addresses are judged once resolved.
func (r addressRules) hostRefusal(host string) (ip netip.Addr, literal bool, why string) {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return netip.Addr{}, false, "this machine (localhost)"
	}
	ip, literal, err := hostAddress(host)
	switch {
	case err != nil:
		return netip.Addr{}, true, err.Error()
	case literal:
		return ip, true, r.refusal(ip)
	}
	return netip.Addr{}, false, ""
}

// normalizeHost reads a host as a resolver does (IDNA, UTS #46) and as
// lifecycle.webhook_url_refusal does: Unicode NFKC, the ideographic full stops (U+3002, U+FF0E,
// U+FF61) as dots, lower case, without a trailing dot. So ⓛocalhost is localhost and
// １２７.０.０.１ is 127.0.0.1, whatever the HTTP client made of them before the dial.
func normalizeHost(host string) string {
	host = strings.Map(func(c rune) rune {
		switch c {
		case '\u3002', '\uff0e', '\uff61':
			return '.'
		}
		return c
	}, norm.NFKC.String(host))
	return strings.TrimSuffix(strings.ToLower(host), ".")
}

// allowlist is lifecycle.settings.webhook_allowed_hosts: host names the operator vouches for
// (dialled without a check of what they resolve to) and address ranges exempt from the check.
type allowlist struct {
	hosts    map[string]bool
	prefixes []netip.Prefix
}

// parseAllowlist reads the setting's entries (validated by lifecycle.webhook_allowed_hosts_refusal);
// an entry it cannot read allows nothing.
func parseAllowlist(entries []string) allowlist {
	a := allowlist{hosts: map[string]bool{}}
	for _, e := range entries {
		if p, err := netip.ParsePrefix(e); err == nil {
			a.prefixes = append(a.prefixes, p.Masked())
		} else if ip, err := netip.ParseAddr(e); err == nil {
			a.prefixes = append(a.prefixes, netip.PrefixFrom(ip, ip.BitLen()))
		} else if e != "" {
			a.hosts[e] = true
		}
	}
	return a
}

func (a allowlist) allows(ip netip.Addr) bool {
	ip = ip.WithZone("")
	for _, p := range a.prefixes {
		if p.Contains(ip) || (ip.Is4In6() && p.Contains(ip.Unmap())) {
			return true
		}
	}
	return false
}

// errForbiddenAddress is a dial refused because the host is, or resolves to, an address webhooks
// may not be sent to. Its text is for the syncer's log only: it names the address.
type errForbiddenAddress struct {
	host, address, reason string
}

func (e *errForbiddenAddress) Error() string {
	if e.address == "" {
		return fmt.Sprintf("webhook host %s: %s", e.host, e.reason)
	}
	return fmt.Sprintf("webhook host %s is %s: %s; not allowed by lifecycle.settings.webhook_allowed_hosts", e.host, e.address, e.reason)
}

// hostAddress reads an IP-literal host as lifecycle.webhook_url_refusal does: an IPv6 or dotted
// IPv4 address, or, when the last label is a number (the WHATWG URL standard's rule, and
// inet_aton's forms), the IPv4 address that 0x7f000001, 2130706433, 0177.0.0.1 or 127.1 stand for
// (an error when such a host is no valid address). ok is false for a host name.
func hostAddress(host string) (ip netip.Addr, ok bool, err error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip, true, nil
	}
	labels := strings.Split(host, ".")
	if !isNumberLabel(labels[len(labels)-1]) {
		return netip.Addr{}, false, nil
	}
	bad := errors.New("ends in a number but is not an IPv4 address")
	if len(labels) > 4 {
		return netip.Addr{}, true, bad
	}
	var total uint64
	for i, l := range labels {
		var v uint64
		var err error
		switch {
		case strings.HasPrefix(l, "0x"):
			digits := strings.TrimLeft(l[2:], "0")
			if len(digits) > 8 {
				return netip.Addr{}, true, bad
			}
			if digits != "" {
				v, err = strconv.ParseUint(digits, 16, 64)
			}
		case len(l) > 1 && l[0] == '0':
			digits := strings.TrimLeft(l, "0")
			if len(digits) > 11 {
				return netip.Addr{}, true, bad
			}
			if digits != "" {
				v, err = strconv.ParseUint(digits, 8, 64)
			}
		default:
			if len(l) == 0 || len(l) > 12 {
				return netip.Addr{}, true, bad
			}
			v, err = strconv.ParseUint(l, 10, 64)
		}
		if err != nil {
			return netip.Addr{}, true, bad
		}
		// Every label but the last is one byte; the last fills the bytes that are left.
		if i < len(labels)-1 {
			if v > 255 {
				return netip.Addr{}, true, bad
			}
			total += v << (8 * (3 - i))
		} else {
			if v >= 1<<(8*(4-i)) {
				return netip.Addr{}, true, bad
			}
			total += v
		}
	}
	return netip.AddrFrom4([4]byte{byte(total >> 24), byte(total >> 16), byte(total >> 8), byte(total)}), true, nil
}

func isNumberLabel(l string) bool {
	if strings.HasPrefix(l, "0x") {
		return strings.Trim(l[2:], "0123456789abcdef") == ""
	}
	return l != "" && strings.Trim(l, "0123456789") == ""
}

// guard dials webhook receivers: it resolves the host itself, refuses when any of its addresses
// is forbidden and not allowed, and then connects to exactly the addresses it checked, so a name
// that resolves differently a moment later (DNS rebinding) cannot slip past. Until it has read
// lifecycle.webhook_forbidden_ranges, and after a read that failed, it refuses every dial.
type guard struct {
	mu       sync.Mutex
	allow    allowlist
	rules    addressRules // nil: not read, every dial refused
	resolver *net.Resolver
	dialer   *net.Dialer
}

func newGuard() *guard {
	return &guard{allow: parseAllowlist(nil), resolver: net.DefaultResolver, dialer: &net.Dialer{Timeout: 10 * time.Second}}
}

func (g *guard) setAllowed(entries []string) {
	a := parseAllowlist(entries)
	g.mu.Lock()
	g.allow = a
	g.mu.Unlock()
}

// setRules sets the forbidden ranges; nil (a read that failed) refuses every dial.
func (g *guard) setRules(r addressRules) {
	g.mu.Lock()
	g.rules = r
	g.mu.Unlock()
}

func (g *guard) state() (allowlist, addressRules) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.allow, g.rules
}

// errNoAddressRules is a dial refused because the guard holds no forbidden ranges: it could not
// read lifecycle.webhook_forbidden_ranges, and sends nothing rather than everything.
var errNoAddressRules = errors.New("webhook not sent: lifecycle.webhook_forbidden_ranges has not been read")

func (g *guard) dialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	host = normalizeHost(host)
	allow, rules := g.state()
	if len(rules) == 0 {
		return nil, errNoAddressRules
	}
	if allow.hosts[host] {
		return g.dialer.DialContext(ctx, network, net.JoinHostPort(host, port))
	}
	var ips []netip.Addr
	ip, literal, why := rules.hostRefusal(host)
	switch {
	case why != "" && !(ip.IsValid() && allow.allows(ip)):
		refused := &errForbiddenAddress{host: host, reason: why}
		if ip.IsValid() {
			refused.address = ip.String()
		}
		return nil, refused
	case literal:
		ips = []netip.Addr{ip}
	default:
		if ips, err = g.resolver.LookupNetIP(ctx, "ip", host); err != nil {
			return nil, err
		} else if len(ips) == 0 {
			return nil, &net.DNSError{Err: "no address", Name: host, IsNotFound: true}
		}
		for _, ip := range ips {
			if why := rules.refusal(ip); why != "" && !allow.allows(ip) {
				return nil, &errForbiddenAddress{host: host, address: ip.String(), reason: why}
			}
		}
	}
	var last error
	for _, ip := range ips {
		c, err := g.dialer.DialContext(ctx, network, net.JoinHostPort(ip.WithZone("").String(), port))
		if err == nil {
			return c, nil
		}
		last = err
	}
	return nil, last
}

// webhookClient sends deliveries through the guard, never through a proxy from the environment
// (the proxy would do the dialling, unchecked), and never follows a redirect: a 3xx is the answer.
func webhookClient(g *guard, timeout time.Duration) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	t.DialContext = g.dialContext
	return &http.Client{
		Transport:     t,
		Timeout:       timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// failureText is what lifecycle.webhook_deliveries.last_error says about an attempt without an
// answer. The application role reads that column, so it is a fixed sentence per class of error:
// never the receiver's bytes, nor what a host name resolves to (that would map the operator's
// network for a tenant). A host that does not resolve and one that resolves to a forbidden
// address read alike for the same reason. The syncer's log has the whole error.
func failureText(err error) string {
	var forbidden *errForbiddenAddress
	var dnsErr *net.DNSError
	var netErr net.Error
	var certErr *tls.CertificateVerificationError
	var recordErr tls.RecordHeaderError
	switch {
	case errors.Is(err, errNoAddressRules):
		return "not sent: the syncer could not read the address ranges webhooks may not be sent to"
	case errors.As(err, &forbidden), errors.As(err, &dnsErr):
		return "refused: the host does not resolve to an address webhooks may be sent to"
	case errors.As(err, &netErr) && netErr.Timeout():
		return "no answer within the timeout"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return "connection reset by the receiver"
	case errors.As(err, &certErr), errors.As(err, &recordErr):
		return "TLS handshake failed"
	default:
		return "request failed"
	}
}

// statusText is last_error for an answer other than 2xx: the status code and nothing the receiver wrote.
func statusText(code int) string {
	if code >= 300 && code < 400 {
		return fmt.Sprintf("receiver answered HTTP %d, a redirect (not followed)", code)
	}
	return fmt.Sprintf("receiver answered HTTP %d", code)
}
