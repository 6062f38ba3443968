package console

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/hubclient"
)

// settingsPage is the Settings tab of a stored form: its texts, captcha,
// files, origins, delivery, hosted page, the page after sending, the
// confirmation e-mail, closing and limits, drafts and spam checks, from
// the newest version, which editSettings changes.
func (con *Console) settingsPage(c echo.Context) error {
	p, err := con.loadNewest(c, viewSettings)
	if err != nil {
		return err
	}
	p.Settings.NewSecrets = con.secretsToShow(c)
	p.Settings.ChatTest = con.chatTestToShow(c)
	return con.renderForm(c, http.StatusOK, p)
}

// loadNewest reads the route's form for a page of view that edits its
// newest version: that version's file, and the notice of a save just
// made.
func (con *Console) loadNewest(c echo.Context, view string) (formProps, error) {
	site, slug := c.Param("site"), c.Param("slug")
	p, err := con.loadForm(c, site, slug)
	if err != nil {
		return p, err
	}
	v, err := con.cfg.Store.FormVersion(c.Request().Context(), site, slug, p.Record.LastVersion)
	if err != nil {
		return p, con.formError(err)
	}
	p.Body, p.Shown, p.View = string(v.Body), p.Record.LastVersion, view
	if c.QueryParam("saved") != "" {
		p.Notice = savedNotice
	}
	return p, nil
}

// editSettings sets the title, step titles, buttons' texts, captcha and
// the hub's settings. The hosted page's checkbox, the delivery inputs and
// the sections of editBehaviour change their settings only when the page
// showed them. A closing time is typed in the session's time zone.
func (con *Console) editSettings(d *formFile, c echo.Context) error {
	s := d.Schema
	form, _ := c.FormParams()
	s.Title = form.Get("title")
	for i := range s.Steps {
		if k := "step." + s.Steps[i].ID; form.Has(k) {
			s.Steps[i].Title = form.Get(k)
		}
	}
	s.Buttons.Submit, s.Buttons.Next, s.Buttons.Back = form.Get("submit"), form.Get("next"), form.Get("back")
	s.Meta.CaptchaProvider, s.Meta.CaptchaSiteKey = form.Get("captchaProvider"), strings.TrimSpace(form.Get("captchaSiteKey"))
	secret := strings.TrimSpace(form.Get("captchaSecret"))
	d.setHub("captchaSecret", secret, secret == "")
	var errs []error
	if size := strings.TrimSpace(form.Get("maxFileSize")); size != "" {
		if n, err := parseByteSize(size); err != nil {
			errs = append(errs, problem("hub.maxFileSize", "the largest file is a size such as 5 MB, 512 KB or 5242880 (bytes), not %q", size))
		} else {
			d.setHub("maxFileSize", n, n == 0)
		}
	} else {
		d.setHub("maxFileSize", nil, true)
	}
	types, origins := lines(form.Get("allowedTypes")), lines(form.Get("allowedOrigins"))
	d.setHub("allowedTypes", types, len(types) == 0)
	d.setHub("allowedOrigins", origins, len(origins) == 0)
	if form.Has("embedOrigins") {
		embed := lines(form.Get("embedOrigins"))
		d.setHub("embedOrigins", embed, len(embed) == 0)
	}
	if form.Has("hostedPageShown") {
		// The page showed the checkbox, which posts "on" when checked.
		// Served is the default, which the file need not say.
		d.setHub("hostedPage", false, form.Get("hostedPage") == "on")
	}
	if form.Has("notifyEmail") {
		errs = append(errs, editDelivery(d, c, form))
	}
	errs = append(errs, editBehaviour(d, form, con.location(c.Request().Context())))
	return errors.Join(errs...)
}

// editNotify sets who is e-mailed each submission, keeping what else the
// member "notify" holds; no address removes it.
func editNotify(d *formFile, emails []string, replyTo string) error {
	if len(emails) == 0 {
		d.setHub("notify", nil, true)
		return nil
	}
	n := map[string]json.RawMessage{}
	if raw, ok := d.Hub["notify"]; ok && json.Unmarshal(raw, &n) != nil {
		return problem("hub.notify", "the notification settings cannot be read: fix them in the JSON file")
	}
	n["email"], _ = json.Marshal(emails)
	if replyTo == "" {
		delete(n, "replyToField")
	} else {
		n["replyToField"], _ = json.Marshal(replyTo)
	}
	d.setHub("notify", n, false)
	return nil
}

// hostedPage reports whether the hub serves the form's own page: unless
// hub.hostedPage is false.
func (d *formFile) hostedPage() bool {
	var on bool
	raw, ok := d.Hub["hostedPage"]
	return !ok || json.Unmarshal(raw, &on) != nil || on
}

// emailFields returns the names of the form's email fields, which a
// notification may take its Reply-To from.
func emailFields(s *hubclient.Schema) []string {
	var out []string
	for _, f := range s.Fields {
		if f.Type == hubclient.FieldEmail {
			out = append(out, f.Name)
		}
	}
	return out
}

// maxByteSize caps what parseByteSize reads, far above any upload a hub
// takes, so that the arithmetic stays exact.
const maxByteSize = 1 << 40

// byteUnits are the units parseByteSize reads, binary as byteSize writes
// them.
var byteUnits = map[string]int64{
	"": 1, "b": 1, "byte": 1, "bytes": 1,
	"k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10,
	"m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20,
	"g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30,
}

// parseByteSize reads a size as people type it: bytes ("5242880", "512
// bytes") or KB, MB or GB, in the binary units byteSize shows ("512 KB",
// "1.5 MB"), to a whole number of bytes.
func parseByteSize(text string) (int64, error) {
	text = strings.TrimSpace(text)
	num, unit := text, ""
	if i := strings.IndexFunc(text, func(r rune) bool { return (r < '0' || r > '9') && r != '.' }); i >= 0 {
		num, unit = text[:i], strings.TrimSpace(text[i:])
	}
	mult, ok := byteUnits[strings.ToLower(unit)]
	if !ok {
		return 0, fmt.Errorf("unknown unit %q", unit)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", num)
	}
	n := v * float64(mult)
	if n != math.Trunc(n) || n < 0 || n > maxByteSize {
		return 0, fmt.Errorf("%s is not a whole number of bytes up to 1 TB", text)
	}
	return int64(n), nil
}

// sizeText writes n bytes for the input of a size: as byteSize shows it
// when that reads back exactly, else in bytes, so that saving the page
// again keeps the size.
func sizeText(n int64) string {
	if s := byteSize(n); mustParseByteSize(s) == n {
		return s
	}
	return strconv.FormatInt(n, 10)
}

func mustParseByteSize(s string) int64 {
	n, err := parseByteSize(s)
	if err != nil {
		return -1
	}
	return n
}

// hubSize returns the hub setting name, a size in bytes, for its input.
func (d *formFile) hubSize(name string) string {
	var n int64
	if json.Unmarshal(d.Hub[name], &n) != nil || n == 0 {
		return d.hubNumber(name)
	}
	return sizeText(n)
}

// problemAt returns the message of p's problems at path or below it, for
// the input of that member; "" when there are none.
func (p formProps) problemAt(path string) string {
	var msgs []string
	for _, pr := range p.Problems {
		if pr.Path == path || strings.HasPrefix(pr.Path, path+"[") || strings.HasPrefix(pr.Path, path+".") {
			msgs = append(msgs, pr.Error())
		}
	}
	return strings.Join(msgs, " ")
}

// stepPath is the path of step i's title in the form file.
func stepPath(i int) string { return fmt.Sprintf("steps[%d].title", i) }

// describedBy names the help and the error of the input id, those it has.
func describedBy(id, help, err string) string {
	var ids []string
	if help != "" {
		ids = append(ids, id+"-help")
	}
	if err != "" {
		ids = append(ids, id+"-error")
	}
	return strings.Join(ids, " ")
}

// hostedChecked is the hosted page's checkbox: as posted when the page
// comes back from a refused post, else as the file says.
func hostedChecked(p formProps, action string, d *formFile) bool {
	if p.TypedAt == action && p.Typed != nil {
		return p.Typed.Get("hostedPage") == "on"
	}
	return d.hostedPage()
}
