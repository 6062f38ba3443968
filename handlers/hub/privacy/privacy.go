// Package privacy finds, exports and erases what one person sent to the
// forms of a workspace, known by their e-mail address: the data protection
// requests an owner must answer. A submission is the person's when one of
// its values is that address, or a list holding it (see
// sqldb.HoldsAddress). The command line, the admin API and the console are
// three faces of it.
package privacy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/mail"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// Store finds and erases a person's submissions and drafts, as sqldb.DB
// does.
type Store interface {
	PersonSubmissions(ctx context.Context, workspace, email string, fn func(hub.Submission) error) error
	PersonDrafts(ctx context.Context, workspace, email string, fn func(hub.Draft) error) error
	ErasePerson(ctx context.Context, workspace, email string) (sqldb.Erasure, error)
}

// Files deletes the files of erased submissions, as the hub's storage
// does.
type Files interface {
	Delete(ctx context.Context, key string) error
}

// Deliveries deletes the deliveries not yet made of erased submissions,
// and the requests to confirm an erased address, as delivery.Queue does.
type Deliveries interface {
	DeletePending(ctx context.Context, submissionIDs []string) (int, error)
	DeleteRequests(ctx context.Context, workspace, address string) (int, error)
}

// People answers the requests about one person's data. Store is required;
// without Files or Deliveries there is nothing of theirs to delete.
type People struct {
	Store      Store
	Files      Files
	Deliveries Deliveries
	Logger     *slog.Logger
}

// Erased is what an erasure deleted.
type Erased struct {
	Submissions int `json:"erased"`
	Files       int `json:"files"`
	Deliveries  int `json:"deliveries"`
	// Drafts is how many drafts, forms saved half filled, were deleted.
	Drafts int `json:"drafts"`
}

// Erase deletes every submission of workspace that holds the address
// email, their files and their deliveries not yet made, and the drafts
// that hold it, and returns how many of each. The submissions go first: a delivery that starts meanwhile
// finds its submission gone and ends. A failure to delete a file or a
// delivery is logged and the erasure stands: neither holds the values. On
// a failure of the store, what was erased before it is returned with the
// error.
func (p *People) Erase(ctx context.Context, workspace, email string) (Erased, error) {
	e, err := p.Store.ErasePerson(ctx, workspace, email)
	out := Erased{Submissions: e.Submissions, Files: len(e.Files), Drafts: e.Drafts}
	if p.Files != nil {
		hub.DeleteFiles(ctx, p.Files, e.Files, p.logger())
	}
	if p.Deliveries != nil && len(e.IDs) > 0 {
		n, derr := p.Deliveries.DeletePending(ctx, e.IDs)
		if derr != nil {
			p.logger().ErrorContext(ctx, "pending deliveries of erased submissions left to end on their own", slog.Any("error", derr))
		}
		out.Deliveries = n
	}
	if p.Deliveries != nil {
		n, derr := p.Deliveries.DeleteRequests(ctx, workspace, email)
		if derr != nil {
			p.logger().ErrorContext(ctx, "requests to confirm an erased address left in the queue", slog.Any("error", derr))
		}
		out.Deliveries += n
	}
	return out, err
}

// Export writes the submissions and drafts of workspace that hold the
// address email as one JSON object, oldest first, streamed one at a time:
//
//	{"email": …, "workspace": …, "submissions": [
//	  {"site", "form", "id", "createdAt", "values": {…}, "attachments": [{"filename", "size", "mime"}]}, …],
//	 "drafts": [
//	  {"site", "form", "createdAt", "updatedAt", "expiresAt", "email", "step", "values": {…}, "attachments": […]}, …]}
func (p *People) Export(ctx context.Context, workspace, email string, w io.Writer) error {
	head, _ := json.Marshal(struct {
		Email     string `json:"email"`
		Workspace string `json:"workspace"`
	}{strings.TrimSpace(email), workspace})
	io.WriteString(w, string(head[:len(head)-1])+`,"submissions":`)
	list := newJSONList(w)
	if err := p.Store.PersonSubmissions(ctx, workspace, email, func(s hub.Submission) error { return list.add(exported(s)) }); err != nil {
		return err
	}
	list.end()
	io.WriteString(w, `,"drafts":`)
	list = newJSONList(w)
	if err := p.Store.PersonDrafts(ctx, workspace, email, func(d hub.Draft) error { return list.add(exportedDraft(d)) }); err != nil {
		return err
	}
	list.end()
	_, err := io.WriteString(w, "}\n")
	return err
}

// jsonList writes a JSON array an item at a time, one per line.
type jsonList struct {
	w     io.Writer
	empty bool
}

func newJSONList(w io.Writer) *jsonList {
	io.WriteString(w, "[")
	return &jsonList{w: w, empty: true}
}

func (l *jsonList) add(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if !l.empty {
		io.WriteString(l.w, ",")
	}
	l.empty = false
	io.WriteString(l.w, "\n  ")
	_, err = l.w.Write(data)
	return err
}

func (l *jsonList) end() {
	if !l.empty {
		io.WriteString(l.w, "\n")
	}
	io.WriteString(l.w, "]")
}

// Submission is one submission of a person's export.
type Submission struct {
	Site        string          `json:"site"`
	Form        string          `json:"form"`
	ID          string          `json:"id"`
	CreatedAt   time.Time       `json:"createdAt"`
	Values      json.RawMessage `json:"values"`
	Attachments []File          `json:"attachments"`
}

// File is a file of a Submission, described: the file itself stays in the
// hub's storage.
type File struct {
	Filename string `json:"filename"`
	Size     int64  `json:"size"`
	MIME     string `json:"mime"`
}

// Draft is one draft of a person's export: a form they saved half filled,
// which the hub keeps until ExpiresAt unless it is sent.
type Draft struct {
	Site      string    `json:"site"`
	Form      string    `json:"form"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	ExpiresAt time.Time `json:"expiresAt"`
	// Email is where the link to the draft was mailed, if it was.
	Email       string          `json:"email,omitempty"`
	Step        string          `json:"step,omitempty"`
	Values      json.RawMessage `json:"values"`
	Attachments []File          `json:"attachments"`
}

func exportedDraft(d hub.Draft) Draft {
	out := Draft{Site: d.Site, Form: d.Slug, CreatedAt: d.CreatedAt.UTC(), UpdatedAt: d.UpdatedAt.UTC(), ExpiresAt: d.ExpiresAt.UTC(),
		Email: d.Email, Step: d.Step, Values: d.Payload, Attachments: []File{}}
	for _, a := range d.Attachments {
		out.Attachments = append(out.Attachments, File{Filename: a.Filename, Size: a.Size, MIME: a.MIME})
	}
	return out
}

func exported(s hub.Submission) Submission {
	out := Submission{Site: s.Site, Form: s.Slug, ID: s.ID, CreatedAt: s.CreatedAt.UTC(), Values: s.Payload, Attachments: []File{}}
	for _, a := range s.Attachments {
		out.Attachments = append(out.Attachments, File{Filename: a.Filename, Size: a.Size, MIME: a.MIME})
	}
	return out
}

// ValidAddress reports whether email, without the spaces around it, is an
// e-mail address alone, such as anna@example.com: what a request about a
// person must name.
func ValidAddress(email string) bool {
	email = strings.TrimSpace(email)
	a, err := mail.ParseAddress(email)
	return err == nil && a.Address == email && a.Name == ""
}

// Mask returns email with its local part hidden but its first letter, as
// a***@example.com: the audit log says whose data was touched that far
// and no further, so that it keeps no address of a person who asked to
// be forgotten.
func Mask(email string) string {
	local, domain, ok := strings.Cut(strings.ToLower(strings.TrimSpace(email)), "@")
	if !ok || local == "" {
		return "***"
	}
	r := []rune(local)
	return string(r[:1]) + "***@" + domain
}

// ServeExport answers a request with Export's document, as a download
// named person.json. Once the answer has begun, a failure of Export cuts
// it short, which a reader notices as JSON that does not end, and is
// logged.
func (p *People) ServeExport(ctx context.Context, w http.ResponseWriter, workspace, email string) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Disposition", `attachment; filename="person.json"`)
	w.WriteHeader(http.StatusOK)
	if err := p.Export(ctx, workspace, email, w); err != nil {
		p.logger().ErrorContext(ctx, "exporting a person's data", slog.Any("error", err))
	}
}

// ExportDetail is the audit log's detail of an export of a person's data.
const ExportDetail = "one person's data, json"

// Detail says what an erasure deleted, for the audit log.
func (e Erased) Detail() string {
	return fmt.Sprintf("one person's data erased: %d submissions, %d files, %d pending deliveries, %d drafts", e.Submissions, e.Files, e.Deliveries, e.Drafts)
}

func (p *People) logger() *slog.Logger {
	if p.Logger == nil {
		return slog.Default()
	}
	return p.Logger
}
