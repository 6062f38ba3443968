package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/hubclient"
)

// TestMetrics scrapes /metrics of a hub as hubform hub wires it: closed
// without an API token, and with one the counts of requests by route
// pattern and status, submissions, delivery attempts and the queue's depth
// move as the hub works.
func TestMetrics(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer receiver.Close()
	h := serveInProcess(t, hubserver.Config{Data: t.TempDir(), Forms: webhookForms(t, receiver.URL), Delivery: hubserver.DeliveryConfig{AllowNets: "127.0.0.0/8"}})
	base := strings.TrimSuffix(h.URL, "/v1")

	token := accounts.NewToken()
	if err := h.DB.CreateToken(context.Background(), accounts.Token{Name: "prometheus", Hash: accounts.HashToken(token), CreatedAt: time.Now(), Scope: accounts.ScopeMetrics}); err != nil {
		t.Fatal(err)
	}
	scrape := func(bearer string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, base+"/metrics", nil)
		if bearer != "" {
			req.Header.Set("Authorization", "Bearer "+bearer)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(body)
	}
	for _, bearer := range []string{"", "hft_not-a-token"} {
		if status, body := scrape(bearer); status != http.StatusUnauthorized || strings.Contains(body, "hubform_") {
			t.Errorf("/metrics with token %q: %d %q, want 401 and no metrics", bearer, status, body)
		}
	}
	// A workspace's token, even of scope all, reads nothing of the hub's.
	workspaceToken := accounts.NewToken()
	if err := h.DB.CreateToken(context.Background(), accounts.Token{Name: "ci", Hash: accounts.HashToken(workspaceToken), CreatedAt: time.Now(),
		Workspace: accounts.DefaultWorkspace, Scope: accounts.ScopeAll}); err != nil {
		t.Fatal(err)
	}
	if status, body := scrape(workspaceToken); status != http.StatusForbidden || strings.Contains(body, "hubform_") {
		t.Errorf("/metrics with a workspace's token: %d %q, want 403 and no metrics", status, body)
	}
	value := func(body, series string) float64 {
		t.Helper()
		m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindStringSubmatch(body)
		if m == nil {
			return 0
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		return v
	}
	const (
		submitted = `hubform_http_requests_total{method="POST",route="/v1/:site/:slug/submit",status="200"}`
		notFound  = `hubform_http_requests_total{method="GET",route="/v1/:site/:slug",status="404"}`
		stored    = `hubform_submissions_total`
		delivered = `hubform_delivery_attempts_total{kind="webhook",outcome="delivered"}`
	)
	status, before := scrape(token)
	if status != http.StatusOK || !strings.Contains(before, `hubform_delivery_queue_jobs{state="available"} 0`) {
		t.Fatalf("/metrics with a token: %d %q", status, before)
	}

	c := &hubclient.Client{HubURL: h.URL}
	const n = 3
	for range n {
		if _, err := c.Submit(context.Background(), "acme", "contact", &hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane"}}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := http.Get(h.URL + "/acme/no-such-form-7f3a")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		_, after := scrape(token)
		if value(after, delivered)-value(before, delivered) == n || time.Now().After(deadline) {
			for _, s := range []string{submitted, stored, delivered} {
				if got := value(after, s) - value(before, s); got != n {
					t.Errorf("%s moved by %v, want %d", s, got, n)
				}
			}
			if got := value(after, notFound) - value(before, notFound); got != 1 {
				t.Errorf("%s moved by %v, want 1", notFound, got)
			}
			if strings.Contains(after, "no-such-form-7f3a") {
				t.Error("a path asked for is a label")
			}
			break
		}
	}
	if hits.Load() != n {
		t.Errorf("the receiver got %d webhooks, want %d", hits.Load(), n)
	}
}
