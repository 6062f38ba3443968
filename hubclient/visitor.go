package hubclient

import (
	"context"
	"net/http"
	"net/netip"
)

// headerForwardedFor carries the visitor's address to the hub.
const headerForwardedFor = "X-Forwarded-For"

type visitorKey struct{}

// WithVisitor returns a copy of ctx that names addr as the visitor a call
// acts for, as Client.Visitor does: a Client called with such a context,
// and no Visitor of its own, sends "X-Forwarded-For: addr" on the calls
// Client.Visitor names. It is how NewSubmit's OnSubmit learns the visitor;
// Go code that has the address at hand sets Client.Visitor or
// Submission.Visitor instead.
//
// Anything that is not an IP address leaves the context naming no
// visitor, an outer context's included.
func WithVisitor(ctx context.Context, addr string) context.Context {
	return context.WithValue(ctx, visitorKey{}, visitorAddr(addr))
}

// visitorAddr returns addr as the address sent to the hub: the invalid
// address, which names no visitor, when addr is not an IP address (a port
// or a list included), without its zone, and an IPv4 address mapped into
// IPv6 as IPv4. The header holds the address alone, never a list handed
// on from elsewhere: the app names the visitor it saw.
func visitorAddr(addr string) netip.Addr {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return netip.Addr{}
	}
	return a.WithZone("").Unmap()
}

// visitor returns the visitor's address a call with ctx names: c.Visitor
// when set, else the context's (WithVisitor), if any.
func (c *Client) visitor(ctx context.Context) (netip.Addr, bool) {
	a, _ := ctx.Value(visitorKey{}).(netip.Addr)
	if c.Visitor != "" {
		a = visitorAddr(c.Visitor)
	}
	return a, a.IsValid()
}

// setVisitor names the visitor of a call, if any, to the hub.
func (c *Client) setVisitor(req *http.Request) {
	if a, ok := c.visitor(req.Context()); ok {
		req.Header.Set(headerForwardedFor, a.String())
	}
}
