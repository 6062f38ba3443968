package main

import (
	"encoding/json"
	"maps"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"

	"github.com/hubform/hubform/handlers/hub/testkit"
)

// TestHubSeesEachVisitor runs a hub that trusts the demo's address as a
// proxy, and the demo in front of it, as two processes. Two visitors on
// different loopback addresses post the contact form through the demo:
// the hub limits each on its own, records each one's address, and is not
// fooled by a visitor's own X-Forwarded-For.
func TestHubSeesEachVisitor(t *testing.T) {
	t.Parallel()
	forms, data := t.TempDir(), t.TempDir()
	if err := writeExampleForms(forms, captchaKeys{}, "http://127.0.0.1:8080"); err != nil {
		t.Fatal(err)
	}
	h := startHub(t, forms, data, "--rate-limit", "3", "--trusted-proxies", "127.0.0.1/32")
	demo := startDemo(t, "--hub-url", h.url)
	first, second := newVisitor(t, demo, "127.0.0.2"), newVisitor(t, demo, "127.0.0.3")

	// A hub on SQLite lets a client a burst of 3 and one more request every
	// 20 seconds: the first visitor's posts are made back to back.
	for i := 1; i <= 3; i++ {
		if got := first.post(nil, nil); got != "submitted" {
			t.Fatalf("first visitor's post %d: %s; hub log:\n%s", i, got, h.log)
		}
	}
	if got := first.post(nil, nil); got != "refused" {
		t.Errorf("first visitor's post 4: %s, want refused", got)
	}
	if got := first.post(http.Header{"X-Forwarded-For": {"127.0.0.9"}, "X-Real-Ip": {"127.0.0.9"}}, nil); got != "refused" {
		t.Errorf("first visitor's post naming another address: %s, want refused", got)
	}
	if got := second.post(nil, nil); got != "submitted" {
		t.Errorf("second visitor's post after the first was limited: %s, want submitted", got)
	}

	status, stdout, stderr := hubform(t, "submissions", "export", "--data", data, "--format", "json")
	var stored []hub.Submission
	if status != 0 || json.Unmarshal([]byte(stdout), &stored) != nil {
		t.Fatalf("export: status %d, %q %q", status, stdout, stderr)
	}
	perAddr := map[string]int{}
	for _, s := range stored {
		perAddr[s.ClientAddr]++
	}
	if want := map[string]int{"127.0.0.2": 3, "127.0.0.3": 1}; !maps.Equal(perAddr, want) {
		t.Errorf("stored client addresses %v, want %v", perAddr, want)
	}
}

// startDemo runs "hubform demo" with args on a free loopback port and
// returns its base URL once it accepts connections.
func startDemo(t *testing.T, args ...string) string {
	t.Helper()
	addr := freeAddr(t)
	cmd := exec.Command(binary, append([]string{"demo", "--addr", addr}, args...)...)
	log := &testkit.Buffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return "http://" + addr
		}
		select {
		case err := <-done:
			done <- err
			t.Fatalf("demo exited: %v; log:\n%s", err, log)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("demo does not listen on %s; log:\n%s", addr, log)
		}
	}
}

// visitor is a browser on a loopback address of its own, with its cookies.
type visitor struct {
	t      *testing.T
	client *http.Client
	action string
	token  string
	// key is the idempotency key of the form as rendered for the visitor.
	key string
}

// newVisitor opens the demo's contact form from local.
func newVisitor(t *testing.T, demo, local string) *visitor {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}
	v := &visitor{t: t, client: &http.Client{Jar: jar, Transport: &http.Transport{DialContext: d.DialContext}}}
	res, err := v.client.Get(demo + "/f/demo/contact")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	doc, _ := goquery.NewDocumentFromReader(res.Body)
	form := doc.Find("form[data-hubform-form]")
	action, _ := form.Attr("action")
	v.token, _ = form.Find("input[name=_csrf]").Attr("value")
	v.key, _ = form.Find(`input[name="` + hubclient.IdempotencyKeyField + `"]`).Attr("value")
	if res.StatusCode != http.StatusOK || action == "" || v.token == "" {
		t.Fatalf("contact page from %s: %s, action %q, token %q", local, res.Status, action, v.token)
	}
	v.action = demo + action
	return v
}

// post sends the form, with extra values and header added, and says what
// came back: "submitted", "refused" (the form again, with the submit error)
// or the status when neither.
func (v *visitor) post(header http.Header, extra url.Values) string {
	v.t.Helper()
	values := url.Values{"_csrf": {v.token}, "name": {"Jane"}, "email": {"jane@example.com"}, "message": {"Hello"}, "_hp": {""}}
	maps.Copy(values, extra)
	req, _ := http.NewRequest(http.MethodPost, v.action, strings.NewReader(values.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, vs := range header {
		req.Header[k] = vs
	}
	res, err := v.client.Do(req)
	if err != nil {
		v.t.Fatal(err)
	}
	defer res.Body.Close()
	doc, _ := goquery.NewDocumentFromReader(res.Body)
	switch {
	case doc.Find("[data-vendor-hubform-submitted]").Length() == 1:
		return "submitted"
	case doc.Find("form[data-hubform-form]").Length() == 1 && doc.Find("[data-hubform-submit-error]").Length() == 1:
		return "refused"
	}
	return res.Status
}
