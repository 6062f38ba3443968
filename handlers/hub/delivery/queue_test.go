package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/postgres"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
	"github.com/hubform/hubform/handlers/hub/sqlite"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// forms is a hub.Forms of fixed forms.
type forms map[string]*hub.Form

func (f forms) Lookup(site, slug string) (*hub.Form, error) {
	if form, ok := f[site+"/"+slug]; ok {
		return form, nil
	}
	return nil, hub.ErrNotFound
}

// receiver is a webhook receiver that refuses the first fails attempts of
// every delivery, and records what it got.
type receiver struct {
	t     testing.TB
	key   []byte
	fails int

	mu       sync.Mutex
	attempts map[string]int   // webhook-id → attempts
	bodies   map[string]Event // webhook-id → body delivered
	bad      []string         // problems seen
	done     chan string      // webhook-id of each delivery accepted
}

func newReceiver(t testing.TB, fails int) (*receiver, *httptest.Server) {
	key, err := hub.Webhook{Secret: secret}.Key()
	if err != nil {
		t.Fatal(err)
	}
	r := &receiver{t: t, key: key, fails: fails, attempts: map[string]int{}, bodies: map[string]Event{}, done: make(chan string, 1000)}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return r, srv
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	id := req.Header.Get(HeaderID)
	r.mu.Lock()
	defer r.mu.Unlock()
	var sec int64
	if _, err := fmt.Sscan(req.Header.Get(HeaderTimestamp), &sec); err != nil {
		r.bad = append(r.bad, "bad timestamp "+req.Header.Get(HeaderTimestamp))
	}
	if got, want := req.Header.Get(HeaderSignature), Sign(r.key, id, time.Unix(sec, 0), body); got != want {
		r.bad = append(r.bad, fmt.Sprintf("%s: signature %s, want %s", id, got, want))
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	r.attempts[id]++
	if r.attempts[id] <= r.fails {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	var ev Event
	if err := json.Unmarshal(body, &ev); err != nil {
		r.bad = append(r.bad, id+": "+err.Error())
	}
	r.bodies[id] = ev
	w.WriteHeader(http.StatusNoContent)
	r.done <- id
}

// openQueue returns a queue working on db, with short delays.
func openQueue(t *testing.T, db *sqldb.DB, pgURL string, fs hub.FormSource) *Queue {
	t.Helper()
	return openQueueWith(t, db, pgURL, fs, func(*Config) {})
}

// openQueueWith is openQueue with the configuration changed by change.
func openQueueWith(t *testing.T, db *sqldb.DB, pgURL string, fs hub.FormSource, change func(*Config)) *Queue {
	t.Helper()
	cfg := Config{
		Forms: fs, Submissions: db, Recipients: db, ConfirmURL: "https://hub.example.com/console/mail-recipients",
		AllowNetworks: []*Network{{IP: net.IPv4(127, 0, 0, 0), Mask: net.CIDRMask(8, 32)}},
		Timeout:       5 * time.Second, Backoff: 10 * time.Millisecond, PollInterval: 20 * time.Millisecond,
	}
	change(&cfg)
	var (
		q   *Queue
		err error
	)
	if pgURL == "" {
		q, err = OpenSQLite(context.Background(), db, cfg, Options{Work: true})
	} else {
		q, err = OpenPostgres(context.Background(), pgURL, cfg, Options{Work: true})
	}
	if err != nil {
		t.Fatal(err)
	}
	db.SetSubmissionHook(q.Hook())
	if err := q.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		q.Stop(ctx)
		q.Close()
	})
	return q
}

// databases are the hub databases the queue runs on.
func databases(t *testing.T) map[string]func(t *testing.T) (*sqldb.DB, string) {
	return map[string]func(t *testing.T) (*sqldb.DB, string){
		"sqlite": func(t *testing.T) (*sqldb.DB, string) {
			db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "hub.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db, ""
		},
		"postgres": func(t *testing.T) (*sqldb.DB, string) {
			u := pgtest.URL(t)
			db, err := postgres.Open(context.Background(), u)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db, u
		},
	}
}

// TestWebhooksDelivered stores submissions for a form with two receivers
// that refuse the first two attempts: each submission reaches each
// receiver, signed, with one webhook-id over its attempts; a submission
// refused by the store gets no delivery.
func TestWebhooksDelivered(t *testing.T) {
	for name, open := range databases(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db, pgURL := open(t)
			r1, srv1 := newReceiver(t, 2)
			r2, srv2 := newReceiver(t, 0)
			fs := forms{"site/form": {Site: "site", Slug: "form", Settings: hub.Settings{
				Webhooks: []hub.Webhook{{URL: srv1.URL + "/hook", Secret: secret}, {URL: srv2.URL, Secret: secret}},
			}}}
			q := openQueue(t, db, pgURL, fs)
			const n = 5
			for i := range n {
				s := storetest.Submission(fmt.Sprintf("S%d", i))
				s.Calculations = map[string]any{"total": 35.0}
				if err := db.CreateSubmission(ctx, s); err != nil {
					t.Fatal(err)
				}
			}
			refused := storetest.Submission("refused", storetest.Attachment(storetest.Upload("missing")))
			if err := db.CreateSubmission(ctx, refused); !errors.Is(err, hub.ErrUploadClaim) {
				t.Fatalf("CreateSubmission(refused) = %v", err)
			}
			for _, r := range []*receiver{r1, r2} {
				for range n {
					select {
					case <-r.done:
					case <-time.After(time.Minute):
						t.Fatalf("deliveries missing; attempts so far %v", r.attempts)
					}
				}
			}
			for _, r := range []*receiver{r1, r2} {
				r.mu.Lock()
				if len(r.bad) > 0 {
					t.Errorf("receiver saw: %v", r.bad)
				}
				if len(r.bodies) != n {
					t.Errorf("%d deliveries, want %d", len(r.bodies), n)
				}
				for id, ev := range r.bodies {
					if r.attempts[id] != r.fails+1 {
						t.Errorf("%s: %d attempts, want %d", id, r.attempts[id], r.fails+1)
					}
					d := ev.Data
					if ev.Type != "submission.created" || d.Site != "site" || d.Slug != "form" ||
						string(d.Payload) != `{"name":"Jane","n":1}` || !d.CreatedAt.Equal(storetest.T0) || !ev.Timestamp.Equal(storetest.T0) ||
						d.Attachments == nil || id != WebhookID(d.SubmissionID, mustAtoi(t, id)) || d.Calculations["total"] != 35.0 {
						t.Errorf("%s: event %+v", id, ev)
					}
				}
				r.mu.Unlock()
			}
			list, err := q.List(ctx, "site", "form")
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != 2*n {
				t.Errorf("List: %d deliveries, want %d", len(list), 2*n)
			}
			for _, d := range list {
				if d.SubmissionID == "refused" {
					t.Errorf("the refused submission has a delivery: %+v", d)
				}
			}
		})
	}
}

// mustAtoi returns the job id at the end of a webhook id.
func mustAtoi(t *testing.T, id string) int64 {
	var n int64
	i := len(id) - 1
	for i >= 0 && id[i] != '_' {
		i--
	}
	if _, err := fmt.Sscan(id[i+1:], &n); err != nil {
		t.Fatalf("webhook id %q: %v", id, err)
	}
	return n
}

// TestDeliveriesRollBack checks that deliveries inserted in a submission's
// transaction go when it is rolled back.
func TestDeliveriesRollBack(t *testing.T) {
	for name, open := range databases(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db, pgURL := open(t)
			fs := forms{"site/form": {Site: "site", Slug: "form", Settings: hub.Settings{
				Webhooks: []hub.Webhook{{URL: "http://127.0.0.1:1/", Secret: secret}},
			}}}
			q := openQueue(t, db, pgURL, fs)
			q.Stop(ctx) // nothing is to be worked
			insert := q.Hook()
			fail := errors.New("after the insert")
			db.SetSubmissionHook(func(ctx context.Context, tx sqldb.Tx, s hub.Submission) error {
				if err := insert(ctx, tx, s); err != nil {
					return err
				}
				if s.ID == "rolled-back" {
					return fail
				}
				return nil
			})
			if err := db.CreateSubmission(ctx, storetest.Submission("rolled-back")); !errors.Is(err, fail) {
				t.Fatalf("CreateSubmission = %v", err)
			}
			if err := db.CreateSubmission(ctx, storetest.Submission("kept")); err != nil {
				t.Fatal(err)
			}
			list, err := q.List(ctx, "site", "form")
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != 1 || list[0].SubmissionID != "kept" || list[0].Outcome != OutcomePending {
				t.Errorf("List = %+v, want the delivery of kept alone, pending", list)
			}
		})
	}
}

func TestCheckAddress(t *testing.T) {
	allow := []*Network{{IP: net.IPv4(10, 1, 0, 0), Mask: net.CIDRMask(16, 32)}}
	for _, tt := range []struct {
		addr string
		ok   bool
	}{
		{"93.184.215.14:443", true},
		{"[2606:2800:21f:cb07:6820:80da:af6b:8b2c]:443", true},
		{"10.1.2.3:80", true}, // allowed
		{"10.2.0.1:80", false},
		{"127.0.0.1:8080", false},
		{"[::1]:80", false},
		{"[::ffff:127.0.0.1]:80", false},
		{"169.254.169.254:80", false},
		{"192.168.1.1:80", false},
		{"172.16.0.1:80", false},
		{"100.64.0.1:80", false},
		{"0.0.0.0:80", false},
		{"[fd00::1]:80", false},
		{"[fe80::1]:80", false},
		{"224.0.0.1:80", false},
	} {
		err := checkAddress(tt.addr, allow)
		if tt.ok != (err == nil) || (err != nil && !errors.Is(err, ErrPrivateAddress)) {
			t.Errorf("checkAddress(%s) = %v, want ok %v", tt.addr, err, tt.ok)
		}
	}
}

// TestPrivateReceiverRefused checks that a receiver on loopback is not
// reached unless allowed.
func TestPrivateReceiverRefused(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	_, err := NewHTTPClient(time.Second, nil).Post(srv.URL, "application/json", nil)
	if !errors.Is(err, ErrPrivateAddress) || hits.Load() != 0 {
		t.Errorf("Post to loopback = %v with %d requests, want ErrPrivateAddress", err, hits.Load())
	}
	resp, err := NewHTTPClient(time.Second, []*Network{{IP: net.IPv4(127, 0, 0, 0), Mask: net.CIDRMask(8, 32)}}).Post(srv.URL, "application/json", nil)
	if err != nil {
		t.Fatalf("Post to allowed loopback: %v", err)
	}
	resp.Body.Close()
}
