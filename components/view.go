package components

import (
	"cmp"
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

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
	// revealed lists the questions the visitor's answers brought up.
	revealed []summaryItem
	// currentStep is the step holding the first error, or -1.
	currentStep int
	// outsideSteps are fields no step names (hidden ones), rendered last.
	outsideSteps []string
	// logic is the schema's conditions, nil when they cannot be read (the
	// form then shows every field); outcome is what they decide for the
	// values shown.
	logic   *hubclient.Logic
	outcome *hubclient.Outcome
	// saving offers "Save and continue later": the app has a save route
	// and the hub keeps drafts of the form.
	saving bool
	// calculated are the calculations' values for the values shown, once
	// worked out (calcValues).
	calculated map[string]any
	// recalled are the values the form's texts recall, once worked out
	// (recallValues).
	recalled map[string]any
}

type summaryItem struct{ id, label, message string }

func newFormView(p HubFormProps, pr *prepared) *formView {
	root := p.rootID()
	v := &formView{
		props: p, rootID: root, l: pr.l, schema: pr.l.Schema, routes: p.routes(), formID: root + "_form", currentStep: -1,
		logic: pr.logic, hasFiles: pr.hasFiles, outsideSteps: pr.outsideSteps,
	}
	v.saving = v.routes.Save != "" && v.schema.Meta.Resume
	switch provider := v.schema.Meta.CaptchaProvider; provider {
	case hubclient.CaptchaTurnstile, hubclient.CaptchaRecaptchaV3:
		v.captcha = provider
	}
	if v.logic != nil {
		// Without conditions the outcome is the same whatever the values.
		var values map[string]any
		if v.logic.HasConditions() {
			values = hubclient.Values(v.schema, p.State.Values)
		}
		v.outcome = v.logic.Evaluate(values)
	}
	if len(p.State.Errors) > 0 {
		for i, step := range v.schema.Steps {
			for _, name := range step.Fields {
				f := v.schema.Field(name)
				msg := p.State.Errors[name]
				if f == nil || msg == "" {
					continue
				}
				v.summary = append(v.summary, summaryItem{id: v.fieldID(name), label: cmp.Or(f.Label, f.Name), message: msg})
				if v.currentStep < 0 {
					v.currentStep = i
				}
			}
		}
	}
	if msg := v.saveError(); msg != "" {
		v.summary = append(v.summary, summaryItem{id: v.saveEmailID(), label: v.l.Texts.T("saveEmail"), message: msg})
	}
	v.noteRevealed()
	if v.currentStep >= 0 {
		return v
	}
	// A draft, or a save that failed, opens at the visitor's step.
	if p.State.Step != "" {
		for i, step := range v.schema.Steps {
			if step.ID == p.State.Step && v.stepVisible(step) {
				v.currentStep = i
				return v
			}
		}
	}
	if len(p.State.Errors) == 0 && p.State.SubmitError != "" {
		// Refused as a whole, the form was sent from its last step: it
		// opens there again, by its Send button.
		for i := len(v.schema.Steps) - 1; i > 0 && v.currentStep < 0; i-- {
			if v.stepVisible(v.schema.Steps[i]) {
				v.currentStep = i
			}
		}
	}
	return v
}

func (v *formView) fieldID(name string) string {
	return v.rootID + "-" + safeID(name)
}

// fieldIDs returns the ids of a field's control, help and error text, cut
// from one string ("<id>-help<id>-error"): one allocation, not three, per
// field rendered.
func (v *formView) fieldIDs(name string) (id, helpID, errorID string) {
	name = safeID(name)
	n := len(v.rootID) + 1 + len(name)
	var b strings.Builder
	b.Grow(2*n + len("-help-error"))
	for _, s := range []string{v.rootID, "-", name, "-help", v.rootID, "-", name, "-error"} {
		b.WriteString(s)
	}
	all := b.String()
	return all[:n], all[:n+len("-help")], all[n+len("-help"):]
}

// field renders the field called name with the component its type is
// registered to; honeypots always render as Honeypot.
func (v *formView) field(ctx context.Context, name string) templ.Component {
	f := v.schema.Field(name)
	if f == nil {
		return Nothing
	}
	id, helpID, errorID := v.fieldIDs(name)
	p := FieldProps{
		Field: *f, ID: id, Values: v.props.State.Values[name], Error: v.props.State.Errors[name],
		HelpID: helpID, ErrorID: errorID, Texts: v.l.Texts, FilesLost: v.props.State.FilesLost,
		Kept: v.kept(name), Held: v.held(name), Locale: v.l.Locale, Focus: v.props.State.Focus,
	}
	if f.TypeOf().IsGroup() {
		// A group's keys, less its name: "count", "0.email".
		p.Parts = map[string][]string{}
		for key, list := range v.props.State.Values {
			if part, ok := strings.CutPrefix(key, name+"."); ok {
				p.Parts[part] = list
			}
		}
	}
	if parts := f.Parts(); parts != nil {
		p.Parts = make(map[string][]string, len(parts))
		for _, part := range parts {
			if list, ok := v.props.State.Values[f.PartKey(part)]; ok {
				p.Parts[part] = list
			}
		}
	}
	if hubclient.IsHoneypot(name) {
		return Honeypot(p)
	}
	v.withRecall(ctx, &p)
	if v.outcome != nil {
		p.Field.Required = v.outcome.Required(name)
	}
	return fieldComponent(ctx, v.props.FormProps.Components, f.Type)(p)
}

// fieldSlot renders the field called name, in a slot of its own when
// conditions are about it.
func (v *formView) fieldSlot(ctx context.Context, name string) templ.Component {
	if v.inSlot(name) {
		return slot(v, name, false)
	}
	return v.field(ctx, name)
}

// inSlot reports whether the field renders in a slot of its own: its
// visibility or requiredness depends on other fields, a condition reads
// it, its texts recall answers or a text recalls it.
func (v *formView) inSlot(name string) bool {
	return v.logic != nil && (v.logic.IsConditional(name) || v.logic.IsTrigger(name) ||
		v.logic.FieldRecall(name) != nil || v.logic.IsRecalled(name))
}

// asksLogic reports whether a change of the field asks the logic route
// what changed: a condition reads it, or a text recalls it.
func (v *formView) asksLogic(name string) bool {
	return v.logic.IsTrigger(name) || v.logic.IsRecalled(name)
}

// stateValue is what the form posts as LogicStateField: the conditions'
// letters, then the recalled texts' hashes.
func (v *formView) stateValue(ctx context.Context) string {
	return v.logicState() + v.recallState(ctx)
}

// visible reports whether the conditions show the field.
func (v *formView) visible(name string) bool { return v.outcome == nil || v.outcome.Visible(name) }

// untitledStep names step i, which has no title, for assistive technology:
// a fieldset is announced by its legend. A form of one step is its title.
func (v *formView) untitledStep(i int) string {
	if len(v.schema.Steps) == 1 && v.schema.Title != "" {
		return v.schema.Title
	}
	return strings.NewReplacer("{n}", strconv.Itoa(i+1), "{total}", strconv.Itoa(len(v.schema.Steps))).Replace(v.l.Texts.T("stepStatus"))
}

// openStep is the step the form opens at: the one holding the first
// error, or the draft's, else the first the conditions show.
func (v *formView) openStep() int {
	if v.currentStep >= 0 {
		return v.currentStep
	}
	for i, st := range v.schema.Steps {
		if v.stepVisible(st) {
			return i
		}
	}
	return 0
}

// stepStatus says which step the form opens at, of the steps the
// conditions show: "Step 2 of 3".
func (v *formView) stepStatus() string {
	n, total := 0, 0
	open := v.openStep()
	for i, st := range v.schema.Steps {
		if !v.stepVisible(st) {
			continue
		}
		total++
		if i <= open {
			n++
		}
	}
	return strings.NewReplacer("{n}", strconv.Itoa(max(n, 1)), "{total}", strconv.Itoa(total)).Replace(v.l.Texts.T("stepStatus"))
}

// visibleSteps counts the steps the conditions show.
func (v *formView) visibleSteps() int {
	n := 0
	for _, st := range v.schema.Steps {
		if v.stepVisible(st) {
			n++
		}
	}
	return n
}

// stepState is step i's segment in the stepper: done, current or todo.
func (v *formView) stepState(i int) string {
	switch open := v.openStep(); {
	case i < open:
		return "done"
	case i == open:
		return "current"
	}
	return "todo"
}

// stepVisible reports whether the conditions show the step.
func (v *formView) stepVisible(st hubclient.Step) bool {
	return v.outcome == nil || v.outcome.StepVisible(st.ID)
}

// hasStepCondition reports whether the step's visibility may change.
func (v *formView) hasStepCondition(st hubclient.Step) bool {
	return v.logic != nil && len(st.VisibleIf) > 0
}

// kept returns the files the draft kept for the field called name.
func (v *formView) kept(name string) []hubclient.Attachment {
	var out []hubclient.Attachment
	for _, a := range v.props.State.Kept {
		if a.Field == name {
			out = append(out, a)
		}
	}
	return out
}

// held returns the files held for the field called name.
func (v *formView) held(name string) []Held {
	var out []Held
	for _, h := range v.props.State.Held {
		if h.Field == name {
			out = append(out, h)
		}
	}
	return out
}

// saveError is the error of the address a save asked the link at, shown
// only where the form offers saving.
func (v *formView) saveError() string {
	if !v.saving {
		return ""
	}
	return v.props.State.Errors[hubclient.DraftEmailField]
}

// The ids of the save panel's address, its explanation and its error
// derive from the form's id, which no field's id can take.
func (v *formView) saveEmailID() string { return v.formID + "-save-email" }
func (v *formView) saveHelpID() string  { return v.formID + "-save-help" }
func (v *formView) saveErrorID() string { return v.formID + "-save-error" }

// saveDescribedBy returns the ids that describe the save panel's address.
func (v *formView) saveDescribedBy() string {
	if v.saveError() != "" {
		return v.saveHelpID() + " " + v.saveErrorID()
	}
	return v.saveHelpID()
}

// savedText returns what the notice after a save says, but the link.
func (v *formView) savedText(s *Saved) string {
	key := "savedLink"
	if s.Mailed {
		key = "savedMailed"
	}
	return strings.NewReplacer("{email}", s.Email, "{date}", v.date(s.ExpiresAt)).Replace(v.l.Texts.T(key))
}

// date writes t's day in UTC for the form's locale: with the month's name
// in English, as the built-in texts are; as 2026-12-28, which reads the
// same in every language, in a translation.
func (v *formView) date(t time.Time) string { return localDate(v.l.Locale, t.UTC()) }

func (v *formView) slotID(name string) string { return v.fieldID(name) + "-slot" }

func (v *formView) stepMarkID(st hubclient.Step) string {
	return v.rootID + "-step-" + safeID(st.ID) + "-skip"
}

// logicState sums up what the conditions decided, one letter per slotted
// field and conditional step, so that the logic route answers with only
// what changed: h hidden, r required, v visible; s skipped, v shown.
func (v *formView) logicState() string {
	if v.logic == nil {
		return ""
	}
	var b strings.Builder
	for _, f := range v.schema.Fields {
		switch {
		case !v.inSlot(f.Name):
			continue
		case !v.outcome.Visible(f.Name):
			b.WriteByte('h')
		case v.outcome.Required(f.Name):
			b.WriteByte('r')
		default:
			b.WriteByte('v')
		}
	}
	for _, st := range v.schema.Steps {
		if v.hasStepCondition(st) {
			b.WriteByte(map[bool]byte{true: 'v', false: 's'}[v.stepVisible(st)])
		}
	}
	return b.String()
}

// Revealed returns, in the form's order, the questions that the props'
// values show but that were hidden in prior, the logic state the page was
// rendered with (LogicStateField, posted with the form): a visitor without
// JavaScript has not seen them, as the page could not show them when a
// box was ticked. A prior of another form, or none, reveals nothing.
func Revealed(props HubFormProps, prior string) []string {
	if props.InitialSchema == nil || prior == "" {
		return nil
	}
	// The logic state alone, not a whole view: this runs on every post.
	pr := schemaMemo.get(props.InitialSchema, props.Locale)
	if pr.logic == nil {
		return nil
	}
	v := &formView{schema: pr.l.Schema, logic: pr.logic}
	v.outcome = v.logic.Evaluate(hubclient.Values(v.schema, props.State.Values))
	now := v.logicState()
	prior, _ = splitState(prior)
	if len(prior) != len(now) {
		return nil
	}
	var out []string
	i := 0
	for _, f := range v.schema.Fields {
		if !v.inSlot(f.Name) {
			continue
		}
		if prior[i] == 'h' && now[i] != 'h' && f.TypeOf().HasValue() && f.Type != hubclient.FieldHidden {
			out = append(out, f.Name)
		}
		i++
	}
	return out
}

// noteRevealed lists the questions State.Revealed names, to point the
// visitor at them, and opens the form at the first one's step when no
// error decided it.
func (v *formView) noteRevealed() {
	for _, name := range v.props.State.Revealed {
		f := v.schema.Field(name)
		if f == nil {
			continue
		}
		v.revealed = append(v.revealed, summaryItem{id: v.fieldID(name), label: cmp.Or(f.Label, f.Name)})
		if v.currentStep < 0 {
			for i, st := range v.schema.Steps {
				if slices.Contains(st.Fields, name) {
					v.currentStep = i
				}
			}
		}
	}
}

// LogicStateField is the hidden input that carries the form's logicState
// to the logic route.
const LogicStateField = "_hubformLogic"

// textsOf returns the built-in texts in the props' locale.
func textsOf(p HubFormProps) Texts { return TextsFor(p.InitialSchema, p.Locale) }

func recaptchaScript(siteKey string) string {
	return "https://www.google.com/recaptcha/api.js?render=" + url.QueryEscape(siteKey)
}

// changedSlots lists the slotted fields whose state differs from prior's;
// all of them when prior does not fit the form.
func (v *formView) changedSlots(prior string) []string {
	now := v.logicState()
	var out []string
	i := 0
	for _, f := range v.schema.Fields {
		if !v.inSlot(f.Name) {
			continue
		}
		if len(prior) != len(now) || prior[i] != now[i] {
			out = append(out, f.Name)
		}
		i++
	}
	return out
}

// changedSteps lists the conditional steps whose state differs from
// prior's.
func (v *formView) changedSteps(prior string) []hubclient.Step {
	now := v.logicState()
	i := len(now)
	for _, st := range v.schema.Steps {
		if v.hasStepCondition(st) {
			i--
		}
	}
	var out []hubclient.Step
	for _, st := range v.schema.Steps {
		if !v.hasStepCondition(st) {
			continue
		}
		if len(prior) != len(now) || prior[i] != now[i] {
			out = append(out, st)
		}
		i++
	}
	return out
}
