package delivery

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/mail"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	gomail "github.com/wneessen/go-mail"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/delivery/chat"
	"github.com/hubform/hubform/hubclient"
)

// DefaultMaxAttach is the most bytes of files attached to one message;
// a submission with more has its files listed, not attached.
const DefaultMaxAttach = 10 << 20

// Mailer sends e-mail.
type Mailer interface {
	Send(ctx context.Context, m *gomail.Msg) error
}

// Files reads the files of submissions.
type Files interface {
	NewReader(ctx context.Context, key string) (io.ReadCloser, error)
}

// SMTP is a Mailer over SMTP.
type SMTP struct {
	host string
	opts []gomail.Option
}

// NewSMTP returns a Mailer for the server rawURL names:
// smtp://[USER:PASSWORD@]HOST[:PORT] with STARTTLS required (port 587 by
// default), smtps://… with TLS from the start (port 465), and on smtp://
// "?tls=opportunistic" to use STARTTLS when offered or "?tls=none" never
// (a relay on the same machine, tests). Its errors do not repeat the URL,
// which may hold a password.
func NewSMTP(rawURL string, timeout time.Duration) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || u.Hostname() == "" {
		return nil, errors.New("SMTP URL: want smtp://[USER:PASSWORD@]HOST[:PORT] or smtps://…")
	}
	opts := []gomail.Option{gomail.WithTimeout(timeout)}
	port := 587
	switch u.Scheme {
	case "smtp":
		switch tls := u.Query().Get("tls"); tls {
		case "", "required":
			opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
		case "opportunistic":
			opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
		case "none":
			opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
		default:
			return nil, fmt.Errorf("SMTP URL: tls=%q is not required, opportunistic or none", tls)
		}
	case "smtps":
		opts = append(opts, gomail.WithSSL())
		port = 465
	default:
		return nil, errors.New("SMTP URL: the scheme is not smtp or smtps")
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return nil, errors.New("SMTP URL: bad port")
		}
		port = n
	}
	opts = append(opts, gomail.WithPort(port))
	if u.User != nil {
		pw, _ := u.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(u.User.Username()), gomail.WithPassword(pw))
	}
	return &SMTP{host: u.Hostname(), opts: opts}, nil
}

// Send connects, sends m and disconnects.
func (s *SMTP) Send(ctx context.Context, m *gomail.Msg) error {
	c, err := gomail.NewClient(s.host, s.opts...)
	if err != nil {
		return err
	}
	return c.DialAndSendWithContext(ctx, m)
}

// NotifyArgs is a job that e-mails a submission to the form's owners.
type NotifyArgs struct {
	SubmissionID string `json:"submissionId"`
	Site         string `json:"site"`
	Slug         string `json:"form"`
}

// Kind is the River kind of e-mail jobs.
func (NotifyArgs) Kind() string { return "email" }

type notifyWorker struct{ worker[NotifyArgs] }

// Work sends one message to the owners the form lists now that may take
// it now: members of the form's workspace, and addresses that confirmed.
// The others are asked to confirm, once, and left out; the delivery's
// output says how many.
func (w *notifyWorker) Work(ctx context.Context, job *river.Job[NotifyArgs]) error {
	a := job.Args
	log := w.q.cfg.Logger.With("job", job.ID, "submission", a.SubmissionID, "site", a.Site, "form", a.Slug)
	return w.q.mailAbout(ctx, job.JobRow, a.Site, a.Slug, a.SubmissionID, func(form *hub.Form, sub hub.Submission) (*gomail.Msg, error) {
		if form.Settings.Notify == nil || len(form.Settings.Notify.Email) == 0 {
			return nil, river.JobCancel(errors.New("the form no longer lists owners to e-mail"))
		}
		to, waiting, err := w.q.notifiable(ctx, log, a.Site, a.Slug, form.Settings.Notify.Email)
		if err != nil {
			return nil, err
		}
		if waiting > 0 {
			_ = river.RecordOutput(ctx, notifyOutput{Waiting: waiting})
		}
		if len(to) == 0 {
			return nil, river.JobCancel(fmt.Errorf("none of the %d addresses in notify.email is a member's or has confirmed", waiting))
		}
		return w.q.message(ctx, form, sub, to, job.ID)
	})
}

// notifyOutput is what a notification records of its last attempt.
type notifyOutput struct {
	// Waiting is how many addresses in notify.email were left out: no
	// member's, and not confirmed.
	Waiting int `json:"waiting"`
}

// mailAbout makes one attempt of an e-mail job about a submission: it
// reads the form and the submission as they are now, has build make the
// message, and sends it. A form or submission gone cancels the job, as
// does an error of build that river.JobCancel wraps.
func (q *Queue) mailAbout(ctx context.Context, job *rivertype.JobRow, site, slug, id string, build func(*hub.Form, hub.Submission) (*gomail.Msg, error)) error {
	log := q.cfg.Logger.With("job", job.ID, "submission", id, "site", site, "form", slug, "attempt", job.Attempt)
	form, err := q.cfg.Forms.Lookup(site, slug)
	if err != nil {
		if errors.Is(err, hub.ErrNotFound) {
			return river.JobCancel(fmt.Errorf("form %s/%s %w", site, slug, errGone))
		}
		return err
	}
	sub, err := q.cfg.Submissions.Submission(ctx, id)
	if errors.Is(err, hub.ErrNotFound) {
		return river.JobCancel(fmt.Errorf("submission %s %w", id, errGone))
	}
	if err != nil {
		return err
	}
	m, err := build(form, sub)
	if err != nil {
		return err
	}
	to, _ := m.GetRecipients()
	if err := q.takeMail(ctx, log, job.Attempt, site, len(to)); err != nil {
		return err
	}
	return q.send(ctx, log, job, m)
}

// message builds the e-mail of sub to the addresses to: the values under
// the form's labels, in the form's order, and the files attached while
// they fit in MaxAttach together, listed otherwise, each with the content
// type attachmentType lets through. Its Message-ID is the same on every attempt,
// so that mail clients show a message sent twice once.
func (q *Queue) message(ctx context.Context, form *hub.Form, sub hub.Submission, to []string, jobID int64) (*gomail.Msg, error) {
	n := form.Settings.Notify
	m, err := q.newMessage(to, "notify.email", WebhookID(sub.ID, jobID), false)
	if err != nil {
		return nil, err
	}
	var values map[string]any
	json.Unmarshal(sub.Payload, &values)
	if n.ReplyToField != "" {
		if s, ok := values[n.ReplyToField].(string); ok && isAddress(s) {
			m.ReplyTo(s)
		}
	}
	title := formTitle(form, sub.Site, sub.Slug)
	m.Subject("New submission: " + title)
	m.SetDateWithValue(sub.CreatedAt)

	var b strings.Builder
	fmt.Fprintf(&b, "A submission to %s (site %s, form %s), received %s.\n\n", title, sub.Site, sub.Slug, sub.CreatedAt.UTC().Format(time.RFC1123))
	for _, a := range answerLines(form, values, sub.Calculations) {
		fmt.Fprintf(&b, "%s:\n  %s\n", a.Label, strings.ReplaceAll(a.Value, "\n", "\n  "))
	}
	var total int64
	for _, a := range sub.Attachments {
		total += a.Size
	}
	attach := len(sub.Attachments) > 0 && q.cfg.Files != nil && total <= q.cfg.MaxAttach
	if len(sub.Attachments) > 0 {
		b.WriteString("\nFiles:\n")
		for _, a := range sub.Attachments {
			fmt.Fprintf(&b, "  %s (%s, %d bytes)\n", a.Filename, a.MIME, a.Size)
		}
		if !attach {
			fmt.Fprintf(&b, "They are not attached (%d bytes together, more than %d); they are kept on the hub.\n", total, q.cfg.MaxAttach)
		}
	}
	fmt.Fprintf(&b, "\nSubmission %s\n", sub.ID)
	m.SetBodyString(gomail.TypeTextPlain, b.String())
	if attach {
		for _, a := range sub.Attachments {
			r, err := q.cfg.Files.NewReader(ctx, a.Key)
			if err != nil {
				return nil, fmt.Errorf("reading file %s: %w", a.Key, err)
			}
			err = m.AttachReader(a.Filename, io.LimitReader(r, a.Size), gomail.WithFileContentType(gomail.ContentType(attachmentType(a.MIME))))
			r.Close()
			if err != nil {
				return nil, fmt.Errorf("attaching file %s: %w", a.Key, err)
			}
		}
	}
	return m, nil
}

// formTitle is the form's title as its owners read it, or its site and
// slug when it has none.
func formTitle(form *hub.Form, site, slug string) string {
	return cmp.Or(form.Schema.Title, site+"/"+slug)
}

// answerLines returns the answers values holds as owners read them: under
// the form's labels, in the form's order (files and honeypots left out),
// then the values of fields the form no longer has, by name, then the
// calculations, as the hub worked them out.
func answerLines(form *hub.Form, values map[string]any, calculations map[string]any) []chat.Answer {
	var out []chat.Answer
	shown := map[string]bool{}
	for i := range form.Schema.Fields {
		f := &form.Schema.Fields[i]
		shown[f.Name] = true
		if hubclient.IsHoneypot(f.Name) || f.Type == hubclient.FieldFile {
			continue
		}
		v, ok := values[f.Name]
		if !ok {
			continue
		}
		out = append(out, chat.Answer{Label: fieldLabel(f), Value: formatValue(*f, v)})
	}
	var rest []string
	for name := range values {
		if !shown[name] && !hubclient.IsHoneypot(name) {
			rest = append(rest, name)
		}
	}
	sort.Strings(rest)
	for _, name := range rest {
		out = append(out, chat.Answer{Label: name, Value: formatValue(hubclient.Field{}, values[name])})
	}
	for _, c := range form.Schema.Calculated(calculations, "") {
		out = append(out, chat.Answer{Label: c.Label, Value: c.Text})
	}
	return out
}

// fieldLabel is f's label as its owners read it, or its name.
func fieldLabel(f *hubclient.Field) string { return cmp.Or(hubclient.Caption(f.Label), f.Name) }

// formatValue writes a value for people: option labels for option
// values, yes or no for booleans, lists one per line, a matrix's rows and
// an address's lines one per line.
func formatValue(f hubclient.Field, v any) string {
	label := func(s string) string {
		for _, o := range f.Options {
			if o.Value == s && o.Label != "" {
				return o.Label
			}
		}
		return s
	}
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return label(v)
	case bool:
		if v {
			return "yes"
		}
		return "no"
	case []any:
		if f.Type == hubclient.FieldGroup {
			// A group's items, one a line.
			return strings.Join(f.AnswerLines(v), "\n")
		}
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = formatValue(f, x)
		}
		return strings.Join(parts, "\n")
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case map[string]any:
		// A matrix's rows, an address's lines: one a line.
		if lines := f.AnswerLines(v); lines != nil {
			return strings.Join(lines, "\n")
		}
	}
	js, _ := json.Marshal(v)
	return string(js)
}

// isAddress reports whether s is a bare e-mail address, safe in a header.
func isAddress(s string) bool {
	if strings.ContainsAny(s, "\r\n<>\" ") {
		return false
	}
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s
}

// domainOf returns the domain of an address, for Message-IDs.
func domainOf(from string) string {
	if a, err := mail.ParseAddress(from); err == nil {
		if i := strings.LastIndexByte(a.Address, '@'); i >= 0 {
			if host := a.Address[i+1:]; net.ParseIP(host) == nil && host != "" {
				return host
			}
		}
	}
	return "hubform.invalid"
}

// newMessage starts each e-mail the hub sends: from the hub's sender to
// the addresses to (named by where they come from, for an error), with a
// Message-ID made of id that is the same on every attempt, so that mail
// clients show a message sent twice once. An automatic message, one not
// to the owners, is marked so that other responders do not answer it (RFC
// 3834). An address that cannot be used cancels the job: no retry mends it.
func (q *Queue) newMessage(to []string, toSource, id string, automatic bool) (*gomail.Msg, error) {
	m := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	if err := m.From(q.cfg.MailFrom); err != nil {
		return nil, river.JobCancel(fmt.Errorf("--smtp-from: %w", err))
	}
	if err := m.To(to...); err != nil {
		return nil, river.JobCancel(fmt.Errorf("%s: %w", toSource, err))
	}
	m.SetMessageIDWithValue(id + "@" + domainOf(q.cfg.MailFrom))
	if automatic {
		m.SetGenHeader("Auto-Submitted", "auto-generated")
	}
	return m, nil
}

// send sends m within the queue's timeout. A failure is logged, as the
// last when job has no attempt left, and returned for the job to be
// retried.
func (q *Queue) send(ctx context.Context, log *slog.Logger, job *rivertype.JobRow, m *gomail.Msg) error {
	ctx, cancel := context.WithTimeout(ctx, q.cfg.Timeout)
	defer cancel()
	if err := q.cfg.Mailer.Send(ctx, m); err != nil {
		err = fmt.Errorf("e-mail: %w", err)
		logFailure(log, job, err)
		return err
	}
	return nil
}
