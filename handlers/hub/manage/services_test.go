package manage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/delivery"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/inbox"
	"github.com/hubform/hubform/handlers/hub/postgres"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/handlers/hub/privacy"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqlite"
	"github.com/hubform/hubform/hubclient"
)

// onEachStore runs test as a subtest on a fresh SQLite database and on a
// fresh PostgreSQL one (skipped without PostgreSQL, see pgtest).
func onEachStore(t *testing.T, test func(t *testing.T, db *sqldb.DB)) {
	t.Run("sqlite", func(t *testing.T) {
		db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "hub.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		test(t, db)
	})
	t.Run("postgres", func(t *testing.T) {
		db, err := postgres.Open(context.Background(), pgtest.URL(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		test(t, db)
	})
}

// The workspaces of the tests: acme (the default workspace) owns the site
// acme, rival the site rival.
const (
	acme  = accounts.DefaultWorkspace
	rival = "rival"
	anna  = "anna@example.com"
)

func member(workspace string, role accounts.Role) Actor {
	return Member(accounts.Member{Workspace: workspace, Email: string(role) + "@" + workspace + ".example", Role: role}, "192.0.2.1")
}

func token(workspace string, scope accounts.Scope) Actor {
	return Token(accounts.Token{Workspace: workspace, Name: string(scope), Scope: scope}, "192.0.2.2")
}

// fakeDeliveries holds one delivery of acme/contact, 7, and one of
// rival/contact, 8.
type fakeDeliveries struct{ retried []int64 }

func (f *fakeDeliveries) Delivery(_ context.Context, id int64) (delivery.Delivery, error) {
	switch id {
	case 7:
		return delivery.Delivery{ID: 7, Site: "acme", Slug: "contact"}, nil
	case 8:
		return delivery.Delivery{ID: 8, Site: "rival", Slug: "contact"}, nil
	}
	return delivery.Delivery{}, fmt.Errorf("delivery %d: %w", id, hub.ErrNotFound)
}

func (f *fakeDeliveries) Retry(ctx context.Context, id int64) (delivery.Delivery, error) {
	f.retried = append(f.retried, id)
	return f.Delivery(ctx, id)
}

// services is a database with acme's form contact (two versions, the
// first live), rival's, a submission of each form per name given, and
// the services on it.
type services struct {
	db          *sqldb.DB
	forms       *Forms
	submissions *Submissions
	privacy     *Privacy
	deliveries  *fakeDeliveries
	// ids are acme's submissions by name, theirs rival's.
	ids, theirs map[string]string
}

func newServices(t *testing.T, db *sqldb.DB, names ...string) *services {
	t.Helper()
	ctx, now := context.Background(), time.Now()
	if err := db.CreateUser(ctx, accounts.User{Email: "olga@example.com", PasswordHash: "$argon2id$x", CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateWorkspace(ctx, rival, "olga@example.com", now); err != nil {
		t.Fatal(err)
	}
	for site, ws := range map[string]string{"acme": acme, "rival": rival} {
		if _, err := db.ClaimSite(ctx, site, ws, now); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if _, err := db.SaveFormVersion(ctx, site, "contact", []byte(`{"title":"Contact","fields":[{"name":"email","type":"email"}]}`), "test", now); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.PublishFormVersion(ctx, site, "contact", 1, now); err != nil {
			t.Fatal(err)
		}
	}
	s := &services{db: db, deliveries: &fakeDeliveries{}, ids: map[string]string{}, theirs: map[string]string{}}
	for i, name := range names {
		for site, ids := range map[string]map[string]string{"acme": s.ids, "rival": s.theirs} {
			at := now.Add(time.Duration(i) * time.Second)
			sub := hub.Submission{ID: hub.NewID(at), Site: site, Slug: "contact", CreatedAt: at, FormVersion: 1,
				Payload: json.RawMessage(`{"email":"` + name + `@example.com"}`), Attachments: []hubclient.Attachment{}}
			if err := db.CreateSubmission(ctx, sub); err != nil {
				t.Fatal(err)
			}
			ids[name] = sub.ID
		}
	}
	logger := slog.New(slog.DiscardHandler)
	cfg := Config{Sites: db, Audit: db, Logger: logger}
	in := &inbox.Inbox{Forms: formsource.NewStored(db, logger), Store: db, Logger: logger}
	s.forms = NewForms(cfg, db)
	s.submissions = NewSubmissions(cfg, in, db, s.deliveries)
	s.privacy = NewPrivacy(cfg, &privacy.People{Store: db, Logger: logger})
	return s
}

// events returns the audit log of workspace, oldest first.
func (s *services) events(t *testing.T, workspace string) []accounts.Event {
	t.Helper()
	es, err := s.db.Events(context.Background(), workspace, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
		es[i], es[j] = es[j], es[i]
	}
	return es
}

// state describes what a change may change, to tell that a refused one
// did not.
func (s *services) state(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	for _, site := range []string{"acme", "rival"} {
		rec, err := s.db.FormRecord(ctx, site, "contact")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s: last %d, live %d, revision %d;", site, rec.LastVersion, rec.LiveVersion, rec.Revision)
	}
	for _, ids := range []map[string]string{s.ids, s.theirs} {
		for _, name := range slices.Sorted(maps.Keys(ids)) {
			sub, err := s.db.Submission(ctx, ids[name])
			fmt.Fprintf(&b, " %s %s: %v spam %v;", sub.Site, name, err == nil, sub.Spam)
		}
	}
	fmt.Fprintf(&b, " retried %v", s.deliveries.retried)
	return b.String()
}

// change is a method of a service, called by an actor.
type change struct {
	name string
	// do calls the method as a, on acme's site or in a's workspace.
	do func(s *services, a Actor) error
	// action is what the audit log records, "" for what it does not.
	action string
	// may is the least actor of acme that may do it; short a member of
	// acme whose role does not allow it; narrow a token of acme whose
	// scope does not.
	may, short, narrow Actor
	// workspaceWide is a change of the actor's workspace, not of a site:
	// another workspace's admin does it in their own.
	workspaceWide bool
	// reads is a change that leaves the data as it was: an export.
	reads bool
}

// refusal is an actor a change must refuse, with the status it answers.
type refusal struct {
	who  string
	a    Actor
	want int
}

var changes = []change{
	{name: "Forms.Save", action: accounts.ActionFormSaved,
		do: func(s *services, a Actor) error {
			_, err := s.forms.Save(context.Background(), a, "acme", "contact", []byte(`{"title":"Saved","fields":[]}`))
			return err
		},
		may: member(acme, accounts.Editor), short: member(acme, accounts.Viewer), narrow: token(acme, accounts.ScopeSubmissionsRead)},
	{name: "Forms.Publish", action: accounts.ActionFormPublished,
		do: func(s *services, a Actor) error {
			return s.forms.Publish(context.Background(), a, "acme", "contact", 2)
		},
		may: member(acme, accounts.Editor), short: member(acme, accounts.Viewer), narrow: token(acme, accounts.ScopeSubmissionsRead)},
	// acme's version 2 is a draft: saving it again overwrites it, which
	// the audit log does not keep.
	{name: "Forms.SaveDraft",
		do: func(s *services, a Actor) error {
			_, err := s.forms.SaveDraft(context.Background(), a, "acme", "contact", []byte(`{"title":"Drafted","fields":[]}`), 2)
			return err
		},
		may: member(acme, accounts.Editor), short: member(acme, accounts.Viewer), narrow: token(acme, accounts.ScopeSubmissionsRead)},
	{name: "Forms.PublishDraft", action: accounts.ActionFormPublished,
		do: func(s *services, a Actor) error {
			_, err := s.forms.PublishDraft(context.Background(), a, "acme", "contact", 2)
			return err
		},
		may: member(acme, accounts.Editor), short: member(acme, accounts.Viewer), narrow: token(acme, accounts.ScopeSubmissionsRead)},
	{name: "Submissions.Delete", action: accounts.ActionSubmissionsDeleted,
		do: func(s *services, a Actor) error {
			_, err := s.submissions.Delete(context.Background(), a, &hub.Form{Site: "acme", Slug: "contact"}, []string{s.ids["bob"]})
			return err
		},
		may: member(acme, accounts.Editor), short: member(acme, accounts.Viewer), narrow: token(acme, accounts.ScopeForms)},
	{name: "Submissions.DeleteOne", action: accounts.ActionSubmissionsDeleted,
		do: func(s *services, a Actor) error {
			_, err := s.submissions.DeleteOne(context.Background(), a, &hub.Form{Site: "acme", Slug: "contact"}, s.ids["carl"])
			return err
		},
		may: member(acme, accounts.Editor), short: member(acme, accounts.Viewer), narrow: token(acme, accounts.ScopeSubmissionsRead)},
	{name: "Submissions.MarkSpam",
		do: func(s *services, a Actor) error {
			return s.submissions.MarkSpam(context.Background(), a, "acme", "contact", []string{s.ids["dora"]}, true)
		},
		may: member(acme, accounts.Editor), short: member(acme, accounts.Viewer), narrow: token(acme, accounts.ScopeSubmissionsRead)},
	{name: "Submissions.Export", reads: true, action: accounts.ActionSubmissionsExport,
		do: func(s *services, a Actor) error {
			return s.submissions.Export(context.Background(), a, "acme", "contact", "csv", nil, func() error { return nil })
		},
		may: member(acme, accounts.Viewer), short: member(acme, ""), narrow: token(acme, accounts.ScopeForms)},
	{name: "Submissions.Retry",
		do: func(s *services, a Actor) error {
			_, err := s.submissions.Retry(context.Background(), a, "acme", "contact", 7)
			return err
		},
		may: member(acme, accounts.Editor), short: member(acme, accounts.Viewer), narrow: token(acme, accounts.ScopeSubmissionsRead)},
	{name: "Privacy.Export", reads: true, action: accounts.ActionSubmissionsExport, workspaceWide: true,
		do: func(s *services, a Actor) error {
			return s.privacy.Export(context.Background(), a, anna, io.Discard)
		},
		may: member(acme, accounts.Admin), short: member(acme, accounts.Editor), narrow: token(acme, accounts.ScopeSubmissionsRead)},
	{name: "Privacy.ServeExport", reads: true, action: accounts.ActionSubmissionsExport, workspaceWide: true,
		do: func(s *services, a Actor) error {
			return s.privacy.ServeExport(context.Background(), a, anna, httptest.NewRecorder())
		},
		may: member(acme, accounts.Admin), short: member(acme, accounts.Editor), narrow: token(acme, accounts.ScopeForms)},
	{name: "Privacy.Erase", action: accounts.ActionSubmissionsDeleted, workspaceWide: true,
		do: func(s *services, a Actor) error {
			_, err := s.privacy.Erase(context.Background(), a, anna)
			return err
		},
		may: member(acme, accounts.Admin), short: member(acme, accounts.Editor), narrow: token(acme, accounts.ScopeForms)},
}

// TestServicesRefuseWhatIsNotTheActors calls each change as whoever may
// not make it, which changes nothing and records nothing: a member of
// another workspace, even its admin, or its token of scope all, gets 404
// on a site of acme, as for a site that does not exist; a member of acme
// whose role does not allow it, or a token whose scope does not, 403.
// Then the least member who may makes it, which is recorded in acme's
// log under their name and address.
func TestServicesRefuseWhatIsNotTheActors(t *testing.T) {
	for _, c := range changes {
		t.Run(c.name, func(t *testing.T) {
			onEachStore(t, func(t *testing.T, db *sqldb.DB) {
				s := newServices(t, db, "anna", "bob", "carl", "dora")
				before, logged := s.state(t), len(s.events(t, acme))
				refusals := []refusal{
					{"a member of acme whose role does not allow it", c.short, http.StatusForbidden},
					{"a token of acme whose scope does not allow it", c.narrow, http.StatusForbidden},
				}
				if c.workspaceWide {
					refusals = append(refusals, refusal{"the zero actor", Actor{}, http.StatusForbidden})
				} else {
					refusals = append(refusals, refusal{"the zero actor", Actor{}, http.StatusNotFound},
						refusal{"an admin of rival", member(rival, accounts.Admin), http.StatusNotFound},
						refusal{"a token of rival of scope all", token(rival, accounts.ScopeAll), http.StatusNotFound})
				}
				for _, r := range refusals {
					if got := status(c.do(s, r.a)); got != r.want {
						t.Errorf("%s: status %d, want %d", r.who, got, r.want)
					}
				}
				if after := s.state(t); after != before {
					t.Errorf("refusals changed the data:\n%s\nwas\n%s", after, before)
				}
				if es := s.events(t, acme); len(es) != logged {
					t.Errorf("refusals recorded %v", es[logged:])
				}
				for _, es := range s.events(t, rival) {
					if es.Action == c.action {
						t.Errorf("rival's log recorded %+v", es)
					}
				}

				if err := c.do(s, c.may); err != nil {
					t.Fatalf("%s: %v", c.may.Name, err)
				}
				if s.state(t) == before && !c.reads {
					t.Errorf("%s: nothing changed", c.may.Name)
				}
				es := s.events(t, acme)
				switch {
				case c.action == "" && len(es) != logged:
					t.Errorf("recorded %v, which the audit log does not keep", es[logged:])
				case c.action != "" && len(es) != logged+1:
					t.Errorf("recorded %d events, want 1", len(es)-logged)
				case c.action != "":
					e := es[logged]
					if e.Action != c.action || e.Actor != c.may.Name || e.Workspace != acme || e.Client != "192.0.2.1" {
						t.Errorf("recorded %+v", e)
					}
				}
			})
		})
	}
}

// TestOperatorActsEverywhere lets the command line's operator change any
// workspace's site, recorded in the log of the workspace it names.
func TestOperatorActsEverywhere(t *testing.T) {
	onEachStore(t, func(t *testing.T, db *sqldb.DB) {
		s := newServices(t, db)
		n, err := s.forms.Save(context.Background(), Operator(rival), "rival", "contact", []byte(`{"title":"Pushed"}`))
		if err != nil || n != 3 {
			t.Fatalf("saved version %d, %v", n, err)
		}
		es := s.events(t, rival)
		if e := es[len(es)-1]; e.Action != accounts.ActionFormSaved || e.Actor != accounts.Operator || e.Target != "rival/contact" || e.Detail != "version 3" {
			t.Errorf("recorded %+v", e)
		}
		v, err := db.FormVersions(context.Background(), "rival", "contact")
		if err != nil || v[0].CreatedBy != accounts.Operator {
			t.Errorf("versions %+v, %v", v, err)
		}
	})
}

// TestServicesRecordWhatToday records each change with the details the
// console and the admin API have always written: the version saved, the
// version published over the one live before, a deletion's counts (under
// its id when one), an export's format and query, and a person by their
// masked address alone.
func TestServicesRecordWhatToday(t *testing.T) {
	onEachStore(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		s := newServices(t, db, "anna", "bob", "carl")
		ed, ci := member(acme, accounts.Editor), token(acme, accounts.ScopeAll)
		form := &hub.Form{Site: "acme", Slug: "contact"}
		if n, err := s.forms.Save(ctx, ci, "acme", "contact", []byte(`{"title":"Saved"}`)); err != nil || n != 3 {
			t.Fatalf("saved %d, %v", n, err)
		}
		if err := s.forms.Publish(ctx, ed, "acme", "contact", 3); err != nil {
			t.Fatal(err)
		}
		if _, err := s.submissions.Delete(ctx, ed, form, []string{s.ids["bob"], s.theirs["bob"]}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.submissions.DeleteOne(ctx, ci, form, s.ids["carl"]); err != nil {
			t.Fatal(err)
		}
		query := map[string][]string{"q": {"anna"}}
		if err := s.submissions.Export(ctx, ed, "acme", "contact", "json", query, func() error { return nil }); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := s.privacy.Export(ctx, Operator(acme), anna, &out); err != nil || !strings.Contains(out.String(), s.ids["anna"]) || strings.Contains(out.String(), s.theirs["anna"]) {
			t.Errorf("exported %s, %v: want acme's submission of anna alone", out.String(), err)
		}
		if e, err := s.privacy.Erase(ctx, member(acme, accounts.Admin), anna); err != nil || e.Submissions != 1 {
			t.Errorf("erased %+v, %v", e, err)
		}
		if _, err := db.Submission(ctx, s.theirs["anna"]); err != nil {
			t.Errorf("rival's submission of anna: %v", err)
		}
		var got []string
		for _, e := range s.events(t, acme) {
			got = append(got, e.Actor+" | "+e.Action+" | "+e.Target+" | "+e.Detail)
		}
		want := []string{
			"token all | form saved | acme/contact | version 3",
			"editor@default.example | form published | acme/contact | " + accounts.PublishedDetail(3, 1),
			"editor@default.example | submissions deleted | acme/contact | 1 submissions, 0 files",
			"token all | submissions deleted | acme/contact | " + s.ids["carl"] + ": 1 submissions, 0 files",
			"editor@default.example | submissions exported | acme/contact | json, q=anna",
			accounts.Operator + " | submissions exported | a***@example.com | " + privacy.ExportDetail,
			"admin@default.example | submissions deleted | a***@example.com | one person's data erased: 1 submissions, 0 files, 0 pending deliveries, 0 drafts",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("recorded\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if vs, err := db.FormVersions(ctx, "acme", "contact"); err != nil || vs[0].CreatedBy != "all" {
			t.Errorf("versions %+v, %v: want the newest saved by the token's name", vs, err)
		}
	})
}

// TestRetryKeepsToTheForm refuses, as missing, a delivery of another form
// named on a route of the actor's own.
func TestRetryKeepsToTheForm(t *testing.T) {
	onEachStore(t, func(t *testing.T, db *sqldb.DB) {
		s := newServices(t, db)
		for _, id := range []int64{8, 9} {
			if _, err := s.submissions.Retry(context.Background(), member(acme, accounts.Admin), "acme", "contact", id); !errors.Is(err, hub.ErrNotFound) {
				t.Errorf("delivery %s: %v, want not found", strconv.FormatInt(id, 10), err)
			}
		}
		if len(s.deliveries.retried) != 0 {
			t.Errorf("retried %v", s.deliveries.retried)
		}
	})
}
