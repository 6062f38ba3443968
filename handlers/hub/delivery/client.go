package delivery

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"time"
)

// Network is a network webhook receivers may be in although it is private.
type Network = net.IPNet

// ErrPrivateAddress is returned, wrapped, when a webhook's host resolves
// to an address the hub does not send to: loopback, private, link-local,
// shared, multicast or unspecified, outside the allowed networks.
var ErrPrivateAddress = errors.New("address not allowed for webhooks")

// NewHTTPClient returns the client webhooks are sent with: each attempt
// takes timeout at most, redirects are not followed (a 3xx answer is a
// failure, retried), no proxy from the environment is used, and every
// connection is refused whose address is not public unless allow holds it.
// The address is checked once resolved, as the socket is made, so a name
// that resolves differently later cannot slip past.
func NewHTTPClient(timeout time.Duration, allow []*Network) *http.Client {
	d := &net.Dialer{
		Timeout: 10 * time.Second,
		Control: func(network, address string, _ syscall.RawConn) error {
			return checkAddress(address, allow)
		},
	}
	t := &http.Transport{
		Proxy:                 nil,
		DialContext:           d.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: timeout,
	}
	return &http.Client{
		Transport: t,
		Timeout:   timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// checkAddress returns an error wrapping ErrPrivateAddress unless the
// host:port address is public or in allow.
func checkAddress(address string, allow []*Network) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return err
	}
	ip = ip.Unmap()
	for _, n := range allow {
		if n.Contains(ip.AsSlice()) {
			return nil
		}
	}
	if !ip.IsGlobalUnicast() || ip.IsPrivate() || sharedSpace.Contains(ip) {
		return fmt.Errorf("%s: %w", ip, ErrPrivateAddress)
	}
	return nil
}

// sharedSpace is the carrier-grade NAT range (RFC 6598), private in
// practice though netip does not call it so.
var sharedSpace = netip.MustParsePrefix("100.64.0.0/10")

// IsPrivateHost reports whether host, a URL's host without its port,
// plainly names an address the hub sends no webhook to unless the operator
// allows its network: localhost, or an IP address that is not public. A
// name is checked once resolved, as each delivery connects; this is the
// check that can be made when a receiver is set, to say so at once.
func IsPrivateHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	if err != nil {
		return false
	}
	return checkAddress(netip.AddrPortFrom(ip, 443).String(), nil) != nil
}
