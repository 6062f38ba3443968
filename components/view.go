package components

import (
	"context"
	"net/url"

	"github.com/a-h/templ"

	"github.com/hubform/hubform/hubclient"
)

// formView is what the form template renders from, worked out once.
type formView struct {
	props  HubFormProps
	rootID string
	l      Localized
	schema *hubclient.Schema
	routes Routes
	// formID is the root's id with "_form": field ids add "-" and the
	// name, so no field, whatever its name, can have it.
	formID string
	// hasFiles makes the form post multipart and show upload progress.
	hasFiles bool
	// captcha is the schema's captcha provider when it is one we wire.
	captcha string
	// summary lists the errors in the order of the fields.
	summary []summaryItem
	// currentStep is the step holding the first error, or -1.
	currentStep int
	// outsideSteps are fields no step names (hidden ones), rendered last.
	outsideSteps []string
}

type summaryItem struct{ id, label, message string }

func newFormView(p HubFormProps, l Localized) formView {
	root := p.rootID()
	v := formView{props: p, rootID: root, l: l, schema: l.Schema, routes: p.routes(), formID: root + "_form", currentStep: -1}
	switch provider := l.Schema.Meta.CaptchaProvider; provider {
	case hubclient.CaptchaTurnstile, hubclient.CaptchaRecaptchaV3:
		v.captcha = provider
	}
	inStep := map[string]bool{}
	for i, step := range l.Schema.Steps {
		for _, name := range step.Fields {
			inStep[name] = true
			f := l.Schema.Field(name)
			msg := p.State.Errors[name]
			if f == nil || msg == "" {
				continue
			}
			v.summary = append(v.summary, summaryItem{id: v.fieldID(name), label: or(f.Label, f.Name), message: msg})
			if v.currentStep < 0 {
				v.currentStep = i
			}
		}
	}
	for _, f := range l.Schema.Fields {
		if f.Type == hubclient.FieldFile {
			v.hasFiles = true
		}
		if !inStep[f.Name] {
			v.outsideSteps = append(v.outsideSteps, f.Name)
		}
	}
	return v
}

func (v formView) fieldID(name string) string {
	return v.rootID + "-" + safeID(name)
}

// field renders the field called name with the component its type is
// registered to; honeypots always render as Honeypot.
func (v formView) field(ctx context.Context, name string) templ.Component {
	f := v.schema.Field(name)
	if f == nil {
		return Nothing
	}
	id := v.fieldID(name)
	p := FieldProps{
		Field: *f, ID: id, Values: v.props.State.Values[name], Error: v.props.State.Errors[name],
		HelpID: id + "-help", ErrorID: id + "-error", Texts: v.l.Texts, FilesLost: v.props.State.FilesLost,
	}
	if hubclient.IsHoneypot(name) {
		return Honeypot(p)
	}
	return fieldComponent(ctx, v.props.FormProps.Components, f.Type)(p)
}

// textsOf returns the built-in texts in the props' locale.
func textsOf(p HubFormProps) Texts { return TextsFor(p.InitialSchema, p.Locale) }

func recaptchaScript(siteKey string) string {
	return "https://www.google.com/recaptcha/api.js?render=" + url.QueryEscape(siteKey)
}
