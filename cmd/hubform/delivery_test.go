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
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/delivery"
	"github.com/hubform/hubform/handlers/hub/delivery/mailpittest"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
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
func webhookForms(t testing.TB, url string) string {
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
	t.Parallel()
	if testing.Short() {
		t.Skip("runs a burst of submissions against a process, and waits for River's rescuer")
	}
	killMidBurst(t, func(forms string, flags []string) (*hubProcess, func()) {
		data := t.TempDir()
		return startHub(t, forms, data, flags...), func() { startHub(t, forms, data, flags...) }
	})
}

// TestDeliveriesTakenOverOnPostgres runs two hubs on one PostgreSQL
// database and kills the one taking the burst: the other, running all
// along, delivers every acknowledged submission, those under way on the
// dead hub included.
func TestDeliveriesTakenOverOnPostgres(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs a burst of submissions against processes, and waits for River's rescuer")
	}
	dbURL := pgtest.URL(t)
	killMidBurst(t, func(forms string, flags []string) (*hubProcess, func()) {
		flags = append(flags, "--db", dbURL)
		first := startHub(t, forms, t.TempDir(), flags...)
		startHub(t, forms, t.TempDir(), flags...)
		return first, func() {}
	})
}

// killMidBurst runs the kill test. start starts the hub that takes the
// burst, with the flags given, and returns it and what to do once it is
// killed for the rest to be delivered.
func killMidBurst(t *testing.T, start func(forms string, flags []string) (*hubProcess, func())) {
	r, url := newFlakyReceiver(t)
	forms := webhookForms(t, url)
	p, afterKill := start(forms, []string{"--webhook-allow-nets", "127.0.0.1", "--delivery-backoff", "20ms", "--delivery-timeout", "2s"})
	// Paced: stored in batches, submissions would outrun the deliveries,
	// which wait for the queue's retries, by tens of thousands.
	burst := startBurst(&hubclient.Client{HubURL: p.url, Timeout: 5 * time.Second}, 8, 20*time.Millisecond)
	// Kill once some deliveries are through and others are under way.
	waitForN(t, 30*time.Second, func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return len(r.subs) >= 20 && burst.count() >= 100
	})
	p.cmd.Process.Kill()
	<-p.done
	p.done <- nil
	acked := burst.end()
	r.mu.Lock()
	before := len(r.subs)
	r.mu.Unlock()

	afterKill()
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

// TestDeliveriesCommand lists a failed delivery with its error, retries it
// once the receiver is back, and lists it delivered, with one webhook-id.
func TestDeliveriesCommand(t *testing.T) {
	t.Parallel()
	var (
		mu   sync.Mutex
		up   bool
		seen []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, r.Header.Get(delivery.HeaderID))
		if !up {
			w.WriteHeader(http.StatusBadGateway)
		}
	}))
	defer srv.Close()
	forms, data := webhookForms(t, srv.URL), t.TempDir()
	// A long backoff: the failed delivery waits for the retry command.
	p := startHub(t, forms, data, "--webhook-allow-nets", "127.0.0.0/8", "--delivery-backoff", "1h")
	res, err := (&hubclient.Client{HubURL: p.url}).Submit(context.Background(), "acme", "contact",
		&hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane"}})
	if err != nil {
		t.Fatal(err)
	}
	list := func() []delivery.Delivery {
		status, stdout, stderr := hubform(t, "deliveries", "list", "--data", data, "--site", "acme", "--form", "contact", "--format", "json")
		var ds []delivery.Delivery
		if status != 0 || json.Unmarshal([]byte(stdout), &ds) != nil {
			t.Fatalf("list: status %d, %q %q", status, stdout, stderr)
		}
		return ds
	}
	var ds []delivery.Delivery
	waitForN(t, 30*time.Second, func() bool { ds = list(); return len(ds) == 1 && ds[0].Outcome == delivery.OutcomeRetrying })
	d := ds[0]
	if d.SubmissionID != res.SubmissionID || d.Target != srv.URL || d.Attempts != 1 || len(d.Errors) != 1 ||
		!strings.Contains(d.Errors[0].Error, "502") || d.Next.Before(time.Now().Add(30*time.Minute)) {
		t.Fatalf("delivery %+v", d)
	}
	status, stdout, stderr := hubform(t, "deliveries", "list", "--data", data, "--site", "acme", "--form", "contact")
	if status != 0 || !strings.Contains(stdout, "retrying") || !strings.Contains(stdout, "502 Bad Gateway") {
		t.Errorf("table: status %d, %q %q", status, stdout, stderr)
	}

	mu.Lock()
	up = true
	mu.Unlock()
	status, stdout, stderr = hubform(t, "deliveries", "retry", "--data", data, strconv.FormatInt(d.ID, 10))
	if status != 0 {
		t.Fatalf("retry: status %d, %q %q", status, stdout, stderr)
	}
	waitForN(t, 30*time.Second, func() bool { ds = list(); return ds[0].Outcome == delivery.OutcomeDelivered })
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 2 || seen[0] != seen[1] || seen[0] != delivery.WebhookID(res.SubmissionID, d.ID) {
		t.Errorf("webhook ids %v, want twice %s", seen, delivery.WebhookID(res.SubmissionID, d.ID))
	}

	for _, args := range [][]string{
		{"deliveries"}, {"deliveries", "list", "--data", data}, {"deliveries", "retry", "--data", data},
		{"deliveries", "retry", "--data", data, "x"}, {"deliveries", "list", "--data", data, "--site", "a", "--form", "b", "--format", "csv"},
	} {
		if status, _, stderr := hubform(t, args...); status != 2 || stderr == "" {
			t.Errorf("%q: status %d, stderr %q; want 2 and a message", args, status, stderr)
		}
	}
	if status, _, stderr := hubform(t, "deliveries", "retry", "--data", data, "999999"); status != 1 || !strings.Contains(stderr, "999999") {
		t.Errorf("retry of a missing id: status %d, %q", status, stderr)
	}
}

// TestHubSendsEmail runs the hub with --smtp-url and --smtp-from against a
// real SMTP server and reads the message of a submission back.
func TestHubSendsEmail(t *testing.T) {
	t.Parallel()
	mp := mailpittest.Start(t)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "acme"), 0o755)
	form := `{"title": "Contact", "fields": [{"name": "name", "type": "text", "label": "Your name"},
		{"name": "email", "type": "email", "label": "Email"}],
		"hub": {"notify": {"email": ["owner@example.com"], "replyToField": "email"}}}`
	if err := os.WriteFile(filepath.Join(dir, "acme", "contact.json"), []byte(form), 0o644); err != nil {
		t.Fatal(err)
	}
	// Notifications go to the members of the form's workspace.
	data := t.TempDir()
	addUser(t, "owner@example.com", "correct horse battery", "--data", data)
	p := startHub(t, dir, data, "--smtp-url", mp.URL(), "--smtp-from", "forms@example.com")
	if _, err := (&hubclient.Client{HubURL: p.url}).Submit(context.Background(), "acme", "contact",
		&hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane", "email": "jane@example.net"}}); err != nil {
		t.Fatal(err)
	}
	var list []mailpittest.Summary
	waitForN(t, 30*time.Second, func() bool { list = mp.Messages(t); return len(list) > 0 })
	m := mp.Message(t, list[0].ID)
	if len(list) != 1 || m.Subject != "New submission: Contact" || m.From.Address != "forms@example.com" ||
		len(m.To) != 1 || m.To[0].Address != "owner@example.com" || len(m.ReplyTo) != 1 ||
		!strings.Contains(m.Text, "Your name:\r\n  Jane") {
		t.Errorf("%d messages; %+v; hub log:\n%s", len(list), m, p.log)
	}
}

func TestDeliveryFlagErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--smtp-url", "smtp://127.0.0.1:25"}, "--smtp-from"},
		{[]string{"--smtp-url", "smtp://u:secretpw@127.0.0.1:x", "--smtp-from", "a@example.com"}, "--smtp-url"},
		{[]string{"--webhook-allow-nets", "nope"}, "--webhook-allow-nets"},
		{[]string{"--delivery-timeout", "-1s"}, "--delivery-timeout"},
	} {
		args := append([]string{"hub", "--forms", t.TempDir(), "--data", t.TempDir(), "--addr", "127.0.0.1:0"}, tc.args...)
		status, _, stderr := hubform(t, args...)
		if status != 1 || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "secretpw") {
			t.Errorf("%q: status %d, stderr %q; want 1 and %q", tc.args, status, stderr, tc.want)
		}
	}
	_, stdout, _ := hubform(t, "hub", "--help")
	for _, want := range []string{"--smtp-url URL", "HUBFORM_SMTP_FROM", "--webhook-allow-nets CIDRS", "HUBFORM_DELIVERY_TIMEOUT", "HUBFORM_DELIVERY_BACKOFF"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("hub --help lacks %q", want)
		}
	}
}
