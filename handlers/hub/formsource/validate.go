package formsource

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/language"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// fieldName is the character set of field names: they become form keys,
// HTML ids and JSON members, so nothing that needs escaping in any of them.
var fieldName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]{0,63}$`)

// mediaRange matches "type/subtype" and "type/*" with the restricted names
// of RFC 6838, section 4.2. "*/*" is left out: an empty list says that.
var mediaRange = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/([A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}|\*)$`)

// hostName matches a lowercase DNS name as browsers put it in an Origin
// header (international names in their ASCII form).
var hostName = regexp.MustCompile(`^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$`)

// Validate reports every problem of a schema and its settings, joined with
// errors.Join, or nil when there is none. Each problem names the member it
// is about. A schema without fields or steps is valid: it is served in the
// unconfigured state.
func Validate(s *hubclient.Schema, settings hub.Settings) error {
	if s == nil {
		return errors.New("no schema")
	}
	v := validator{schema: s}
	v.fields()
	v.steps()
	v.rules()
	v.meta()
	v.endings()
	v.calculations()
	v.theme()
	v.translations()
	v.settings(settings)
	return errors.Join(v.errs...)
}

type validator struct {
	schema *hubclient.Schema
	errs   []error
	// byName and stepIDs index the schema for the checks of references.
	byName  map[string]*hubclient.Field
	stepIDs map[string]bool
}

// addf adds a problem about the member at path, a JSON path such as
// "fields[2].name".
func (v *validator) addf(path, format string, args ...any) {
	v.errs = append(v.errs, &Problem{Path: path, Err: fmt.Errorf(format, args...)})
}

func (v *validator) fields() {
	v.byName = make(map[string]*hubclient.Field, len(v.schema.Fields))
	for i := range v.schema.Fields {
		f := &v.schema.Fields[i]
		at := fmt.Sprintf("field %q", f.Name)
		path := fmt.Sprintf("fields[%d]", i)
		switch {
		case f.Name == "":
			at = fmt.Sprintf("fields[%d]", i)
			v.addf(path+".name", "%s: name is empty", at)
		case v.byName[f.Name] != nil:
			v.addf(path+".name", "%s: name is used by more than one field", at)
		default:
			v.byName[f.Name] = f
			if !fieldName.MatchString(f.Name) {
				v.addf(path+".name", "%s: name does not match %s", at, fieldName)
			}
		}

		if !slices.Contains(hubclient.FieldTypes, f.Type) {
			v.addf(path+".type", "%s: type %q is not one of %s", at, f.Type, strings.Join(hubclient.FieldTypes, ", "))
		}
		if f.TypeOf().TakesOptions() {
			if len(f.Options) == 0 {
				v.addf(path+".options", "%s: a %s field needs at least one option", at, f.Type)
			}
			values := make(map[string]bool, len(f.Options))
			for j, o := range f.Options {
				switch {
				case o.Value == "":
					v.addf(fmt.Sprintf("%s.options[%d].value", path, j), "%s: options[%d]: value is empty", at, j)
				case values[o.Value]:
					v.addf(fmt.Sprintf("%s.options[%d].value", path, j), "%s: option value %q appears more than once", at, o.Value)
				}
				values[o.Value] = true
				switch {
				case o.Image != "" && f.Type != hubclient.FieldRadio && f.Type != hubclient.FieldCheckboxes:
					v.addf(fmt.Sprintf("%s.options[%d].image", path, j), "%s: options[%d]: only the options of radio and checkboxes fields show pictures", at, j)
				case o.Image != "" && !hubclient.WebAddress(o.Image):
					v.addf(fmt.Sprintf("%s.options[%d].image", path, j), "%s: options[%d]: image is the picture's http or https address", at, j)
				case o.Alt != "" && o.Image == "":
					v.addf(fmt.Sprintf("%s.options[%d].alt", path, j), "%s: options[%d]: alt describes an image, and there is none", at, j)
				}
			}
		}
		if f.Multiple {
			switch f.Type {
			case hubclient.FieldFile, hubclient.FieldMatrix:
			case hubclient.FieldCheckboxes:
				v.addf(path+".multiple", "%s: checkboxes are always multiple; remove \"multiple\"", at)
			default:
				v.addf(path+".multiple", "%s: only file and matrix fields may set \"multiple\"", at)
			}
		}
		v.composite(path, at, f)
		v.group(path, at, f)
		if hubclient.IsHoneypot(f.Name) {
			// A required honeypot could never be submitted by a person, and
			// any other type could not be hidden from them.
			if f.Required {
				v.addf(path+".required", "%s: a honeypot field must not be required", at)
			}
			if f.Type != hubclient.FieldText && f.Type != hubclient.FieldHidden {
				v.addf(path+".type", "%s: a honeypot field must be of type text or hidden, not %q", at, f.Type)
			}
		}
	}
}

func (v *validator) steps() {
	steps := v.schema.Steps
	v.stepIDs = make(map[string]bool, len(steps))
	inStep := make(map[string]int, len(v.schema.Fields)) // field name → step index
	label := func(i int) string {
		if steps[i].ID == "" {
			return fmt.Sprintf("steps[%d]", i)
		}
		return fmt.Sprintf("step %q", steps[i].ID)
	}
	for i, st := range steps {
		at := label(i)
		switch {
		case st.ID == "":
			v.addf(fmt.Sprintf("steps[%d].id", i), "%s: id is empty", at)
		case v.stepIDs[st.ID]:
			v.addf(fmt.Sprintf("steps[%d].id", i), "%s: id is used by more than one step", at)
		}
		v.stepIDs[st.ID] = true
		for k, name := range st.Fields {
			if v.byName[name] == nil {
				v.addf(fmt.Sprintf("steps[%d].fields[%d]", i, k), "%s: field %q does not exist", at, name)
				continue
			}
			if j, ok := inStep[name]; ok {
				if j == i {
					v.addf(fmt.Sprintf("steps[%d].fields[%d]", i, k), "%s: field %q is listed twice", at, name)
				} else {
					v.addf(fmt.Sprintf("steps[%d].fields[%d]", i, k), "%s: field %q is already in %s", at, name, label(j))
				}
				continue
			}
			inStep[name] = i
		}
	}
	if len(steps) == 0 {
		return
	}
	// A field in no step would never be shown; only hidden fields need not be.
	for i, f := range v.schema.Fields {
		if _, ok := inStep[f.Name]; !ok && f.Name != "" && f.Type != hubclient.FieldHidden {
			v.addf(fmt.Sprintf("fields[%d]", i), "field %q: not in any step; every field but hidden ones must be", f.Name)
		}
	}
}

func (v *validator) meta() {
	m := v.schema.Meta
	switch m.CaptchaProvider {
	case "":
	case hubclient.CaptchaTurnstile, hubclient.CaptchaRecaptchaV3:
		if m.CaptchaSiteKey == "" {
			v.addf("meta.captchaSiteKey", "meta.captchaSiteKey: required when meta.captchaProvider is %q", m.CaptchaProvider)
		}
	default:
		v.addf("meta.captchaProvider", "meta.captchaProvider: %q is not %q or %q", m.CaptchaProvider, hubclient.CaptchaTurnstile, hubclient.CaptchaRecaptchaV3)
	}
	// Clients send the visitor there: a javascript: URL would run in the
	// page of whoever shows the form.
	if m.RedirectURL != "" && !hubclient.ValidRedirect(m.RedirectURL) {
		v.addf("meta.redirectUrl", "meta.redirectUrl: %q is not an http or https address nor a path starting with a single \"/\"", m.RedirectURL)
	}
}

func (v *validator) translations() {
	trs := v.schema.I18n.Translations
	// Sorted, so that the problems come in the same order every time.
	for _, loc := range sortedKeys(trs) {
		t := trs[loc]
		at := fmt.Sprintf("i18n.translations[%q]", loc)
		if _, err := language.Parse(loc); err != nil {
			v.addf(at, "%s: locale is not a BCP 47 language tag: %w", at, err)
		}
		for _, name := range sortedKeys(t.Fields) {
			f := v.byName[name]
			if f == nil {
				v.addf(fmt.Sprintf("%s.fields[%q]", at, name), "%s.fields[%q]: no such field", at, name)
				continue
			}
			for _, code := range sortedKeys(t.Fields[name].Messages) {
				if !slices.Contains(hubclient.RuleNames, code) {
					v.addf(fmt.Sprintf("%s.fields[%q].messages", at, name), "%s.fields[%q].messages[%q]: not one of %s", at, name, code, strings.Join(hubclient.RuleNames, ", "))
				}
			}
			for _, value := range sortedKeys(t.Fields[name].Options) {
				if !slices.ContainsFunc(f.Options, func(o hubclient.Option) bool { return o.Value == value }) {
					v.addf(fmt.Sprintf("%s.fields[%q].options[%q]", at, name, value), "%s.fields[%q].options[%q]: field has no such option", at, name, value)
				}
			}
			if ft := t.Fields[name]; (len(ft.Fields) > 0 || ft.AddLabel != "") && f.Type != hubclient.FieldGroup {
				v.addf(fmt.Sprintf("%s.fields[%q]", at, name), "%s.fields[%q]: fields and addLabel translate a group only", at, name)
			}
			for _, child := range sortedKeys(t.Fields[name].Fields) {
				if f.Child(child) == nil {
					v.addf(fmt.Sprintf("%s.fields[%q].fields[%q]", at, name, child), "%s.fields[%q].fields[%q]: the group has no such field", at, name, child)
				}
			}
			for _, m := range []struct {
				member string
				labels map[string]string
				list   []hubclient.Option
			}{{"rows", t.Fields[name].Rows, f.Rows}, {"columns", t.Fields[name].Columns, f.Columns}} {
				member, labels, list := m.member, m.labels, m.list
				for _, value := range sortedKeys(labels) {
					if !slices.ContainsFunc(list, func(o hubclient.Option) bool { return o.Value == value }) {
						v.addf(fmt.Sprintf("%s.fields[%q].%s[%q]", at, name, member, value), "%s.fields[%q].%s[%q]: field has no such %s", at, name, member, value, strings.TrimSuffix(member, "s"))
					}
				}
			}
		}
		for _, id := range sortedKeys(t.Steps) {
			if !v.stepIDs[id] {
				v.addf(fmt.Sprintf("%s.steps[%q]", at, id), "%s.steps[%q]: no such step", at, id)
			}
		}
		for _, id := range sortedKeys(t.Endings) {
			if v.schema.Ending(id) == nil {
				v.addf(fmt.Sprintf("%s.endings[%q]", at, id), "%s.endings[%q]: no such ending", at, id)
			}
		}
		for _, name := range sortedKeys(t.Calculations) {
			if v.schema.Calculation(name) == nil {
				v.addf(fmt.Sprintf("%s.calculations[%q]", at, name), "%s.calculations[%q]: no such calculation", at, name)
			}
		}
	}
}

func (v *validator) settings(s hub.Settings) {
	if s.MaxFileSize < 0 {
		v.addf("hub.maxFileSize", "hub.maxFileSize: %d is negative", s.MaxFileSize)
	}
	if s.MaxFiles < 0 {
		v.addf("hub.maxFiles", "hub.maxFiles: %d is negative", s.MaxFiles)
	}
	if IsHidden(s.CaptchaSecret) {
		v.addf("hub.captchaSecret", "hub.captchaSecret: the mark of a hidden secret, not a secret: type the secret")
	}
	if math.IsNaN(s.RecaptchaMinScore) || s.RecaptchaMinScore < 0 || s.RecaptchaMinScore > 1 {
		v.addf("hub.recaptchaMinScore", "hub.recaptchaMinScore: %v is not between 0 and 1", s.RecaptchaMinScore)
	}
	for i, t := range s.AllowedTypes {
		if !mediaRange.MatchString(t) {
			v.addf(fmt.Sprintf("hub.allowedTypes[%d]", i), "hub.allowedTypes[%d]: %q is not \"type/subtype\" or \"type/*\"", i, t)
		}
	}
	for i, o := range s.AllowedOrigins {
		if !isOrigin(o) {
			v.addf(fmt.Sprintf("hub.allowedOrigins[%d]", i), "hub.allowedOrigins[%d]: %q is not an origin as browsers send it: http or https, lowercase host, optional port, no path, not even \"/\"", i, o)
		}
	}
	for i, o := range s.EmbedOrigins {
		if !isOrigin(o) {
			v.addf(fmt.Sprintf("hub.embedOrigins[%d]", i), "hub.embedOrigins[%d]: %q is not an origin as browsers send it: http or https, lowercase host, optional port, no path, not even \"/\"", i, o)
		}
	}
	if s.DraftDays < 0 || s.DraftDays > hub.MaxDraftDays {
		v.addf("hub.draftDays", "hub.draftDays: %d is not between 0 (the default, %d) and %d", s.DraftDays, hub.DefaultDraftDays, hub.MaxDraftDays)
	}
	if s.RetentionDays < 0 || s.RetentionDays > hub.MaxRetentionDays {
		v.addf("hub.retentionDays", "hub.retentionDays: %d is not between 0 (keep) and %d", s.RetentionDays, hub.MaxRetentionDays)
	}
	v.notify(s.Notify)
	v.webhooks(s.Webhooks)
	v.destinations(s.Destinations)
	v.limits(s)
}

// isOrigin reports whether s is a serialized http(s) origin (RFC 6454,
// section 6.2), the only form in which it can equal an Origin header.
func isOrigin(s string) bool {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	if s != u.Scheme+"://"+u.Host {
		// A path, query, fragment or user, or an uppercase scheme.
		return false
	}
	host, port := u.Hostname(), u.Port()
	if port == "" && strings.HasSuffix(u.Host, ":") {
		return false
	}
	if port != "" {
		// Browsers leave default ports out and never write leading zeros.
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || port[0] == '0' ||
			(u.Scheme == "http" && n == 80) || (u.Scheme == "https" && n == 443) {
			return false
		}
	}
	if strings.HasPrefix(u.Host, "[") {
		ip := net.ParseIP(host)
		return ip != nil && ip.To4() == nil && host == ip.String()
	}
	return hostName.MatchString(host)
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// theme checks the form's theme: its choices, its colours and their
// contrasts (hubclient.Theme.Check).
func (v *validator) theme() {
	for _, p := range v.schema.Theme.Check() {
		v.addf("theme."+p.Path, "theme: %s: %s", p.Path, p.Message)
	}
}
