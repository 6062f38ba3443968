package delivery_test

import (
	"testing"

	"github.com/hubform/hubform/handlers/hub/delivery"
)

// TestIsPrivateHost checks the hosts a webhook's address may be refused
// for when it is set: localhost and the addresses the hub's client
// refuses, written as they stand in a URL; names are left to the check
// as each delivery connects.
func TestIsPrivateHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST.": true, "app.localhost": true,
		"127.0.0.1": true, "10.1.2.3": true, "192.168.0.10": true, "172.16.5.4": true, "169.254.169.254": true,
		"100.64.0.1": true, "0.0.0.0": true, "224.0.0.1": true, "::1": true, "[::1]": true, "fc00::1": true, "fe80::1": true,
		"::ffff:127.0.0.1":  true,
		"hooks.example.com": false, "93.184.216.34": false, "2606:4700::1111": false, "[2606:4700::1111]": false,
		"localhost.example.com": false, "internal": false,
	} {
		if got := delivery.IsPrivateHost(host); got != want {
			t.Errorf("IsPrivateHost(%q) = %v, want %v", host, got, want)
		}
	}
}
