// Package inbox reads and manages a form's submissions for its owners: the
// form a route names, a filter read from a query, a submission's values
// under the labels of the form version it was sent to, its files, and
// deletion with them. The console's inbox pages and the admin API's
// submissions routes are two faces of it.
package inbox

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/export"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/hubclient"
)

// Store is what an inbox needs of the hub's database (sqldb.DB).
type Store interface {
	export.Lister
	Submission(ctx context.Context, id string) (hub.Submission, error)
	DeleteSubmissions(ctx context.Context, site, slug string, ids []string) (hub.Deleted, error)
	SetSpam(ctx context.Context, site, slug string, ids []string, spam bool) (int, error)
	// CountSubmissionsBy counts the submissions a filter selects in each
	// interval of length step, as sqldb.DB does.
	CountSubmissionsBy(ctx context.Context, f hub.Filter, step time.Duration) ([]hub.TimeCount, error)
	// FormVersion returns a version of a database form, for the labels a
	// submission was sent with.
	FormVersion(ctx context.Context, site, slug string, version int64) (formsource.Version, error)
}

// Files is what an inbox needs of the hub's file storage.
type Files interface {
	NewReader(ctx context.Context, key string) (io.ReadCloser, error)
	Delete(ctx context.Context, key string) error
}

// LinkSigner is implemented by Files kept in a bucket (s3blob.Bucket):
// downloads are sent to a short-lived presigned link rather than passed
// through the hub.
type LinkSigner interface {
	SignedGetURL(ctx context.Context, key, filename string, expiry time.Duration) (string, error)
}

// DownloadLinkExpiry is how long a presigned download link works.
const DownloadLinkExpiry = time.Minute

// Inbox serves the submissions of the forms Forms finds.
type Inbox struct {
	Forms  hub.FormSource
	Store  Store
	Files  Files
	Logger *slog.Logger
}

// Form returns the form of site and slug, or an error wrapping
// hub.ErrNotFound: an inbox serves the submissions of a form the hub knows,
// and of no other. A form whose file cannot be served is returned with an
// empty schema, so that its submissions stay readable, labelled by name.
func (in *Inbox) Form(ctx context.Context, site, slug string) (*hub.Form, error) {
	if !hub.ValidName(site) || !hub.ValidName(slug) {
		return nil, fmt.Errorf("form %s/%s: %w", site, slug, hub.ErrNotFound)
	}
	f, err := in.Forms.Lookup(site, slug)
	if errors.Is(err, hub.ErrNotFound) {
		return nil, err
	}
	if err != nil {
		in.Logger.WarnContext(ctx, "inbox of a form not served", slog.String("site", site), slog.String("form", slug), slog.Any("error", err))
		f = &hub.Form{Site: site, Slug: slug, Schema: &hubclient.Schema{}}
	}
	return f, nil
}

// Query is an inbox's filter as a URL carries it: q, from, to (dates such
// as 2026-11-23, both days included), spam=1 for the submissions marked as
// spam instead of the others, and before, the cursor.
type Query struct {
	Search, From, To string
	Spam             bool
	Before           string
}

// Values is q as a URL query, without the cursor.
func (q Query) Values() url.Values {
	v := url.Values{}
	for k, s := range map[string]string{"q": q.Search, "from": q.From, "to": q.To} {
		if s != "" {
			v.Set(k, s)
		}
	}
	if q.Spam {
		v.Set("spam", "1")
	}
	return v
}

// ParseQuery reads v into a filter of form's submissions, newest first, its
// days starting at midnight in loc, or says what is wrong with it in a
// sentence for people.
func ParseQuery(form *hub.Form, v url.Values, loc *time.Location) (Query, hub.Filter, string) {
	q := Query{Search: strings.TrimSpace(v.Get("q")), From: v.Get("from"), To: v.Get("to"), Spam: v.Get("spam") == "1", Before: v.Get("before")}
	f := hub.Filter{Site: form.Site, Slug: form.Slug, Search: q.Search, Newest: true, Before: q.Before, Spam: hub.NotSpam}
	if q.Spam {
		f.Spam = hub.OnlySpam
	}
	day := func(s string) (time.Time, bool) {
		t, err := time.ParseInLocation(time.DateOnly, s, loc)
		return t, err == nil
	}
	if q.From != "" {
		t, ok := day(q.From)
		if !ok {
			return q, f, "The date “from” must be a date such as 2026-11-23."
		}
		f.From = t
	}
	if q.To != "" {
		t, ok := day(q.To)
		if !ok {
			return q, f, "The date “to” must be a date such as 2026-11-23."
		}
		// The day itself is included.
		f.To = t.AddDate(0, 0, 1)
	}
	if !f.From.IsZero() && !f.To.IsZero() && !f.From.Before(f.To) {
		return q, f, "The date “from” must not be after the date “to”."
	}
	return q, f, ""
}

// Title is the form's title, or its site and slug.
func Title(f *hub.Form) string {
	if f.Schema != nil && f.Schema.Title != "" {
		return f.Schema.Title
	}
	return f.Site + "/" + f.Slug
}

// Label is a field's name and label.
type Label struct {
	Name, Label string
	// composite is a matrix's or an address's field, which writes its
	// values in words.
	composite *hubclient.Field
}

// Labels returns the labels of the schema's fields that hold values, in
// the schema's order; a field without a label is known by its name.
func Labels(s *hubclient.Schema) []Label {
	if s == nil {
		return nil
	}
	out := make([]Label, 0, len(s.Fields))
	for _, f := range s.Fields {
		if f.TypeOf().IsFiles() || !f.TypeOf().HasValue() || hubclient.IsHoneypot(f.Name) {
			continue
		}
		l := Label{Name: f.Name, Label: cmp.Or(hubclient.Caption(f.Label), f.Name)}
		if f.TypeOf().IsComposite() || f.TypeOf().IsGroup() {
			l.composite = &f
		}
		out = append(out, l)
	}
	return out
}

// Value is one value of a submission under its field's name and label.
type Value struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	Value string `json:"value"`
}

// Values returns the submission's values under the labels, in the
// schema's order, then those the schema does not name, by name.
func Values(payload json.RawMessage, labels []Label) []Value {
	var m map[string]any
	json.Unmarshal(payload, &m)
	var out []Value
	for _, l := range labels {
		if v, ok := m[l.Name]; ok {
			text := export.Cell(v)
			if l.composite != nil {
				text = compositeText(l.composite, v)
			}
			out = append(out, Value{l.Name, l.Label, text})
			delete(m, l.Name)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, Value{k, k, export.Cell(m[k])})
	}
	return out
}

// Summary is the start of a submission's values, for a list.
func Summary(payload json.RawMessage, labels []Label) string {
	var parts []string
	for _, v := range Values(payload, labels) {
		if v.Value != "" {
			parts = append(parts, v.Value)
		}
		if len(parts) == 3 {
			break
		}
	}
	s := strings.Join(parts, " · ")
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	return s
}

// Submission returns the submission of form with the id. When there is
// none of this form, the error is a 404 *hub.Error wrapping
// hub.ErrNotFound; when it cannot be read, a 500 one.
func (in *Inbox) Submission(ctx context.Context, form *hub.Form, id string) (hub.Submission, error) {
	s, err := in.Store.Submission(ctx, id)
	if err == nil && (s.Site != form.Site || s.Slug != form.Slug) {
		err = fmt.Errorf("submission %s of %s/%s: %w", id, form.Site, form.Slug, hub.ErrNotFound)
	}
	switch {
	case errors.Is(err, hub.ErrNotFound):
		return s, &hub.Error{Status: http.StatusNotFound, Message: "No such submission of this form.", Err: err}
	case err != nil:
		return s, hub.Internal("reading a submission", err)
	}
	return s, nil
}

// SchemaOf returns the schema s was sent to: its form version when it
// recorded one that can still be read, else the form's current schema.
func (in *Inbox) SchemaOf(ctx context.Context, form *hub.Form, s hub.Submission) *hubclient.Schema {
	if s.FormVersion == 0 || s.FormVersion == form.Version {
		return form.Schema
	}
	v, err := in.Store.FormVersion(ctx, s.Site, s.Slug, s.FormVersion)
	if err == nil {
		var f *hub.Form
		if f, err = formsource.Parse(s.Site, s.Slug, v.Body); err == nil {
			return f.Schema
		}
	}
	in.Logger.WarnContext(ctx, "labels of the current form shown for a submission to another version",
		slog.String("submission", s.ID), slog.Int64("version", s.FormVersion), slog.Any("error", err))
	return form.Schema
}

// Delete deletes the submissions of form with the ids, and their files;
// ids of other forms are left alone. by says who, for the log.
func (in *Inbox) Delete(ctx context.Context, form *hub.Form, ids []string, by string) (hub.Deleted, error) {
	d, err := in.Store.DeleteSubmissions(ctx, form.Site, form.Slug, ids)
	if err != nil {
		return d, err
	}
	hub.DeleteFiles(ctx, in.Files, d.Files, in.Logger)
	in.Logger.InfoContext(ctx, "submissions deleted", slog.String("site", form.Site), slog.String("form", form.Slug),
		slog.Int("count", d.Submissions), slog.Int("files", len(d.Files)), slog.String("by", by))
	return d, nil
}

// DeletedDetail says what a deletion removed, for the audit log.
func DeletedDetail(d hub.Deleted) string {
	return fmt.Sprintf("%d submissions, %d files", d.Submissions, len(d.Files))
}

// ExportDetail says what an export held, for the audit log: its format and
// the query that selected the submissions.
func ExportDetail(format string, query url.Values) string {
	q, _, _ := ParseQuery(&hub.Form{}, query, time.UTC)
	if v := q.Values().Encode(); v != "" {
		return format + ", " + v
	}
	return format + ", all"
}
