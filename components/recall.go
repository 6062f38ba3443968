package components

import (
	"context"
	"hash/fnv"
	"html"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hubform/hubform/hubclient"
)

// Texts of a form recall earlier answers ("Thanks, {{name}}"): the logic
// compiled with the translated schema holds them parsed, and the view
// fills them from the values shown, those of hidden fields left out, as
// the inbox writes them. A value is text: templ escapes it like any label,
// and a paragraph's Markdown is read before the values go in.

// asWrittenKey marks a context whose forms show their texts as written.
type asWrittenKey struct{}

// WithTextsAsWritten returns ctx for rendering a form whose texts show
// their recall tokens as written ("Thanks, {{name}}"), unfilled: a
// builder's preview, whose texts are edited where they stand, renders so.
func WithTextsAsWritten(ctx context.Context) context.Context {
	return context.WithValue(ctx, asWrittenKey{}, true)
}

// asWritten reports whether ctx asks for the texts as written.
func asWritten(ctx context.Context) bool { v, _ := ctx.Value(asWrittenKey{}).(bool); return v }

// recallValues returns the values the form's texts recall: the values
// shown, typed, of the fields the conditions show. It is worked out once
// per render, and only for a form whose texts recall.
func (v *formView) recallValues() map[string]any {
	if v.recalled == nil {
		v.recalled = v.logic.RecallValues(hubclient.Values(v.schema, v.props.State.Values))
	}
	return v.recalled
}

// recallWords writes a recalled value of key as the inbox does, in the
// form's language: an option's translated label, yes and no, a date for
// people.
func (v *formView) recallWords(key string, val any) string {
	return answerWords(v.schema, v.l, key, val)
}

func answerWords(s *hubclient.Schema, l Localized, key string, val any) string {
	name, part, _ := hubclient.SplitKey(key)
	if c := s.Calculation(name); c != nil && part == "" {
		return c.FormatValue(val, l.Locale)
	}
	f := s.Field(name)
	if f == nil {
		f = &hubclient.Field{Name: name}
	}
	if d, ok := val.(string); ok && part == "" && f.Type == hubclient.FieldDate {
		if t, err := time.Parse(time.DateOnly, d); err == nil {
			return localDate(l.Locale, t)
		}
	}
	return f.RecallWords(part, val, l.Texts.T("yes"), l.Texts.T("no"))
}

// localDate writes a day for the form's locale: with the month's name in
// English, as the built-in texts are; as 2026-12-28, which reads the same
// in every language, in a translation.
func localDate(locale string, t time.Time) string {
	if l := strings.ToLower(locale); l == "" || l == "en" || strings.HasPrefix(l, "en-") {
		return t.Format("2 January 2006")
	}
	return t.Format(time.DateOnly)
}

// fill returns t filled from the values shown.
func (v *formView) fill(t *hubclient.RecallText) string {
	return t.Fill(v.recallValues(), v.recallWords)
}

// withRecall fills the texts of p's field that recall answers: its label,
// help, options' labels and a heading's text, and a paragraph's HTML. The
// field's options are copied before they change: they are the translated
// schema's, shared by every render.
func (v *formView) withRecall(ctx context.Context, p *FieldProps) {
	if v.logic == nil || asWritten(ctx) {
		return
	}
	fr := v.logic.FieldRecall(p.Field.Name)
	if fr == nil {
		return
	}
	if fr.Label != nil {
		p.Field.Label = v.fill(fr.Label)
	}
	if fr.Help != nil {
		p.Field.Help = v.fill(fr.Help)
	}
	if fr.Options != nil {
		p.Field.Options = slices.Clone(p.Field.Options)
		for i, t := range fr.Options {
			if t != nil && i < len(p.Field.Options) {
				p.Field.Options[i].Label = v.fill(t)
			}
		}
	}
	if fr.Text != nil {
		if p.Field.Type == hubclient.FieldParagraph {
			p.textHTML = recallMarkdown(fr.Text, v.recallValues(), v.recallWords)
		} else {
			p.Field.Text = v.fill(fr.Text)
		}
	}
}

// stepTitle returns the title of a step, its recalled answers filled.
func (v *formView) stepTitle(ctx context.Context, st hubclient.Step) string {
	if v.logic != nil && !asWritten(ctx) {
		if t := v.logic.StepRecall(st.ID); t != nil {
			return v.fill(t)
		}
	}
	return st.Title
}

// stepTitleID is the id of a step's title that recalls answers, which the
// logic route swaps when they change.
func (v *formView) stepTitleID(st hubclient.Step) string {
	return v.rootID + "-step-" + safeID(st.ID) + "-title"
}

// recallsInStep reports whether a step's title recalls answers.
func (v *formView) recallsInStep(st hubclient.Step) bool {
	return v.logic != nil && v.logic.StepRecall(st.ID) != nil
}

// recallState sums up the recalled texts as shown, a hash of each
// field's and step title's that recalls, after "~", so that the logic
// route swaps only those whose words changed. Empty for a form whose
// texts recall nothing, or shows them as written.
func (v *formView) recallState(ctx context.Context) string {
	if v.logic == nil || !v.logic.HasRecall() || asWritten(ctx) {
		return ""
	}
	var b strings.Builder
	b.WriteByte('~')
	for _, h := range v.recallHashes() {
		b.WriteString(h)
	}
	return b.String()
}

// recallHashes returns a hash of the words of each field (in the form's
// order) and each step title (in the steps') that recalls answers, 8 hex
// digits each.
func (v *formView) recallHashes() []string {
	var out []string
	sum := func(texts ...string) {
		h := fnv.New32a()
		for _, s := range texts {
			h.Write([]byte(s))
			h.Write([]byte{0})
		}
		out = append(out, strconv.FormatUint(uint64(h.Sum32())|1<<32, 16)[1:])
	}
	for _, f := range v.schema.Fields {
		fr := v.logic.FieldRecall(f.Name)
		if fr == nil {
			continue
		}
		var texts []string
		for _, t := range append([]*hubclient.RecallText{fr.Label, fr.Help, fr.Text}, fr.Options...) {
			if t != nil {
				texts = append(texts, v.fill(t))
			}
		}
		sum(texts...)
	}
	for _, st := range v.schema.Steps {
		if t := v.logic.StepRecall(st.ID); t != nil {
			sum(v.fill(t))
		}
	}
	return out
}

// changedRecalls lists the fields and steps whose recalled words differ
// from prior's (a recallState); all of them when prior does not fit.
func (v *formView) changedRecalls(ctx context.Context, prior string) (fields []string, steps []hubclient.Step) {
	if v.logic == nil || !v.logic.HasRecall() || asWritten(ctx) {
		return nil, nil
	}
	now := v.recallHashes()
	was := strings.TrimPrefix(prior, "~")
	fits := len(was) == 8*len(now)
	i := 0
	changed := func() bool {
		c := !fits || was[8*i:8*i+8] != now[i]
		i++
		return c
	}
	for _, f := range v.schema.Fields {
		if v.logic.FieldRecall(f.Name) != nil && changed() {
			fields = append(fields, f.Name)
		}
	}
	for _, st := range v.schema.Steps {
		if v.logic.StepRecall(st.ID) != nil && changed() {
			steps = append(steps, st)
		}
	}
	return fields, steps
}

// splitState cuts a posted logic state into the conditions' letters and
// the recall state.
func splitState(posted string) (letters, recall string) {
	if i := strings.IndexByte(posted, '~'); i >= 0 {
		return posted[:i], posted[i:]
	}
	return posted, ""
}

// Placeholders stand for a recalled value while a paragraph's Markdown is
// read, so that the value is never read as Markdown: characters of
// Unicode's private use area, which Markdown passes through as they are,
// around the value's index.
const (
	placeOpen  = '\uE000'
	placeClose = '\uE001'
)

// recallMarkdown returns the HTML of a paragraph's text with its recalled
// answers: the Markdown is read with a placeholder for each value, which
// then takes the value escaped, as text, or, in a link's address,
// escaped as a query value. A token without a value takes its fallback,
// the author's, before the Markdown is read.
func recallMarkdown(t *hubclient.RecallText, values map[string]any, words func(string, any) string) string {
	var found []string
	src := t.FillWith(func(key string) string {
		val, ok := hubclient.RecallValue(values, key)
		if !ok {
			return ""
		}
		w := words(key, val)
		if w == "" {
			return ""
		}
		found = append(found, w)
		return string(placeOpen) + strconv.Itoa(len(found)-1) + string(placeClose)
	})
	out := paragraphHTML(src)
	if len(found) == 0 {
		return out
	}
	var b strings.Builder
	encOpen, encClose := url.QueryEscape(string(placeOpen)), url.QueryEscape(string(placeClose))
	for len(out) > 0 {
		i := strings.IndexRune(out, placeOpen)
		k := strings.Index(out, encOpen)
		switch {
		case i >= 0 && (k < 0 || i < k):
			b.WriteString(out[:i])
			out = out[i+len(string(placeOpen)):]
			n, rest, _ := strings.Cut(out, string(placeClose))
			if j, err := strconv.Atoi(n); err == nil && j < len(found) {
				b.WriteString(html.EscapeString(found[j]))
			}
			out = rest
		case k >= 0:
			b.WriteString(out[:k])
			out = out[k+len(encOpen):]
			n, rest, _ := strings.Cut(out, encClose)
			if j, err := strconv.Atoi(n); err == nil && j < len(found) {
				b.WriteString(url.QueryEscape(found[j]))
			}
			out = rest
		default:
			b.WriteString(out)
			out = ""
		}
	}
	return b.String()
}

// letters returns the conditions' part of a posted logic state.
func letters(posted string) string {
	l, _ := splitState(posted)
	return l
}

// changedSlotsAndTexts lists, in the form's order, the slotted fields
// whose state or recalled words differ from prior's, a posted logic
// state.
func (v *formView) changedSlotsAndTexts(ctx context.Context, prior string) []string {
	l, r := splitState(prior)
	slots := v.changedSlots(l)
	texts, _ := v.changedRecalls(ctx, r)
	if len(texts) == 0 {
		return slots
	}
	var out []string
	for _, f := range v.schema.Fields {
		if slices.Contains(slots, f.Name) || slices.Contains(texts, f.Name) {
			out = append(out, f.Name)
		}
	}
	return out
}

// changedTitles lists the steps whose title's recalled words differ from
// prior's, a posted logic state.
func (v *formView) changedTitles(ctx context.Context, prior string) []hubclient.Step {
	_, r := splitState(prior)
	_, steps := v.changedRecalls(ctx, r)
	return steps
}

// paragraph returns the HTML of a paragraph field's text, its recalled
// answers filled.
func (p FieldProps) paragraph() string {
	if p.textHTML != "" {
		return p.textHTML
	}
	return paragraphHTML(p.Field.Text)
}

// shownEnding is an ending as the submitted state shows it: translated,
// its recalled answers filled, its text in HTML.
type shownEnding struct{ id, title, textHTML string }

// endingShown returns the ending State.Ending names, in the props'
// locale, its title and text filled from State.Values (the values sent,
// those of hidden fields left out), or nil.
func (p HubFormProps) endingShown() *shownEnding {
	e := p.ending()
	if e == nil {
		return nil
	}
	out := &shownEnding{id: e.ID, title: e.Title}
	if e.Text != "" {
		out.textHTML = paragraphHTML(e.Text)
	}
	pr := schemaMemo.get(p.InitialSchema, p.Locale)
	if pr.logic == nil {
		return out
	}
	i := slices.IndexFunc(pr.l.Schema.Endings, func(x hubclient.Ending) bool { return x.ID == e.ID })
	er := pr.logic.EndingRecall(i)
	if er == nil {
		return out
	}
	values := pr.logic.RecallValues(hubclient.Values(pr.l.Schema, p.State.Values))
	words := func(key string, v any) string { return answerWords(pr.l.Schema, pr.l, key, v) }
	if er.Title != nil {
		out.title = er.Title.Fill(values, words)
	}
	if er.Text != nil {
		out.textHTML = recallMarkdown(er.Text, values, words)
	}
	return out
}
