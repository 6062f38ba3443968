package delivery

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
)

// n8nWorkflow is the workflow AUTOMATIONS.md gives n8n's users.
const n8nWorkflow = "../n8n-hubform.json"

// TestN8nWorkflowMatchesGuide checks that the code the guide shows for
// n8n's Code node is the code of the workflow it offers to import.
func TestN8nWorkflowMatchesGuide(t *testing.T) {
	guide, err := os.ReadFile("../AUTOMATIONS.md")
	if err != nil {
		t.Fatal(err)
	}
	n8n := string(guide)[strings.Index(string(guide), "## n8n"):]
	block := regexp.MustCompile("(?s)```js\n(.*?)\n *```").FindStringSubmatch(n8n)
	if block == nil {
		t.Fatal("the guide's n8n part shows no code")
	}
	shown := regexp.MustCompile("(?m)^   ").ReplaceAllString(block[1], "")
	if code := n8nCode(t); code != shown {
		t.Errorf("the guide shows\n%s\n\nthe workflow runs\n%s", shown, code)
	}
}

// n8nCode returns the code of the workflow's Code node.
func n8nCode(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(n8nWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Nodes []struct {
			Type       string `json:"type"`
			Parameters struct {
				JSCode string `json:"jsCode"`
			} `json:"parameters"`
		} `json:"nodes"`
	}
	if err := json.Unmarshal(b, &wf); err != nil {
		t.Fatal(err)
	}
	for _, n := range wf.Nodes {
		if n.Type == "n8n-nodes-base.code" {
			return n.Parameters.JSCode
		}
	}
	t.Fatal("the workflow has no Code node")
	return ""
}

// TestN8nRecipe runs the guide's workflow in n8n, installed from npm
// (make n8n-test; HUBFORM_N8N names its command): a hub's delivery of a
// submission reaches it and is verified, a post whose signature is wrong,
// or whose time is old, is answered 401.
func TestN8nRecipe(t *testing.T) {
	bin := os.Getenv("HUBFORM_N8N")
	if bin == "" {
		t.Skip("HUBFORM_N8N names n8n's command: make n8n-test")
	}
	key := make([]byte, 32)
	rand.Read(key)
	secret := "whsec_" + base64.StdEncoding.EncodeToString(key)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	home := t.TempDir()
	env := append(os.Environ(), "N8N_USER_FOLDER="+home, "N8N_PORT="+port, "N8N_LISTEN_ADDRESS=127.0.0.1",
		"NODE_FUNCTION_ALLOW_BUILTIN=crypto", "HUBFORM_WEBHOOK_SECRET="+secret, "N8N_DIAGNOSTICS_ENABLED=false",
		"N8N_VERSION_NOTIFICATIONS_ENABLED=false", "N8N_PERSONALIZATION_ENABLED=false", "N8N_SECURE_COOKIE=false",
		"N8N_BLOCK_ENV_ACCESS_IN_NODE=false", "N8N_RUNNERS_ENABLED=false")
	n8n := func(args ...string) {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("n8n %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	workflow, err := filepath.Abs(n8nWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	n8n("import:workflow", "--input="+workflow)
	n8n("update:workflow", "--id=hubformWebhook01", "--active=true")
	var logs bytes.Buffer
	server := exec.Command(bin, "start")
	server.Env, server.Stdout, server.Stderr = env, &logs, &logs
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		server.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { server.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			server.Process.Kill()
		}
	})
	base := "http://127.0.0.1:" + port
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(500 * time.Millisecond) {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("n8n did not start:\n%s", logs.String())
		}
	}
	hook := base + "/webhook/hubform"

	// A post signed as the hub signs, then tampered with, then old.
	post := func(body []byte, id string, at time.Time, sign []byte) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, hook, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		setHeaders(req.Header, sign, id, at, body)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	body := []byte(`{"type":"submission.created","data":{"site":"acme","form":"contact","payload":{"email":"ada@example.com"}}}`)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Second) {
		// The workflow's webhook answers once n8n has activated it.
		status, answer := post(body, "msg_1", time.Now(), key)
		if status == http.StatusOK {
			if !strings.Contains(answer, `"verified":true`) || !strings.Contains(answer, "ada@example.com") {
				t.Errorf("n8n answered a signed post %s", answer)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a signed post: %d %s\n%s", status, answer, logs.String())
		}
	}
	wrong := append([]byte(nil), key...)
	wrong[0] ^= 1
	if status, answer := post(body, "msg_2", time.Now(), wrong); status != http.StatusUnauthorized || !strings.Contains(answer, `"verified":false`) {
		t.Errorf("a post signed with another key: %d %s, want 401", status, answer)
	}
	if status, _ := post(body, "msg_3", time.Now().Add(-10*time.Minute), key); status != http.StatusUnauthorized {
		t.Errorf("a post ten minutes old: %d, want 401", status)
	}

	// A hub's own delivery of a submission.
	db, _ := databases(t)["sqlite"](t)
	fs := forms{"site/form": {Site: "site", Slug: "form", Settings: hub.Settings{Webhooks: []hub.Webhook{{URL: hook, Secret: secret}}}}}
	q := openQueue(t, db, "", fs)
	ctx := context.Background()
	if err := db.CreateSubmission(ctx, storetest.Submission("S1")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the delivery to n8n", func() bool {
		list, err := q.List(ctx, "site", "form")
		return err == nil && len(list) == 1 && list[0].Outcome == OutcomeDelivered
	})
}
