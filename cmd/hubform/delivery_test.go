package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/delivery"
	"github.com/hubform/hubform/hubclient"
)

const webhookSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// flakyReceiver is a webhook receiver that refuses the first two attempts
// of every delivery and records the deliveries it accepts, checking each
// signature.
type flakyReceiver struct {
	key []byte

	mu       sync.Mutex
	attempts map[string]int // webhook-id → attempts
	accepted map[string]int // webhook-id → accepted deliveries
	subs     map[string]int // submission id → accepted deliveries
	bad      []string
}

func newFlakyReceiver(t *testing.T) (*flakyReceiver, string) {
	key, err := hub.Webhook{Secret: webhookSecret}.Key()
	if err != nil {
		t.Fatal(err)
	}
	r := &flakyReceiver{key: key, attempts: map[string]int{}, accepted: map[string]int{}, subs: map[string]int{}}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return r, srv.URL + "/hook"
}

func (r *flakyReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	id := req.Header.Get(delivery.HeaderID)
	sec, _ := strconv.ParseInt(req.Header.Get(delivery.HeaderTimestamp), 10, 64)
	r.mu.Lock()
	defer r.mu.Unlock()
	if req.Header.Get(delivery.HeaderSignature) != delivery.Sign(r.key, id, time.Unix(sec, 0), body) {
		r.bad = append(r.bad, id+": bad signature")
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	r.attempts[id]++
	if r.attempts[id] <= 2 {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	var ev delivery.Event
	if err := json.Unmarshal(body, &ev); err != nil || ev.Type != delivery.EventSubmissionCreated {
		r.bad = append(r.bad, fmt.Sprintf("%s: event %s (%v)", id, body, err))
	}
	r.accepted[id]++
	r.subs[ev.Data.SubmissionID]++
	w.WriteHeader(http.StatusOK)
}

// webhookForms returns a forms directory whose acme/contact sends each
// submission to url.
func webhookForms(t *testing.T, url string) string {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "acme"), 0o755)
	form := `{"title": "Contact", "fields": [{"name": "name", "type": "text", "label": "Name"}],
		"hub": {"webhooks": [{"url": "` + url + `", "secret": "` + webhookSecret + `"}]}}`
	if err := os.WriteFile(filepath.Join(dir, "acme", "contact.json"), []byte(form), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestDeliveriesSurviveSIGKILL sends a burst of submissions to a form with
// a receiver that fails the first two attempts of each delivery, kills the
// hub in the middle, and restarts it: every acknowledged submission
// reaches the receiver, signed; deliveries accepted twice are reported.
func TestDeliveriesSurviveSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a burst of submissions against a process, and waits for River's rescuer")
	}
	r, url := newFlakyReceiver(t)
	forms, data := webhookForms(t, url), t.TempDir()
	flags := []string{"--webhook-allow-nets", "127.0.0.1", "--delivery-backoff", "20ms", "--delivery-timeout", "2s"}
	p := startHub(t, forms, data, flags...)
	c := &hubclient.Client{HubURL: p.url, Timeout: 5 * time.Second}
	var (
		mu    sync.Mutex
		acked []string
		wg    sync.WaitGroup
	)
	stop := make(chan struct{})
	for w := range 8 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				res, err := c.Submit(context.Background(), "acme", "contact", &hubclient.SubmitRequest{
					Payload: map[string]any{"name": fmt.Sprintf("worker %d #%d", w, i)},
				})
				if err != nil {
					continue // refused connections once the hub is dead
				}
				mu.Lock()
				acked = append(acked, res.SubmissionID)
				mu.Unlock()
			}
		})
	}
	// Kill once some deliveries are through and others are under way.
	waitForN(t, 30*time.Second, func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		mu.Lock()
		defer mu.Unlock()
		return len(r.subs) >= 20 && len(acked) >= 100
	})
	p.cmd.Process.Kill()
	<-p.done
	p.done <- nil
	close(stop)
	wg.Wait()
	r.mu.Lock()
	before := len(r.subs)
	r.mu.Unlock()

	startHub(t, forms, data, flags...)
	missing := func() int {
		r.mu.Lock()
		defer r.mu.Unlock()
		n := 0
		for _, id := range acked {
			if r.subs[id] == 0 {
				n++
			}
		}
		return n
	}
	// A delivery running when the hub died waits for River's rescuer,
	// which looks every 30 seconds.
	waitForN(t, 2*time.Minute, func() bool { return missing() == 0 })
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.bad) > 0 {
		t.Errorf("receiver saw: %v", r.bad)
	}
	dup := 0
	for _, n := range r.accepted {
		if n > 1 {
			dup += n - 1
		}
	}
	t.Logf("%d submissions acknowledged, %d delivered before the kill, %d delivered in all, %d deliveries accepted more than once",
		len(acked), before, len(r.subs), dup)
}

// waitForN polls cond until it holds, failing the test after d.
func waitForN(t *testing.T, d time.Duration, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("condition not met within %v", d)
}
