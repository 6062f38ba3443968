package console_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	re "regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/inbox"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/hubclient"
)

// memFiles is file storage in memory; with sign set it hands out links
// as a bucket does.
type memFiles struct {
	mu    sync.Mutex
	files map[string][]byte
}

func (m *memFiles) NewReader(_ context.Context, key string) (io.ReadCloser, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.files[key]
	if !ok {
		return nil, hub.ErrNotFound
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}

func (m *memFiles) Delete(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.files, key)
	return nil
}

func (m *memFiles) has(key string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.files[key]
	return ok
}

// bucketFiles signs links, as s3blob.Bucket does.
type bucketFiles struct{ *memFiles }

func (bucketFiles) SignedGetURL(_ context.Context, key, filename string, expiry time.Duration) (string, error) {
	return "https://bucket.example/" + key + "?expires=" + expiry.String(), nil
}

// contactV1 and contactV2 are two versions of acme/contact, whose label
// of "name" differs.
const (
	contactV1 = `{"title":"Contact","fields":[{"name":"name","type":"text","label":"Your name"},{"name":"message","type":"textarea","label":"Message"},{"name":"cv","type":"file"}]}`
	contactV2 = `{"title":"Contact","fields":[{"name":"name","type":"text","label":"Full name"},{"name":"message","type":"textarea","label":"Message"},{"name":"cv","type":"file"}]}`
)

// inboxConsole is a console with an inbox over acme/contact, published at
// version 2, and acme/other.
func inboxConsole(t *testing.T, files inbox.Files, change ...func(*console.Config)) *testConsole {
	t.Helper()
	tc := newConsole(t, func(cfg *console.Config) {
		db := cfg.Users.(*sqldb.DB)
		cfg.Inbox = &inbox.Inbox{Forms: formsource.NewStored(db, nil), Store: db, Files: files, Logger: cfg.Logger}
		cfg.Store = db
		for _, ch := range change {
			ch(cfg)
		}
	})
	ctx := context.Background()
	for _, f := range []struct{ slug, body string }{{"contact", contactV1}, {"contact", contactV2}, {"other", contactV1}} {
		n, err := tc.db.SaveFormVersion(ctx, "acme", f.slug, []byte(f.body), "test", time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if err := tc.db.PublishFormVersion(ctx, "acme", f.slug, n, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	return tc
}

// submit stores a submission of acme/slug with the payload and files.
func (tc *testConsole) submit(slug string, created time.Time, version int64, payload string, files ...string) string {
	tc.t.Helper()
	ctx := context.Background()
	s := hub.Submission{ID: hub.NewID(created), Site: "acme", Slug: slug, CreatedAt: created, Payload: json.RawMessage(payload),
		FormVersion: version, Attachments: []hubclient.Attachment{}}
	for i, name := range files {
		u := hub.Upload{Key: fmt.Sprintf("acme/%s/%s-%d", slug, s.ID, i), Site: "acme", Slug: slug, Filename: name, MIME: "text/html",
			Size: 5, CreatedAt: created, ExpiresAt: created.Add(time.Hour), UploadedAt: created}
		if err := tc.db.CreateUpload(ctx, u); err != nil {
			tc.t.Fatal(err)
		}
		s.Attachments = append(s.Attachments, hubclient.Attachment{Key: u.Key, Filename: name, Size: 5, MIME: "text/html", Field: "cv"})
	}
	if err := tc.db.CreateSubmission(ctx, s); err != nil {
		tc.t.Fatal(err)
	}
	return s.ID
}

func newInbox(t *testing.T, files inbox.Files) (*testConsole, *browser) {
	t.Helper()
	tc := inboxConsole(t, files)
	b := tc.browser()
	if res := b.signIn(janeEmail, janePassword); res.status != http.StatusSeeOther {
		t.Fatalf("sign-in: %d", res.status)
	}
	return tc, b
}

const contactInbox = console.Path + "/forms/acme/contact/submissions"

func TestInboxListsSearchesAndPages(t *testing.T) {
	tc, b := newInbox(t, &memFiles{files: map[string][]byte{}})
	day := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	jane := tc.submit("contact", day, 2, `{"name":"Jane Roe","message":"About the offer"}`)
	john := tc.submit("contact", day.AddDate(0, 0, 1), 2, `{"name":"John","message":"Hello"}`)
	tc.submit("other", day, 3, `{"name":"Other form's Jane"}`)

	page := b.get(contactInbox)
	if page.status != http.StatusOK || !strings.Contains(page.body, jane) || !strings.Contains(page.body, john) {
		t.Fatalf("inbox: %d %q", page.status, page.body)
	}
	if strings.Index(page.body, john) > strings.Index(page.body, jane) {
		t.Error("the inbox does not list the newest first")
	}
	if strings.Contains(page.body, "Other form") {
		t.Error("the inbox lists another form's submission")
	}
	for _, tt := range []struct {
		query      string
		want, not  []string
		wantStatus int
	}{
		{"?q=jane+ROE", []string{jane}, []string{john}, http.StatusOK},
		{"?q=nobody", []string{"Nothing matches this search."}, []string{jane, john}, http.StatusOK},
		{"?from=2026-11-02", []string{john}, []string{jane}, http.StatusOK},
		{"?to=2026-11-01", []string{jane}, []string{john}, http.StatusOK},
		{"?from=2026-11-03&to=2026-11-01", []string{"must not be after"}, []string{jane, john}, http.StatusBadRequest},
		{"?from=yesterday", []string{"must be a date such as"}, []string{jane, john}, http.StatusBadRequest},
	} {
		res := b.get(contactInbox + tt.query)
		if res.status != tt.wantStatus {
			t.Errorf("%s: %d, want %d", tt.query, res.status, tt.wantStatus)
		}
		for _, w := range tt.want {
			if !strings.Contains(res.body, w) {
				t.Errorf("%s: page lacks %q", tt.query, w)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(res.body, n) {
				t.Errorf("%s: page shows %q", tt.query, n)
			}
		}
	}
	if res := b.get(console.Path + "/forms/acme/nope/submissions"); res.status != http.StatusNotFound {
		t.Errorf("inbox of a form the hub does not know: %d, want 404", res.status)
	}

	// Pages of PageSize, by cursor: the next page starts where one ends.
	var ids []string
	for i := range console.PageSize {
		ids = append(ids, tc.submit("contact", day.AddDate(0, 0, 2).Add(time.Duration(i)*time.Minute), 2, `{"name":"Many"}`))
	}
	first := b.get(contactInbox)
	next := re.MustCompile(`href="([^"]*before=[^"]*)" rel="next"`).FindStringSubmatch(first.body)
	if next == nil || !strings.Contains(first.body, ids[len(ids)-1]) || strings.Contains(first.body, john) {
		t.Fatalf("first page: no next link, or not the newest %d", console.PageSize)
	}
	second := b.get(strings.ReplaceAll(next[1], "&amp;", "&"))
	if !strings.Contains(second.body, john) || !strings.Contains(second.body, jane) || strings.Contains(second.body, ids[1]) {
		t.Errorf("second page lacks the two oldest, or repeats the first page")
	}
}

func TestInboxSubmissionLabelsAndFiles(t *testing.T) {
	files := &memFiles{files: map[string][]byte{}}
	tc, b := newInbox(t, files)
	now := time.Now()
	v1 := tc.submit("contact", now, 1, `{"name":"Jane","message":"=1+1"}`, "Zoë's cv.html")
	files.files["acme/contact/"+v1+"-0"] = []byte("<b>x")
	v2 := tc.submit("contact", now, 2, `{"name":"John"}`)
	old := tc.submit("contact", now, 0, `{"name":"Ann","extra":"kept"}`)
	other := tc.submit("other", now, 3, `{"name":"Other"}`)

	for id, want := range map[string][]string{
		v1:  {"<dt>Your name</dt><dd>" + answer("Jane"), "<dt>Message</dt><dd>" + answer("=1+1"), "Zoë&#39;s cv.html"},
		v2:  {"<dt>Full name</dt><dd>" + answer("John")},
		old: {"<dt>Full name</dt><dd>" + answer("Ann"), "<dt>extra</dt><dd>" + answer("kept")},
	} {
		res := b.get(contactInbox + "/" + id)
		for _, w := range want {
			if res.status != http.StatusOK || !strings.Contains(res.body, w) {
				t.Errorf("submission %s (%d) lacks %s", id, res.status, w)
			}
		}
	}
	if res := b.get(contactInbox + "/" + other); res.status != http.StatusNotFound || strings.Contains(res.body, "Other") {
		t.Errorf("another form's submission under this form: %d %q, want 404", res.status, res.body)
	}

	res := b.get(contactInbox + "/" + v1 + "/files/0")
	if res.status != http.StatusOK || res.body != "<b>x" {
		t.Fatalf("download: %d %q", res.status, res.body)
	}
	if got := res.header.Get("Content-Disposition"); got != `attachment; filename*=utf-8''Zo%C3%AB%27s%20cv.html` {
		t.Errorf("Content-Disposition %q", got)
	}
	if res.header.Get("X-Content-Type-Options") != "nosniff" || res.header.Get("Content-Type") != "application/octet-stream" {
		t.Errorf("download headers %v: want nosniff and application/octet-stream", res.header)
	}
	for _, path := range []string{
		contactInbox + "/" + v1 + "/files/1",
		contactInbox + "/" + v1 + "/files/-1",
		console.Path + "/forms/acme/other/submissions/" + v1 + "/files/0",
	} {
		if res := b.get(path); res.status != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, res.status)
		}
	}
}

// answer is how a page shows an answer's text.
func answer(text string) string { return `<span class="console-answer">` + text + `</span>` }

func TestInboxDownloadFromBucket(t *testing.T) {
	tc, b := newInbox(t, bucketFiles{&memFiles{files: map[string][]byte{}}})
	id := tc.submit("contact", time.Now(), 2, `{"name":"Jane"}`, "cv.pdf")
	res := b.get(contactInbox + "/" + id + "/files/0")
	if want := "https://bucket.example/acme/contact/" + id + "-0?expires=" + inbox.DownloadLinkExpiry.String(); res.status != http.StatusSeeOther || res.header.Get("Location") != want {
		t.Errorf("download from a bucket: %d to %q, want 303 to %q", res.status, res.header.Get("Location"), want)
	}
}

func TestInboxDeleteAndSpam(t *testing.T) {
	files := &memFiles{files: map[string][]byte{}}
	tc, b := newInbox(t, files)
	now := time.Now()
	a := tc.submit("contact", now, 2, `{"name":"Ann"}`, "a.pdf")
	bb := tc.submit("contact", now, 2, `{"name":"Bob"}`)
	c := tc.submit("contact", now, 2, `{"name":"Cid"}`)
	other := tc.submit("other", now, 3, `{"name":"Other"}`, "o.pdf")
	for _, k := range []string{"acme/contact/" + a + "-0", "acme/other/" + other + "-0"} {
		files.files[k] = []byte("x")
	}
	token := b.csrf(contactInbox)
	post := func(action string, form url.Values) response {
		t.Helper()
		return b.do(http.MethodPost, contactInbox+"/"+action, form, nil)
	}

	// Without the token, or without a session, nothing changes.
	if res := post("delete", url.Values{"id": {a}}); res.status != http.StatusForbidden {
		t.Errorf("delete without a CSRF token: %d, want 403", res.status)
	}
	if res := post("spam", url.Values{"id": {a}, "spam": {"1"}}); res.status != http.StatusForbidden {
		t.Errorf("spam without a CSRF token: %d, want 403", res.status)
	}
	stranger := tc.browser()
	if res := stranger.do(http.MethodPost, contactInbox+"/delete", url.Values{"id": {a}, "_csrf": {token}}, nil); res.status != http.StatusUnauthorized {
		t.Errorf("delete without a session: %d, want 401", res.status)
	}
	if _, err := tc.db.Submission(context.Background(), a); err != nil {
		t.Fatalf("refused posts deleted %s: %v", a, err)
	}

	// Delete two, naming the other form's too: only this form's go, at
	// once and unasked, since the notice offers to undo it.
	res := post("delete", url.Values{"id": {a, bb, other}, "_csrf": {token}, "return": {"q=x"}})
	if res.status != http.StatusSeeOther || res.header.Get("Location") != contactInbox+"?q=x" {
		t.Fatalf("delete: %d to %q", res.status, res.header.Get("Location"))
	}
	for id, gone := range map[string]bool{a: true, bb: true, c: false, other: false} {
		_, err := tc.db.Submission(context.Background(), id)
		if gone != (err != nil) {
			t.Errorf("submission %s: %v, want deleted %v", id, err, gone)
		}
	}
	// The files wait for the undo period, when the sweep purges them.
	if !files.has("acme/contact/"+a+"-0") || !files.has("acme/other/"+other+"-0") {
		t.Error("delete took a file before its undo period was over")
	}

	// Spam leaves the default view and shows in the spam view, and back.
	if res := post("spam", url.Values{"id": {c}, "spam": {"1"}, "_csrf": {token}}); res.status != http.StatusSeeOther {
		t.Fatalf("mark as spam: %d", res.status)
	}
	if page := b.get(contactInbox); strings.Contains(page.body, `id="select-`+c) {
		t.Error("a submission marked as spam is in the default view")
	}
	if page := b.get(contactInbox + "?spam=1"); !strings.Contains(page.body, c) || !strings.Contains(page.body, "Not spam") {
		t.Error("the spam view lacks the submission marked as spam")
	}
	if res := post("spam", url.Values{"id": {c}, "spam": {"0"}, "_csrf": {token}}); res.status != http.StatusSeeOther {
		t.Fatalf("not spam: %d", res.status)
	}
	if page := b.get(contactInbox); !strings.Contains(page.body, `id="select-`+c) {
		t.Error("a submission marked as not spam is not back in the default view")
	}
}

func TestInboxExport(t *testing.T) {
	tc, b := newInbox(t, &memFiles{files: map[string][]byte{}})
	now := time.Now()
	jane := tc.submit("contact", now, 2, `{"name":"Jane","message":"=HYPERLINK(\"x\")"}`, "cv.pdf")
	john := tc.submit("contact", now.Add(time.Millisecond), 1, `{"name":"John","extra":"kept"}`)
	spam := tc.submit("contact", now.Add(2*time.Millisecond), 2, `{"name":"Jane spam"}`)
	other := tc.submit("other", now, 3, `{"name":"Jane other"}`)
	if _, err := tc.db.SetSpam(context.Background(), "acme", "contact", []string{spam}, true); err != nil {
		t.Fatal(err)
	}
	base := console.Path + "/forms/acme/contact/export/"

	res := b.get(base + "csv?q=jane")
	if res.status != http.StatusOK || !strings.HasPrefix(res.header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("CSV export: %d %v", res.status, res.header)
	}
	rows, err := csv.NewReader(strings.NewReader(res.body)).ReadAll()
	if err != nil || len(rows) != 3 || rows[2][0] != jane {
		t.Fatalf("CSV export of q=jane: %q, %v; want two header rows and %s", rows, err, jane)
	}
	// The live form's labels in its order, then the machine names; a
	// file links to the console's download route, whole.
	if got, want := strings.Join(rows[0], "|"), "Submission|Received (UTC)|Full name|Message|cv"; got != want {
		t.Errorf("CSV labels %s, want %s", got, want)
	}
	if got, want := strings.Join(rows[1], "|"), "id|createdAt|name|message|cv"; got != want {
		t.Errorf("CSV names %s, want %s", got, want)
	}
	if got, want := rows[2][4], tc.srv.URL+contactInbox+"/"+jane+"/files/0"; got != want {
		t.Errorf("CSV file cell %q, want %q", got, want)
	}
	if !strings.Contains(res.body, `'=HYPERLINK`) {
		t.Errorf("CSV export did not neutralise a formula: %q", res.body)
	}
	// A value of a name the live form lacks keeps a column, after the
	// form's.
	rows, _ = csv.NewReader(strings.NewReader(b.get(base + "csv?q=john").body)).ReadAll()
	if len(rows) != 3 || strings.Join(rows[1], "|") != "id|createdAt|name|message|cv|extra" || rows[2][5] != "kept" {
		t.Errorf("CSV of a submission with a name the form lacks: %q", rows)
	}

	res = b.get(base + "json")
	var sheet struct {
		Form        string
		Questions   []struct{ Question, Name string }
		Submissions []struct {
			ID      string
			Answers []struct {
				Question, Name, Answer string
				Files                  []struct{ Name, URL string }
			}
		}
	}
	if err := json.Unmarshal([]byte(res.body), &sheet); err != nil || res.status != http.StatusOK {
		t.Fatalf("JSON export: %d %v %q", res.status, err, res.body)
	}
	var got []string
	for _, s := range sheet.Submissions {
		got = append(got, s.ID)
	}
	if strings.Join(got, ",") != strings.Join([]string{jane, john}, ",") {
		t.Errorf("JSON export lists %v, want %s and %s, oldest first, no spam, not %s of another form", got, jane, john, other)
	}
	if sheet.Form != "Contact" || len(sheet.Questions) != 3 || sheet.Questions[0].Question != "Full name" || sheet.Questions[2].Name != "cv" {
		t.Errorf("JSON questions: %+v", sheet)
	}
	if len(sheet.Submissions) == 2 {
		a := sheet.Submissions[0].Answers
		if len(a) != 3 || a[0].Question != "Full name" || a[0].Answer != "Jane" || a[1].Name != "message" ||
			len(a[2].Files) != 1 || a[2].Files[0].URL != tc.srv.URL+contactInbox+"/"+jane+"/files/0" {
			t.Errorf("Jane's answers in JSON: %+v", a)
		}
	}
	if res := b.get(base + "xml"); res.status != http.StatusNotFound {
		t.Errorf("export as xml: %d, want 404", res.status)
	}
}

// flagged stores a submission of acme/contact the hub flagged as spam for
// reasons, held as the hub holds one.
func (tc *testConsole) flagged(created time.Time, payload string, reasons ...string) string {
	tc.t.Helper()
	s := hub.Submission{ID: hub.NewID(created), Site: "acme", Slug: "contact", CreatedAt: created, Payload: json.RawMessage(payload),
		FormVersion: 2, Attachments: []hubclient.Attachment{}, Spam: true, Held: true, SpamReasons: reasons}
	if err := tc.db.CreateSubmission(context.Background(), s); err != nil {
		tc.t.Fatal(err)
	}
	return s.ID
}

// TestInboxSpamReasons shows why the hub flagged a submission, on its page
// and in the spam view, and says a submission an owner marked is marked.
func TestInboxSpamReasons(t *testing.T) {
	tc, b := newInbox(t, &memFiles{files: map[string][]byte{}})
	now := time.Now()
	fast, linked := "sent 0.3 s after the form was shown (the form's minimum is 2 s)", "the message holds 5 links (the form's maximum is 2)"
	bot := tc.flagged(now, `{"name":"Bot"}`, fast, linked)
	byHand := tc.submit("contact", now.Add(time.Millisecond), 2, `{"name":"Marked by Jane"}`)
	if _, err := tc.db.SetSpam(context.Background(), "acme", "contact", []string{byHand}, true); err != nil {
		t.Fatal(err)
	}

	page := b.get(contactInbox + "/" + bot)
	for _, want := range []string{"Why the hub marked it as spam", "<li>sent 0.3 s after the form was shown (the form&#39;s minimum is 2 s)</li>", "<li>the message holds 5 links"} {
		if page.status != http.StatusOK || !strings.Contains(page.body, want) {
			t.Errorf("the flagged submission's page (%d) lacks %s", page.status, want)
		}
	}
	page = b.get(contactInbox + "/" + byHand)
	if !strings.Contains(page.body, "Marked as spam.") || strings.Contains(page.body, "Why the hub") {
		t.Errorf("a submission marked by hand: %q, want it marked as spam with no reasons", page.body)
	}

	list := b.get(contactInbox + "?spam=1")
	row := func(id string) string {
		i := strings.Index(list.body, `value="`+id+`"`)
		if i < 0 {
			t.Fatalf("the spam view lacks %s", id)
		}
		end := strings.Index(list.body[i:], "</tr>")
		return list.body[i : i+end]
	}
	if !strings.Contains(list.body, `<th scope="col">Why</th>`) {
		t.Error("the spam view has no column Why")
	}
	if r := row(bot); !strings.Contains(r, "the form&#39;s minimum is 2 s") || !strings.Contains(r, "5 links") {
		t.Errorf("the bot's row in the spam view lacks its reasons: %q", r)
	}
	if r := row(byHand); !strings.Contains(r, "Marked by hand") {
		t.Errorf("the row of a submission marked by hand: %q", r)
	}
	if inbox := b.get(contactInbox); strings.Contains(inbox.body, "<th scope=\"col\">Why</th>") {
		t.Error("the default view has the column Why")
	}
}

// TestInboxPDF downloads a submission as a PDF, linked from its page, its
// time in the session's time zone; another form's submission is not
// there.
func TestInboxPDF(t *testing.T) {
	tc := inboxConsole(t, &memFiles{files: map[string][]byte{}})
	b := tc.browser()
	if res := b.signInFrom("Asia/Kolkata", janeEmail, janePassword); res.status != http.StatusSeeOther {
		t.Fatalf("sign-in: %d", res.status)
	}
	id := tc.submit("contact", time.Date(2026, 11, 21, 10, 30, 0, 0, time.UTC), 2, `{"name":"Zoë Roe","message":"About the offer"}`, "cv.html")
	other := tc.submit("other", time.Now(), 3, `{"name":"Other"}`)

	pdf := contactInbox + "/" + id + "/pdf"
	if page := b.get(contactInbox + "/" + id); !strings.Contains(page.body, `href="`+pdf+`" download>Download as PDF</a>`) {
		t.Errorf("the submission's page does not link to its PDF: %s", page.body)
	}
	res := b.get(pdf)
	if res.status != http.StatusOK || res.header.Get("Content-Type") != "application/pdf" {
		t.Fatalf("PDF: %d %v", res.status, res.header)
	}
	// Named after the form, the day in the user's time zone and the
	// person, readable in any browser.
	if got, want := res.header.Get("Content-Disposition"), `attachment; filename="Contact - 2026-11-21 - Zo_ Roe.pdf"; filename*=UTF-8''Contact%20%E2%80%93%202026-11-21%20%E2%80%93%20Zo%C3%AB%20Roe.pdf`; got != want {
		t.Errorf("Content-Disposition %q, want %q", got, want)
	}
	text := pdfText(t, []byte(res.body))
	for _, want := range []string{"Contact", "Full name Zoë Roe", "Message About the offer", "21 November 2026, 16:00:00 IST", "cv.html"} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF lacks %q: %s", want, text)
		}
	}
	for _, path := range []string{contactInbox + "/" + other + "/pdf", contactInbox + "/nosuch/pdf"} {
		if res := b.get(path); res.status != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, res.status)
		}
	}
}

// pdfText returns the text of a PDF as pdftotext reads it, its lines
// joined by single spaces.
func pdfText(t *testing.T, doc []byte) string {
	t.Helper()
	cmd := exec.Command("pdftotext", "-enc", "UTF-8", "-", "-")
	cmd.Stdin = bytes.NewReader(doc)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext (apt-get install poppler-utils): %v", err)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}
