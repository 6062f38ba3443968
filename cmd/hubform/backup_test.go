package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/backup"
	"github.com/hubform/hubform/handlers/hub/delivery/mailpittest"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/handlers/hub/s3blob/s3test"
	"github.com/hubform/hubform/handlers/hub/sqlite"
	"github.com/hubform/hubform/hubclient"
)

// TestBackupRestoreDrill stores 10,000 submissions, one in 20 with a file,
// then takes a backup with "hubform backup" during a burst of more,
// kills the hub, restores the backup into a new data directory with
// "hubform restore" and starts a hub on it: every submission acknowledged
// before the backup began is there, each file's bytes equal, the search
// finds a submission's word, the counts agree with the submissions, and
// the restored hub takes submissions with files.
func TestBackupRestoreDrill(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("stores 10,000 submissions in a hub process")
	}
	forms, data := formsDir(t), t.TempDir()
	p := startHub(t, forms, data)
	c := &hubclient.Client{HubURL: p.url, Timeout: 10 * time.Second}
	ctx := context.Background()

	const total, withFile = 10000, 20
	var next atomic.Int64
	var mu sync.Mutex
	sums := map[string][32]byte{} // by attachment key
	var failed atomic.Value
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for {
				i := next.Add(1)
				if i > total {
					return
				}
				req := &hubclient.SubmitRequest{Payload: map[string]any{"name": fmt.Sprintf("seed %d", i), "message": fmt.Sprintf("drill word%d", i)}}
				if i%withFile == 0 {
					body := make([]byte, 1000+rand.IntN(20000))
					for j := range body {
						body[j] = byte(rand.IntN(256))
					}
					a, err := c.Upload(ctx, "acme", "contact", hubclient.NewFile(fmt.Sprintf("f%d.bin", i), "application/octet-stream", int64(len(body)),
						func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }))
					if err != nil {
						failed.Store(err)
						return
					}
					a.Field = "files"
					req.Attachments = []hubclient.Attachment{a}
					mu.Lock()
					sums[a.Key] = sha256.Sum256(body)
					mu.Unlock()
				}
				if _, err := c.Submit(ctx, "acme", "contact", req); err != nil {
					failed.Store(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err, _ := failed.Load().(error); err != nil {
		t.Fatalf("seeding: %v; hub log:\n%s", err, p.log)
	}

	// The backup, as an operator runs it, during a burst.
	burst := startBurst(c, 8, 0)
	waitForN(t, 10*time.Second, func() bool { return burst.count() >= 100 })
	burst.mu.Lock()
	before := append([]string(nil), burst.acked...)
	burst.mu.Unlock()
	dest := t.TempDir()
	out, err := exec.Command(binary, "backup", "--data", data, "--to", dest).CombinedOutput()
	if err != nil {
		t.Fatalf("hubform backup: %v\n%s", err, out)
	}
	during := burst.count()
	acked := burst.end()
	t.Logf("backup: %s; %d submissions acknowledged during it", strings.TrimSpace(string(out)), len(acked)-during)
	p.cmd.Process.Kill()
	<-p.done
	p.done <- nil
	folder := strings.SplitN(string(out), ":", 2)[0]

	restored := filepath.Join(t.TempDir(), "restored")
	if out, err := exec.Command(binary, "restore", "--from", folder, "--data", restored).CombinedOutput(); err != nil || !strings.HasPrefix(string(out), "restored ") {
		t.Fatalf("hubform restore: %v\n%s", err, out)
	}
	again := startHub(t, forms, restored)
	c2 := &hubclient.Client{HubURL: again.url, Timeout: 10 * time.Second}
	file := hubclient.NewFile("after.txt", "text/plain", 5, func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("after")), nil })
	a, err := c2.Upload(ctx, "acme", "contact", file)
	if err != nil {
		t.Fatalf("an upload to the restored hub: %v", err)
	}
	a.Field = "files"
	if _, err := c2.Submit(ctx, "acme", "contact", &hubclient.SubmitRequest{Payload: map[string]any{"name": "after"}, Attachments: []hubclient.Attachment{a}}); err != nil {
		t.Fatalf("a submission to the restored hub: %v", err)
	}

	db, err := sqlite.OpenReadOnly(ctx, filepath.Join(restored, "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stored := map[string]bool{}
	seeded, files := 0, 0
	err = db.ListSubmissions(ctx, hub.Filter{}, func(s hub.Submission) error {
		stored[s.ID] = true
		if bytes.Contains(s.Payload, []byte(`"seed `)) {
			seeded++
		}
		for _, at := range s.Attachments {
			want, ok := sums[at.Key]
			if !ok {
				continue
			}
			files++
			got, err := os.ReadFile(filepath.Join(restored, "files", filepath.FromSlash(at.Key)))
			if err != nil || sha256.Sum256(got) != want {
				t.Errorf("the file %s restored: %v, its bytes equal: %t", at.Key, err, err == nil && sha256.Sum256(got) == want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seeded != total || files != total/withFile {
		t.Errorf("restored %d of the %d submissions stored first, %d of their %d files", seeded, total, files, total/withFile)
	}
	lost := 0
	for _, id := range before {
		if !stored[id] {
			lost++
		}
	}
	if lost > 0 {
		t.Errorf("%d of the %d submissions acknowledged before the backup began are not in it", lost, len(before))
	}
	if n, err := db.CountSubmissions(ctx, hub.Filter{Site: "acme", Slug: "contact", Search: "word4321"}); err != nil || n != 1 {
		t.Errorf("the restored search finds word4321 in %d submissions, %v; want 1", n, err)
	}
	if n, err := db.CountSubmissions(ctx, hub.Filter{}); err != nil || n != len(stored) {
		t.Errorf("the restored counts say %d submissions, %v; %d are listed", n, err, len(stored))
	}
}

// TestBackupCommand backs a data directory up to a bucket and restores it
// from there, and checks the commands' refusals.
func TestBackupCommand(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	db, err := sqlite.Open(ctx, filepath.Join(data, "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	s := hub.Submission{ID: hub.NewID(time.Now()), Site: "acme", Slug: "contact", CreatedAt: time.Now(), Payload: []byte(`{"name":"Ada"}`)}
	if err := db.CreateSubmission(ctx, s); err != nil {
		t.Fatal(err)
	}
	db.Close()
	os.MkdirAll(filepath.Join(data, "files", "uploads"), 0o700)
	os.WriteFile(filepath.Join(data, "files", "uploads", "k1"), []byte("a file"), 0o600)

	bucket := strings.Replace(s3test.URL(t), "?", "/nightly?", 1)
	status, stdout, stderr := hubform(t, "backup", "--data", data, "--to", bucket)
	if status != 0 || !strings.HasPrefix(stdout, "s3://") || !strings.Contains(stdout, "/nightly/hubform-") || !strings.Contains(stdout, ": 2 files, ") || strings.Contains(stdout, "endpoint") {
		t.Fatalf("backup to a bucket: %d %q %q", status, stdout, stderr)
	}
	name := strings.TrimPrefix(strings.SplitN(stdout, ":", 3)[1], "//")
	name = name[strings.LastIndex(name, "/")+1:]
	restored := filepath.Join(t.TempDir(), "data")
	from := strings.Replace(bucket, "/nightly?", "/nightly/"+name+"?", 1)
	if status, stdout, stderr := hubform(t, "restore", "--from", from, "--data", restored); status != 0 || !strings.HasPrefix(stdout, "restored 2 files") {
		t.Fatalf("restore from a bucket: %d %q %q", status, stdout, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(restored, "files", "uploads", "k1")); err != nil || string(b) != "a file" {
		t.Errorf("the file restored: %q, %v", b, err)
	}
	got, err := sqlite.OpenReadOnly(ctx, filepath.Join(restored, "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	if sub, err := got.Submission(ctx, s.ID); err != nil || string(sub.Payload) != `{"name":"Ada"}` {
		t.Errorf("the submission restored: %+v, %v", sub, err)
	}

	for _, c := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"backup", "--db", "postgres://hub@db/hub", "--to", t.TempDir()}, 1, "pg_dump"},
		{[]string{"backup", "--data", data}, 2, "--to is required"},
		{[]string{"backup", "--data", data, "--to", t.TempDir(), "--max-rate", "-1"}, 2, "--max-rate: want 0 (no limit) or more"},
		{[]string{"backup", "--data", t.TempDir(), "--to", t.TempDir()}, 1, "hub.db"},
		{[]string{"restore", "--from", t.TempDir()}, 2, "--from and --data are required"},
		{[]string{"restore", "--from", t.TempDir(), "--data", restored}, 1, "not empty"},
		{[]string{"restore", "--from", t.TempDir(), "--data", t.TempDir()}, 1, "not a complete backup"},
	} {
		status, _, stderr := hubform(t, c.args...)
		if status != c.status || !strings.Contains(stderr, c.want) {
			t.Errorf("hubform %s: %d %q; want %d and %q", strings.Join(c.args, " "), status, stderr, c.status, c.want)
		}
	}
	// --max-rate 1: 6 MiB of files, 4 MiB of which go at once, take 2
	// seconds or more, however fast the machine.
	os.WriteFile(filepath.Join(data, "files", "uploads", "k2"), make([]byte, 6<<20), 0o600)
	began := time.Now()
	if status, _, stderr := hubform(t, "backup", "--data", data, "--to", t.TempDir(), "--max-rate", "1"); status != 0 || time.Since(began) < 2*time.Second {
		t.Errorf("backup at 1 MB a second: %d %q in %v", status, stderr, time.Since(began))
	}
	if status, stdout, _ := hubform(t, "backup", "--help"); status != 0 || !strings.Contains(stdout, "online backup") || !strings.Contains(stdout, "s3://BUCKET/PREFIX") {
		t.Errorf("backup --help: %d %q", status, stdout)
	}
}

// TestScheduledBackups: a hub with --backup-every takes a backup each
// period and keeps the newest --backup-keep, each told in /metrics; one
// that fails is mailed to the admins of the hub's own workspace whose
// addresses are proved, and counted.
func TestScheduledBackups(t *testing.T) {
	t.Parallel()
	mp := mailpittest.Start(t)
	ctx := context.Background()
	dest := t.TempDir()
	start := func(to string) (*hubserver.Hub, func(string) string) {
		h := serveInProcess(t, hubserver.Config{Data: t.TempDir(), Forms: formsDir(t), Backup: hubserver.BackupConfig{Every: time.Second, To: to, Keep: 2},
			Delivery: hubserver.DeliveryConfig{SMTPURL: mp.URL(), SMTPFrom: "hub@example.com"}})
		for email, role := range map[string]accounts.Role{"ops@example.com": accounts.Admin, "viewer@example.com": accounts.Viewer, "unproved@example.com": accounts.Admin} {
			u := accounts.User{Email: email, PasswordHash: "$argon2id$x", CreatedAt: time.Now(), ProvedAt: time.Now()}
			if email == "unproved@example.com" {
				u.ProvedAt = time.Time{}
			}
			if err := h.DB.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			if err := h.DB.SetMember(ctx, accounts.Member{Workspace: accounts.DefaultWorkspace, Email: email, Role: role, CreatedAt: time.Now()}); err != nil {
				t.Fatal(err)
			}
		}
		token := accounts.NewToken()
		if err := h.DB.CreateToken(ctx, accounts.Token{Name: "prometheus", Hash: accounts.HashToken(token), CreatedAt: time.Now(), Scope: accounts.ScopeMetrics}); err != nil {
			t.Fatal(err)
		}
		metric := func(series string) string {
			t.Helper()
			req, _ := http.NewRequest(http.MethodGet, strings.TrimSuffix(h.URL, "/v1")+"/metrics", nil)
			req.Header.Set("Authorization", "Bearer "+token)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindStringSubmatch(string(body))
			if m == nil {
				return ""
			}
			return m[1]
		}
		return h, metric
	}

	h, metric := start(dest)
	waitForN(t, 20*time.Second, func() bool {
		n, _ := strconv.Atoi(metric(`hubform_backups_total{outcome="success"}`))
		return n >= 3
	})
	names, err := backup.Dir(dest).Backups(ctx)
	if err != nil || len(names) != 2 {
		t.Errorf("the backups kept: %v, %v; want 2", names, err)
	}
	last, success := h.Backups.Last()
	if success.Err != nil || success.Name == "" || last.Name != success.Name {
		t.Errorf("the last backup %+v, the last success %+v", last, success)
	}
	if at, err := strconv.ParseFloat(metric("hubform_backup_last_success_timestamp_seconds"), 64); err != nil || time.Since(time.Unix(int64(at), 0)) > time.Minute {
		t.Errorf("hubform_backup_last_success_timestamp_seconds: %v, %v", at, err)
	}

	// Backups into a file fail: mailed to the admin, counted.
	blocked := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(blocked, []byte("not a directory"), 0o600)
	_, failing := start(blocked)
	waitForN(t, 20*time.Second, func() bool { return metric != nil && failing(`hubform_backups_total{outcome="failure"}`) != "" })
	var list []mailpittest.Summary
	waitForN(t, 30*time.Second, func() bool { list = mp.Messages(t); return len(list) > 0 })
	m := mp.Message(t, list[0].ID)
	if m.Subject != "hubform: a backup failed" || len(m.To) != 1 || m.To[0].Address != "ops@example.com" || !strings.Contains(m.Text, "a-file") {
		t.Errorf("the failure's e-mail: %+v", m)
	}
	// The failures that follow are not mailed again, nor to a viewer or
	// an admin whose address nobody proved.
	waitForN(t, 20*time.Second, func() bool {
		n, _ := strconv.Atoi(failing(`hubform_backups_total{outcome="failure"}`))
		return n >= 3
	})
	if list = mp.Messages(t); len(list) != 1 {
		t.Errorf("%d e-mails of failed backups, want the first alone", len(list))
	}
	if got := failing("hubform_backup_last_success_timestamp_seconds"); got != "0" {
		t.Errorf("the failing hub's last success: %s, want 0", got)
	}
}

// TestBackupFlagErrors: the schedule's flags are checked as the hub starts.
func TestBackupFlagErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--backup-every", "1h"}, "--backup-every needs --backup-to"},
		{[]string{"--backup-every", "10ms", "--backup-to", t.TempDir()}, "1s or more"},
		{[]string{"--backup-every", "1h", "--backup-to", t.TempDir(), "--backup-keep", "-1"}, "--backup-keep"},
		{[]string{"--backup-every", "1h", "--backup-to", t.TempDir(), "--backup-max-rate", "-1"}, "--backup-max-rate: want 0 (no limit) or more"},
	} {
		args := append([]string{"hub", "--addr", "127.0.0.1:0", "--data", t.TempDir()}, c.args...)
		status, _, stderr := hubform(t, args...)
		if status != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("hubform %s: %d %q, want %q", strings.Join(args, " "), status, stderr, c.want)
		}
	}
}
