package hubclient

import (
	"context"
	"net/http"
	"net/netip"
)

// headerForwardedFor carries the visitor's address to the hub.
const headerForwardedFor = "X-Forwarded-For"

type visitorKey struct{}

// WithVisitor returns a copy of ctx that names addr, an IP address such as
// "203.0.113.7" or "2001:db8::1", as the visitor a call acts for. A Client
// called with such a context sends "X-Forwarded-For: addr" on upload-url,
// on the PUT of a file and on submit, so that a hub which trusts the
// caller's address as a proxy (hubform hub --trusted-proxies) counts its
// rate limit, checks the captcha and records the submission for the
// visitor rather than for the app. Schema fetches carry no address: they
// are shared between visitors and cached.
//
// The header holds addr alone, never a list handed on from elsewhere: the
// app names the visitor it saw. Anything that is not an IP address, a port
// or a list included, leaves the context naming no visitor, so no header is
// sent. A zone ("%eth0") is dropped, and an IPv4 address mapped into IPv6
// is sent as IPv4.
func WithVisitor(ctx context.Context, addr string) context.Context {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return context.WithValue(ctx, visitorKey{}, netip.Addr{})
	}
	return context.WithValue(ctx, visitorKey{}, a.WithZone("").Unmap())
}

// visitorFrom returns the visitor's address ctx names, if any.
func visitorFrom(ctx context.Context) (netip.Addr, bool) {
	a, _ := ctx.Value(visitorKey{}).(netip.Addr)
	return a, a.IsValid()
}

// setVisitor names the visitor of req's context, if any, to the hub.
func setVisitor(req *http.Request) {
	if a, ok := visitorFrom(req.Context()); ok {
		req.Header.Set(headerForwardedFor, a.String())
	}
}
