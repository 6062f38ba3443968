package formsource

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// fakeSites keeps sites' owners as the database does: the first claim
// wins.
type fakeSites struct {
	owners map[string]string
	claims int
	err    error
}

func (f *fakeSites) ClaimSite(_ context.Context, site, workspace string, _ time.Time) (string, error) {
	f.claims++
	if f.err != nil {
		return "", f.err
	}
	if f.owners[site] == "" {
		f.owners[site] = workspace
	}
	return f.owners[site], nil
}

// TestDirectorySiteOwnedFromFirstSight: a site that appears in the
// directory is its workspace's from the first read of one of its forms,
// asked of the database once; a site another workspace owns has no form
// served, and says why; a database that fails serves nothing and is asked
// again.
func TestDirectorySiteOwnedFromFirstSight(t *testing.T) {
	td := newTestDir(t)
	sites := &fakeSites{owners: map[string]string{"taken": "other"}}
	td.Own("forms", sites)

	td.wantNotFound("fresh", "contact")
	if sites.claims != 0 {
		t.Errorf("a site the directory does not hold was claimed")
	}
	td.write("fresh/contact.json", titled("Contact"))
	td.wantTitle("fresh", "contact", "Contact")
	if sites.owners["fresh"] != "forms" {
		t.Fatalf("a site that appeared is %q's, want the directory's workspace's", sites.owners["fresh"])
	}
	td.tick()
	td.write("fresh/other.json", titled("Other"))
	td.wantTitle("fresh", "other", "Other")
	if sites.claims != 1 {
		t.Errorf("the database was asked %d times, want once per site", sites.claims)
	}

	td.write("taken/contact.json", titled("Contact"))
	invalid := td.wantInvalid("taken", "contact")
	var conflict *SiteConflictError
	if !errors.As(invalid, &conflict) || conflict.Owner != "other" || conflict.Workspace != "forms" {
		t.Fatalf("a site of another workspace: %v, want a *SiteConflictError naming both", invalid)
	}
	if logs := strings.Join(td.logs.take(), "\n"); !strings.Contains(logs, "belongs to workspace other, not to the forms workspace forms") {
		t.Errorf("the conflict is not logged: %s", logs)
	}
	if held, err := td.Claim(context.Background(), "taken"); !held || !errors.As(err, &conflict) {
		t.Errorf("Claim(taken) = %v, %v; want held, a conflict", held, err)
	}
	if held, err := td.Claim(context.Background(), "nowhere"); held || err != nil {
		t.Errorf("Claim of a site the directory does not hold = %v, %v", held, err)
	}

	sites.err = errors.New("database down")
	td.write("later/contact.json", titled("Later"))
	if form, err := td.Lookup("later", "contact"); form != nil || !errors.Is(err, sites.err) {
		t.Fatalf("with the database down: %v, %v; want its error", form, err)
	}
	sites.err = nil
	td.wantTitle("later", "contact", "Later")
	if sites.owners["later"] != "forms" {
		t.Errorf("a site claimed after the database came back is %q's", sites.owners["later"])
	}
}
