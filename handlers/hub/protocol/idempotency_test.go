package protocol_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
)

// keyed returns a submit body for the contact form with the key.
func keyed(key string, payload map[string]any) hubclient.SubmitRequest {
	return hubclient.SubmitRequest{Payload: payload, IdempotencyKey: key}
}

func TestIdempotencyKeyRepeat(t *testing.T) {
	h := newHarness(t)
	first := h.submit("contact", keyed("key-1", validContact())).wantOK(t)
	if first.SubmissionID == "" {
		t.Fatal("first send answered no submissionId")
	}
	// The repeat is answered as the first was, whatever it carries: the
	// first send is what the visitor meant.
	changed := validContact()
	changed["message"] = "sent twice"
	for _, body := range []hubclient.SubmitRequest{keyed("key-1", validContact()), keyed("key-1", changed)} {
		res := h.submit("contact", body)
		if a := res.wantOK(t); a.SubmissionID != first.SubmissionID {
			t.Errorf("repeat answered %s, want the first id %s", res.body, first.SubmissionID)
		}
	}
	subs := h.Submissions()
	if len(subs) != 1 {
		t.Fatalf("%d submissions stored, want 1", len(subs))
	}
	if subs[0].IdempotencyKey != "key-1" {
		t.Errorf("stored key %q, want key-1", subs[0].IdempotencyKey)
	}
	wantPayload(t, subs[0].Payload, validContact())

	// A day later it is still a repeat: the key lives with the submission.
	h.clock.Add(25 * time.Hour)
	if a := h.submit("contact", keyed("key-1", validContact())).wantOK(t); a.SubmissionID != first.SubmissionID {
		t.Errorf("repeat after 25 hours answered %s, want %s", a.SubmissionID, first.SubmissionID)
	}

	// Another key, or none, is another submission.
	h.submit("contact", keyed("key-2", validContact())).wantOK(t)
	h.submit("contact", keyed("", validContact())).wantOK(t)
	h.submit("contact", keyed("", validContact())).wantOK(t)
	h.wantCount(4)
}

// TestIdempotencyKeyWithNewUploads checks that a retry, which uploads its
// files again under new keys, is answered with the first submission and
// claims none of its uploads, which the sweep later removes.
func TestIdempotencyKeyWithNewUploads(t *testing.T) {
	h := newHarness(t)
	cv := h.upload("apply", "cv", "cv.pdf", "application/pdf", pdfBody)
	first := h.submit("apply", hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane"},
		Attachments: []hubclient.Attachment{cv}, IdempotencyKey: "apply-1"}).wantOK(t)

	again := h.upload("apply", "cv", "cv.pdf", "application/pdf", pdfBody)
	res := h.submit("apply", hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane"},
		Attachments: []hubclient.Attachment{again}, IdempotencyKey: "apply-1"})
	if a := res.wantOK(t); a.SubmissionID != first.SubmissionID {
		t.Errorf("retry answered %s, want the first id %s", res.body, first.SubmissionID)
	}
	h.wantCount(1)
	if u, err := h.DB.Upload(context.Background(), again.Key); err != nil || u.SubmissionID != "" {
		t.Errorf("the retry's upload: %+v, %v; want it unclaimed", u, err)
	}
	if u, _ := h.DB.Upload(context.Background(), cv.Key); u.SubmissionID != first.SubmissionID {
		t.Errorf("the first upload is claimed by %q, want %s", u.SubmissionID, first.SubmissionID)
	}
}

// TestIdempotencyKeyWithCaptcha checks that a repeat is answered without
// verifying its token again: tokens verify once, so the provider would
// refuse it.
func TestIdempotencyKeyWithCaptcha(t *testing.T) {
	sv := newOnceSiteverify(t)
	h := newHarness(t, withCaptcha(sv.srv.URL))
	body := hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane"}, CaptchaToken: "token-1", IdempotencyKey: "k"}
	first := h.submit("turnstile", body).wantOK(t)
	if a := h.submit("turnstile", body).wantOK(t); a.SubmissionID != first.SubmissionID {
		t.Errorf("repeat answered %s, want %s", a.SubmissionID, first.SubmissionID)
	}
	if n := len(sv.received()); n != 1 {
		t.Errorf("siteverify asked %d times, want once", n)
	}
	h.wantCount(1)
	// The stand-in does refuse a token used twice.
	body.IdempotencyKey = "other"
	h.submit("turnstile", body).wantError(t, http.StatusForbidden)
}

// TestIdempotencyKeyConcurrent sends one submission several times at once:
// one is stored, and every send is answered its id.
func TestIdempotencyKeyConcurrent(t *testing.T) {
	h := newHarness(t)
	const senders = 8
	answers := make([]*response, senders)
	var wg sync.WaitGroup
	for i := range senders {
		wg.Go(func() { answers[i] = h.submit("contact", keyed("double-click", validContact())) })
	}
	wg.Wait()
	subs := h.Submissions()
	if len(subs) != 1 {
		t.Fatalf("%d submissions stored, want 1", len(subs))
	}
	for i, res := range answers {
		if a := res.wantOK(t); a.SubmissionID != subs[0].ID {
			t.Errorf("sender %d answered %s, want id %s", i, res.body, subs[0].ID)
		}
	}
}

// TestIdempotencyKeyConcurrentWithCaptcha sends a repeat while the first
// send's token is being verified: the repeat waits for the first's outcome
// instead of spending the token again, which the provider would refuse.
func TestIdempotencyKeyConcurrentWithCaptcha(t *testing.T) {
	sv := newOnceSiteverify(t)
	sv.hold = make(chan struct{})
	h := newHarness(t, withCaptcha(sv.srv.URL))
	body := hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane"}, CaptchaToken: "token-1", IdempotencyKey: "k"}
	var first *response
	done := make(chan struct{})
	go func() {
		defer close(done)
		first = h.submit("turnstile", body)
	}()
	<-sv.arrived // the first send is being verified
	second := h.submit("turnstile", body)
	<-done
	a, b := first.wantOK(t), second.wantOK(t)
	if a.SubmissionID == "" || a.SubmissionID != b.SubmissionID {
		t.Errorf("answered %s and %s, want one id", first.body, second.body)
	}
	if n := len(sv.received()); n != 1 {
		t.Errorf("siteverify asked %d times, want once", n)
	}
	h.wantCount(1)
}

func TestIdempotencyKeyPerForm(t *testing.T) {
	h := newHarness(t)
	h.WriteForm("beta", "contact", contactForm)
	a := h.submit("contact", keyed("shared", validContact())).wantOK(t)
	b := h.submit("cors", keyed("shared", map[string]any{"name": "Jane"})).wantOK(t)
	c := h.postJSON("/v1/beta/contact/submit", keyed("shared", validContact())).wantOK(t)
	if a.SubmissionID == b.SubmissionID || a.SubmissionID == c.SubmissionID || b.SubmissionID == c.SubmissionID {
		t.Errorf("ids %s %s %s, want three different", a.SubmissionID, b.SubmissionID, c.SubmissionID)
	}
	h.wantCount(3)
	// Each is a repeat within its own form.
	if again := h.submit("cors", keyed("shared", map[string]any{"name": "Jane"})).wantOK(t); again.SubmissionID != b.SubmissionID {
		t.Errorf("repeat on cors answered %s, want %s", again.SubmissionID, b.SubmissionID)
	}
	h.wantCount(3)
}

func TestIdempotencyKeyRefused(t *testing.T) {
	h := newHarness(t)
	const json = "Content-Type: application/json"
	for _, tt := range []struct{ name, key string }{
		{"too long", `"` + strings.Repeat("k", 129) + `"`},
		{"newline", `"key\n"`},
		{"NUL", `"key\u0000"`},
		{"DEL", `"key\u007f"`},
		{"not ASCII", `"clé"`},
		{"not a string", `42`},
		{"an object", `{"k":1}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body := `{"payload":{"name":"Jane","email":"jane@example.com"},"idempotencyKey":` + tt.key + `}`
			a := h.do(http.MethodPost, "/v1/acme/contact/submit", body, json).wantError(t, http.StatusBadRequest)
			if !strings.Contains(a.Error, "idempotencyKey") {
				t.Errorf("error %q does not name idempotencyKey", a.Error)
			}
		})
	}
	h.wantCount(0)
	// The longest key is taken.
	h.submit("contact", keyed(strings.Repeat("k", 128), validContact())).wantOK(t)
	h.wantCount(1)
}

// TestIdempotencyKeyNotBurnt checks that only a stored submission keeps its
// key: a trapped or refused send leaves it free for the next.
func TestIdempotencyKeyNotBurnt(t *testing.T) {
	h := newHarness(t)
	trappedSend := keyed("k", validContact())
	trappedSend.Honeypots = map[string]string{"_hp": "bot"}
	if a := h.submit("contact", trappedSend).wantOK(t); a.SubmissionID != "" {
		t.Errorf("trapped send answered id %s, want none", a.SubmissionID)
	}
	// A trapped send with a bad key is still only told it succeeded.
	trappedSend.IdempotencyKey = "bad\n"
	h.submit("contact", trappedSend).wantOK(t)
	h.submit("contact", keyed("k", map[string]any{"name": "Jane"})).wantError(t, http.StatusUnprocessableEntity)
	h.wantCount(0)
	if a := h.submit("contact", keyed("k", validContact())).wantOK(t); a.SubmissionID == "" {
		t.Error("the first stored send answered no id")
	}
	h.wantCount(1)
}

// blindStore misses the first lookups of idempotency keys, as a hub does
// when another hub on the same database stores the key just after.
type blindStore struct {
	hub.Store
	misses atomic.Int32
}

func (s *blindStore) SubmissionByKey(ctx context.Context, site, form, key string) (string, error) {
	if s.misses.Add(-1) >= 0 {
		return "", fmt.Errorf("blind: %w", hub.ErrNotFound)
	}
	return s.Store.SubmissionByKey(ctx, site, form, key)
}

// TestIdempotencyKeyRaceAcrossHubs checks the answer when the key was not
// stored at look-up but is at commit: the store's unique key decides.
func TestIdempotencyKeyRaceAcrossHubs(t *testing.T) {
	blind := &blindStore{}
	h := newHarness(t, func(c *protocol.Config) { blind.Store = c.Store; c.Store = blind })
	first := h.submit("apply", hubclient.SubmitRequest{Payload: map[string]any{}, IdempotencyKey: "k",
		Attachments: []hubclient.Attachment{h.upload("apply", "cv", "cv.pdf", "application/pdf", pdfBody)}}).wantOK(t)

	t.Run("new uploads", func(t *testing.T) {
		blind.misses.Store(1)
		res := h.submit("apply", hubclient.SubmitRequest{Payload: map[string]any{}, IdempotencyKey: "k",
			Attachments: []hubclient.Attachment{h.upload("apply", "cv", "cv.pdf", "application/pdf", pdfBody)}})
		if a := res.wantOK(t); a.SubmissionID != first.SubmissionID {
			t.Errorf("answered %s, want the first id %s", res.body, first.SubmissionID)
		}
	})
	t.Run("the same uploads", func(t *testing.T) {
		// The same body again: its uploads are claimed by the first.
		stored := h.Submissions()[0]
		blind.misses.Store(1)
		res := h.submit("apply", hubclient.SubmitRequest{Payload: map[string]any{}, IdempotencyKey: "k", Attachments: stored.Attachments})
		if a := res.wantOK(t); a.SubmissionID != first.SubmissionID {
			t.Errorf("answered %s, want the first id %s", res.body, first.SubmissionID)
		}
	})
	h.wantCount(1)
}

// onceSiteverify is a captcha provider's stand-in that, as the real ones,
// accepts each token once and refuses it after.
type onceSiteverify struct {
	*siteverify
	// hold, when set, keeps the first verification waiting until a
	// second arrives or two seconds pass; arrived is closed when the
	// first arrives.
	hold    chan struct{}
	arrived chan struct{}
}

func newOnceSiteverify(t *testing.T) *onceSiteverify {
	t.Helper()
	sv := &onceSiteverify{siteverify: newSiteverify(t, ""), arrived: make(chan struct{})}
	var (
		mu   sync.Mutex
		used = map[string]bool{}
		n    int
	)
	sv.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		token := r.PostForm.Get("response")
		mu.Lock()
		sv.mu.Lock()
		sv.requests = append(sv.requests, r.PostForm)
		sv.mu.Unlock()
		n++
		nth := n
		mu.Unlock()
		if sv.hold != nil {
			if nth == 1 {
				close(sv.arrived)
				select {
				case <-sv.hold:
				case <-time.After(2 * time.Second):
				}
			} else {
				close(sv.hold)
			}
		}
		mu.Lock()
		again := used[token]
		used[token] = true
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if again {
			w.Write([]byte(`{"success":false,"error-codes":["timeout-or-duplicate"]}`))
			return
		}
		w.Write([]byte(`{"success":true}`))
	})
	return sv
}
