package console_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/backup"
	"github.com/hubform/hubform/handlers/hub/console"
)

// backupsSeen is a BackupSchedule whose results the test sets.
type backupsSeen struct{ last, success backup.Result }

func (b *backupsSeen) Last() (last, success backup.Result) { return b.last, b.success }

// TestHomeBackups: the home page shows the hub's own admins (of the
// workspace default) the last scheduled backup, and its failure with the
// last success; nobody else.
func TestHomeBackups(t *testing.T) {
	seen := &backupsSeen{}
	tc := newConsole(t, func(cfg *console.Config) { withStore(cfg); cfg.Backups = seen })
	b, _ := signedIn(t, tc)
	card := func(b *browser) string {
		t.Helper()
		body := b.get(console.Path).body
		i := strings.Index(body, `id="backup-card"`)
		if i < 0 {
			return ""
		}
		i = strings.LastIndex(body[:i], "<div")
		return body[i : i+strings.Index(body[i:], "</div>")]
	}
	if got := card(b); !strings.Contains(got, "None taken yet") {
		t.Errorf("before any backup: %q", got)
	}
	at := time.Date(2026, 11, 29, 6, 0, 0, 0, time.UTC)
	seen.last = backup.Result{Name: backup.Name(at), At: at, Manifest: backup.Manifest{Files: []backup.Entry{{Size: 1500}, {Size: 500}}}}
	seen.success = seen.last
	if got := card(b); !strings.Contains(got, "2026-11-29 06:00 UTC") || !strings.Contains(got, "2 files, 2 KB") || strings.Contains(got, "console-card--alert") {
		t.Errorf("after a backup: %q", got)
	}
	seen.last = backup.Result{Name: backup.Name(at.Add(6 * time.Hour)), At: at.Add(6 * time.Hour), Err: errors.New("no space left on device")}
	got := card(b)
	if !strings.Contains(got, "console-card--alert") || !strings.Contains(got, "Failed at 2026-11-29 12:00 UTC") || !strings.Contains(got, "The last that succeeded: 2026-11-29 06:00 UTC.") {
		t.Errorf("after a failure: %q", got)
	}
	if strings.Contains(got, "no space") {
		t.Error("the card shows the error, which is the log's")
	}
	for _, role := range []accounts.Role{accounts.Editor, ""} {
		email := "ed@example.com"
		if role == "" {
			email = "olga@example.com"
		}
		if got := card(tc.member(email, role)); got != "" {
			t.Errorf("%s sees the hub's backups: %q", email, got)
		}
	}
}
