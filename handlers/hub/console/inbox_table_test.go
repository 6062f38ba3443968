package console_test

import (
	"context"
	"net/http"
	"net/url"
	re "regexp"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
)

// orderForm is acme/order: a question of each kind the table renders.
const orderForm = `{"title":"Order form","fields":[
	{"name":"name","type":"text","label":"Your name"},
	{"name":"plan","type":"radio","label":"Plan","options":[{"value":"pro","label":"Professional"},{"value":"basic","label":"Basic"}]},
	{"name":"agree","type":"checkbox","label":"I agree"},
	{"name":"day","type":"date","label":"Delivery day"},
	{"name":"note","type":"textarea","label":"Note"},
	{"name":"cv","type":"file","label":"Attachment"}]}`

const orderInbox = console.Path + "/forms/acme/order/submissions"

// orderConsole is an inbox console with acme/order published, and Jane
// signed in from Kolkata.
func orderConsole(t *testing.T) (*testConsole, *browser) {
	t.Helper()
	tc := inboxConsole(t, &memFiles{files: map[string][]byte{}})
	ctx := context.Background()
	n, err := tc.db.SaveFormVersion(ctx, "acme", "order", []byte(orderForm), "test", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := tc.db.PublishFormVersion(ctx, "acme", "order", n, time.Now()); err != nil {
		t.Fatal(err)
	}
	b := tc.browser()
	if res := b.signInFrom("Asia/Kolkata", janeEmail, janePassword); res.status != http.StatusSeeOther {
		t.Fatalf("sign-in: %d", res.status)
	}
	return tc, b
}

// headers returns the texts of the table's column headers.
func headers(t *testing.T, body string) []string {
	t.Helper()
	var out []string
	for _, m := range re.MustCompile(`<th scope="col"[^>]*>(.*?)</th>`).FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}

// rowOf returns the table row of submission id.
func rowOf(t *testing.T, body, id string) string {
	t.Helper()
	i := strings.Index(body, `id="select-`+id+`"`)
	if i < 0 {
		t.Fatalf("no row of %s", id)
	}
	end := strings.Index(body[i:], "</tr>")
	return body[i : i+end]
}

// TestInboxTable shows a column per question under its label in the
// form's order, answers in words, files as links and empty answers as a
// dash, the time in the user's time zone.
func TestInboxTable(t *testing.T) {
	tc, b := orderConsole(t)
	ada := tc.submit("order", time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC), 1,
		`{"name":"Ada Lovelace","plan":"pro","agree":true,"day":"2026-12-01","note":""}`, "plan.pdf")
	bob := tc.submit("order", time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC), 1, `{"name":"Bob","plan":"basic","agree":false}`)

	page := b.get(orderInbox)
	if page.status != http.StatusOK {
		t.Fatalf("inbox: %d", page.status)
	}
	want := []string{`<span class="hubform-visually-hidden">Select</span>`, "Received", "Your name", "Plan", "I agree", "Delivery day", "Note", "Attachment"}
	if got := headers(t, page.body); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("headers %q, want %q", got, want)
	}
	row := rowOf(t, page.body, ada)
	for _, w := range []string{
		"2026-11-28 14:30 IST", answer("Ada Lovelace"), answer("Professional"), answer("Yes"), answer("1 Dec 2026"),
		`<span class="console-none"><span aria-hidden="true">—</span><span class="hubform-visually-hidden">No answer</span></span>`,
		`<a href="` + orderInbox + "/" + ada + `/files/0" download>plan.pdf</a> <span class="console-size">5 bytes</span>`,
	} {
		if !strings.Contains(row, w) {
			t.Errorf("Ada's row lacks %s: %s", w, row)
		}
	}
	row = rowOf(t, page.body, bob)
	if !strings.Contains(row, answer("No")) || !strings.Contains(row, answer("Basic")) || strings.Count(row, "console-none") != 3 {
		t.Errorf("Bob's row: want No, Basic and three dashes (day, note, file): %s", row)
	}
	if strings.Index(row, answer("Basic")) > strings.Index(row, answer("No")) {
		t.Error("Bob's answers are not in the form's order")
	}
}

// addMember makes a user with Jane's password, a member of the default
// workspace with role, or the admin of a workspace of their own, named
// own, when own is set.
func addMember(t *testing.T, tc *testConsole, email string, role accounts.Role, own string) {
	t.Helper()
	ctx := context.Background()
	hash, err := accounts.HashPassword(janePassword, accounts.Params{Memory: 64, Time: 1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := tc.db.CreateUser(ctx, accounts.User{Email: email, PasswordHash: hash, CreatedAt: time.Now(), ProvedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if own != "" {
		err = tc.db.CreateWorkspace(ctx, own, email, time.Now())
	} else {
		err = tc.db.SetMember(ctx, accounts.Member{Workspace: accounts.DefaultWorkspace, Email: email, Role: role, CreatedAt: time.Now()})
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestInboxColumnsKept hides a column for Jane and this form only; the
// choice stays on the next visit and in another session of hers, as on
// another device, but not for another member; it comes back when she
// shows it.
func TestInboxColumnsKept(t *testing.T) {
	tc, b := orderConsole(t)
	addMember(t, tc, "vic@example.com", accounts.Viewer, "")
	tc.submit("order", time.Now(), 1, `{"name":"Ada","note":"Hello"}`)
	tc.submit("contact", time.Now(), 2, `{"name":"Ann","message":"Hi"}`)
	all := []string{"name", "plan", "agree", "day", "note", "cv"}
	chooseAs := func(b *browser, show ...string) response {
		return b.do(http.MethodPost, orderInbox+"/columns", url.Values{"_csrf": {b.csrf(orderInbox)}, "columns": {`["name","plan","agree","day","note","cv"]`}, "show": show, "return": {"q=Ada"}}, nil)
	}
	res := chooseAs(b, "name", "plan", "agree", "day", "cv")
	if res.status != http.StatusSeeOther || res.header.Get("Location") != orderInbox+"?q=Ada" {
		t.Fatalf("choosing columns: %d to %q", res.status, res.header.Get("Location"))
	}
	page := b.get(orderInbox)
	if got := strings.Join(headers(t, page.body), "|"); strings.Contains(got, "Note") || !strings.Contains(got, "Your name") || strings.Contains(page.body, answer("Hello")) {
		t.Errorf("Note was hidden, yet the headers are %s", got)
	}
	if !strings.Contains(page.body, `name="show" value="note" id="column-4">`) || !strings.Contains(page.body, `name="show" value="name" id="column-0" checked>`) {
		t.Error("the Columns chooser does not show what is hidden and what is shown")
	}
	if contact := b.get(contactInbox); !strings.Contains(contact.body, answer("Hi")) {
		t.Error("hiding a column of one form hid another form's")
	}
	// Jane signed in on another device: her choice is there.
	other := tc.browser()
	other.signIn(janeEmail, janePassword)
	if page := other.get(orderInbox); page.status != http.StatusOK || strings.Contains(page.body, answer("Hello")) ||
		!strings.Contains(page.body, `name="show" value="note" id="column-4">`) {
		t.Errorf("Jane's other session does not keep the Note column hidden: %d", page.status)
	}
	// Vic, another member, sees every column; his choice leaves Jane's
	// table as she chose it.
	vic := tc.browser()
	vic.signIn("vic@example.com", janePassword)
	if page := vic.get(orderInbox); page.status != http.StatusOK || !strings.Contains(page.body, answer("Hello")) {
		t.Errorf("Jane's choice hid a column of Vic's table: %d", page.status)
	}
	if res := chooseAs(vic, "plan", "agree", "day", "note", "cv"); res.status != http.StatusSeeOther {
		t.Fatalf("Vic choosing columns: %d", res.status)
	}
	if page := vic.get(orderInbox); strings.Contains(page.body, answer("Ada")) || !strings.Contains(page.body, answer("Hello")) {
		t.Error("Vic's table does not hide the name he hid")
	}
	if page := other.get(orderInbox); !strings.Contains(page.body, answer("Ada")) || strings.Contains(page.body, answer("Hello")) {
		t.Error("Vic's choice changed Jane's table")
	}
	chooseAs(other, all...)
	if page := b.get(orderInbox); !strings.Contains(page.body, answer("Hello")) {
		t.Error("showing every column again in one session did not bring Note back in the other")
	}
}

// TestInboxColumnsClosed: choosing columns needs a session and the CSRF
// token, answers another workspace's admin 404 and keeps nothing for
// them, and is a viewer's right: it changes their own view, no data.
func TestInboxColumnsClosed(t *testing.T) {
	tc, _ := orderConsole(t)
	ctx := context.Background()
	addMember(t, tc, "vic@example.com", accounts.Viewer, "")
	addMember(t, tc, "olga@example.com", "", "rival")
	form := url.Values{"columns": {`["note"]`}}
	if res := tc.browser().do(http.MethodPost, orderInbox+"/columns", form, nil); res.status != http.StatusUnauthorized {
		t.Errorf("columns without a session: %d, want 401", res.status)
	}
	olga, vic := tc.browser(), tc.browser()
	olga.signIn("olga@example.com", janePassword)
	vic.signIn("vic@example.com", janePassword)
	if res := vic.do(http.MethodPost, orderInbox+"/columns", form, nil); res.status != http.StatusForbidden {
		t.Errorf("columns without the CSRF token: %d, want 403", res.status)
	}
	form.Set("_csrf", olga.csrf(console.Path))
	if res := olga.do(http.MethodPost, orderInbox+"/columns", form, nil); res.status != http.StatusNotFound {
		t.Errorf("columns of acme's form as rival's admin: %d, want 404", res.status)
	}
	if res := olga.get(orderInbox); res.status != http.StatusNotFound {
		t.Errorf("acme's table as rival's admin: %d, want 404", res.status)
	}
	if hidden, err := tc.db.HiddenColumns(ctx, "olga@example.com", "acme", "order"); err != nil || hidden != nil {
		t.Errorf("rival's admin kept a choice of acme's columns: %q, %v", hidden, err)
	}
	form.Set("_csrf", vic.csrf(console.Path))
	if res := vic.do(http.MethodPost, orderInbox+"/columns", form, nil); res.status != http.StatusSeeOther {
		t.Errorf("columns as acme's viewer: %d, want 303", res.status)
	}
	if hidden, _ := tc.db.HiddenColumns(ctx, "vic@example.com", "acme", "order"); len(hidden) != 1 || hidden[0] != "note" {
		t.Errorf("acme's viewer's choice = %q, want note hidden", hidden)
	}
}

// TestInboxSubmissionPreviousNext links a submission's page to the newer
// and the older one of the same search, and back to that search.
func TestInboxSubmissionPreviousNext(t *testing.T) {
	tc, b := orderConsole(t)
	day := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	first := tc.submit("order", day, 1, `{"name":"Ada one"}`)
	tc.submit("order", day.Add(time.Hour), 1, `{"name":"Bob"}`)
	second := tc.submit("order", day.Add(2*time.Hour), 1, `{"name":"Ada two"}`)
	third := tc.submit("order", day.Add(3*time.Hour), 1, `{"name":"Ada three"}`)
	tc.submit("contact", day.Add(90*time.Minute), 2, `{"name":"Ada of another form"}`)

	list := b.get(orderInbox + "?q=ada")
	if !strings.Contains(list.body, `href="`+orderInbox+"/"+second+`?q=ada" data-panel>`) {
		t.Fatalf("the table's rows do not link to the submission with the search: %s", rowOf(t, list.body, second))
	}
	link := func(body, rel string) string {
		m := re.MustCompile(`href="([^"]*)" rel="` + rel + `"`).FindStringSubmatch(body)
		if m == nil {
			return ""
		}
		return strings.ReplaceAll(m[1], "&amp;", "&")
	}
	page := b.get(orderInbox + "/" + second + "?q=ada")
	if got, want := link(page.body, "prev"), orderInbox+"/"+third+"?q=ada"; got != want {
		t.Errorf("newer: %q, want %q", got, want)
	}
	if got, want := link(page.body, "next"), orderInbox+"/"+first+"?q=ada"; got != want {
		t.Errorf("older: %q, want %q (Bob is not in the search, another form's never)", got, want)
	}
	if !strings.Contains(page.body, `href="`+orderInbox+`?q=ada" data-panel-close>`) {
		t.Error("the page does not link back to the search")
	}
	if ends := b.get(orderInbox + "/" + third + "?q=ada"); link(ends.body, "prev") != "" || link(ends.body, "next") == "" {
		t.Error("the newest submission links to a newer one, or to no older one")
	}
	if ends := b.get(orderInbox + "/" + first + "?q=ada"); link(ends.body, "next") != "" {
		t.Error("the oldest submission links to an older one")
	}
}

// TestInboxSpamUndo says what marking as spam did, with an Undo button
// that puts the submissions back; a deletion says what it deleted.
func TestInboxSpamUndo(t *testing.T) {
	tc, b := orderConsole(t)
	ada := tc.submit("order", time.Now(), 1, `{"name":"Ada"}`)
	bob := tc.submit("order", time.Now(), 1, `{"name":"Bob"}`, "a.pdf")
	token := b.csrf(orderInbox)
	res := b.do(http.MethodPost, orderInbox+"/spam", url.Values{"_csrf": {token}, "id": {ada}, "spam": {"1"}, "return": {"q=a"}}, nil)
	if res.status != http.StatusSeeOther {
		t.Fatalf("mark as spam: %d", res.status)
	}
	page := b.get(res.header.Get("Location"))
	undo := re.MustCompile(`(?s)<div role="status" id="notice" class="console-undo"><p>One submission moved to Spam.</p><form method="post" action="` + orderInbox + `/spam">(.*?)</form>`).FindStringSubmatch(page.body)
	if undo == nil {
		t.Fatalf("no notice with an Undo after marking as spam: %s", page.body)
	}
	for _, w := range []string{`name="id" value="` + ada + `"`, `name="spam" value="0"`, `name="return" value="q=a"`, `>Undo</button>`} {
		if !strings.Contains(undo[1], w) {
			t.Errorf("the Undo form lacks %s: %s", w, undo[1])
		}
	}
	if again := b.get(orderInbox); strings.Contains(again.body, "moved to Spam") {
		t.Error("the notice is shown twice")
	}
	res = b.do(http.MethodPost, orderInbox+"/spam", url.Values{"_csrf": {token}, "id": {ada}, "spam": {"0"}}, nil)
	if s, err := tc.db.Submission(context.Background(), ada); res.status != http.StatusSeeOther || err != nil || s.Spam {
		t.Fatalf("undo: %d, %+v, %v: want it back in the inbox", res.status, s, err)
	}
	if page := b.get(orderInbox); !strings.Contains(page.body, "One submission moved back to the inbox.") || !strings.Contains(page.body, `id="select-`+ada) {
		t.Error("after the undo the inbox does not say it, or lacks the submission")
	}

	_ = bob
}

// TestInboxDeleteUndo checks that a delete says what it took, with an
// Undo that works without JavaScript and brings the submissions back.
func TestInboxDeleteUndo(t *testing.T) {
	tc, b := orderConsole(t)
	ada := tc.submit("order", time.Now(), 1, `{"name":"Ada"}`)
	bob := tc.submit("order", time.Now(), 1, `{"name":"Bob"}`, "a.pdf")
	token := b.csrf(orderInbox)
	res := b.do(http.MethodPost, orderInbox+"/delete", url.Values{"_csrf": {token}, "id": {ada, bob}, "return": {"q=a"}}, nil)
	if res.status != http.StatusSeeOther {
		t.Fatalf("delete: %d", res.status)
	}
	page := b.get(res.header.Get("Location"))
	undo := re.MustCompile(`(?s)<div role="status" id="notice" class="console-undo"><p>2 submissions deleted, with one file.</p><form method="post" action="` + orderInbox + `/undelete">(.*?)</form>`).FindStringSubmatch(page.body)
	if undo == nil {
		t.Fatalf("no notice with an Undo after deleting: %s", page.body)
	}
	for _, w := range []string{`name="id" value="` + ada + `"`, `name="id" value="` + bob + `"`, `name="return" value="q=a"`, `>Undo</button>`} {
		if !strings.Contains(undo[1], w) {
			t.Errorf("the Undo form lacks %s: %s", w, undo[1])
		}
	}
	if page := b.get(orderInbox); strings.Contains(page.body, `id="select-`+ada) || strings.Contains(page.body, "deleted, with") {
		t.Error("the inbox still lists a deleted submission, or says the notice twice")
	}
	if _, err := tc.db.Submission(context.Background(), ada); err == nil {
		t.Error("a deleted submission is still read")
	}
	res = b.do(http.MethodPost, orderInbox+"/undelete", url.Values{"_csrf": {token}, "id": {ada, bob}, "return": {"q=a"}}, nil)
	if res.status != http.StatusSeeOther || res.header.Get("Location") != orderInbox+"?q=a" {
		t.Fatalf("undo: %d to %q", res.status, res.header.Get("Location"))
	}
	for _, id := range []string{ada, bob} {
		if _, err := tc.db.Submission(context.Background(), id); err != nil {
			t.Errorf("submission %s after the undo: %v", id, err)
		}
	}
	if page := b.get(orderInbox); !strings.Contains(page.body, "2 submissions restored.") || !strings.Contains(page.body, `id="select-`+ada) {
		t.Error("after the undo the inbox does not say it, or lacks the submission")
	}
	// Undone again, nothing is left to restore.
	res = b.do(http.MethodPost, orderInbox+"/undelete", url.Values{"_csrf": {token}, "id": {ada}}, nil)
	if page := b.get(res.header.Get("Location")); !strings.Contains(page.body, "can be restored only for 30 minutes") {
		t.Errorf("undoing what is not deleted does not say so: %s", page.body)
	}
}
