package testkit

import (
	"net"
	"testing"
	"time"
)

func TestWaitReady(t *testing.T) {
	calls := 0
	if !WaitReady(time.Second, nil, func() bool { calls++; return calls == 3 }) || calls != 3 {
		t.Errorf("ready on the third call: WaitReady returned after %d calls", calls)
	}
	exited := make(chan struct{})
	close(exited)
	if WaitReady(time.Minute, exited, func() bool { return false }) {
		t.Error("WaitReady reported ready after the process exited")
	}
	if WaitReady(50*time.Millisecond, nil, func() bool { return false }) {
		t.Error("WaitReady reported ready after its timeout")
	}
}

func TestFreeAddr(t *testing.T) {
	addr, err := FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listening on %s: %v", addr, err)
	}
	ln.Close()
}

func TestClock(t *testing.T) {
	start := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	c := NewClock(start)
	c.Add(time.Hour)
	if got := c.Now(); !got.Equal(start.Add(time.Hour)) {
		t.Errorf("Now after Add = %v", got)
	}
	c.Set(start)
	if got := c.Now(); !got.Equal(start) {
		t.Errorf("Now after Set = %v", got)
	}
}
