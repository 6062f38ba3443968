package console

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/hubform/hubform/hubclient"
)

// A group's settings: its Add button's label, its fewest and most
// entries, and its questions, each with buttons that move and remove it.

// The group's panel posts its questions as "question.K.name" (hidden),
// "question.K.label", "question.K.type", "question.K.required" and
// "question.K.options", K from 0 to "questions" less one; its buttons
// post "questionAction": "up:K", "down:K", "remove:K" or "add", which
// adds the question "newQuestion" of type "newQuestionType".
const (
	questionsField      = "questions"
	questionActionField = "questionAction"
)

// questionKey is the posted name of part of the group's k-th question.
func questionKey(k int, part string) string { return "question." + strconv.Itoa(k) + "." + part }

// childKinds are the kinds a group's question may be, in the palette's
// groups and words.
func childKinds() []kindGroup {
	return kindsByGroup(func(k fieldKind) bool { return hubclient.TakesChild(k.Type) })
}

// editGroup sets a group's add button's label, its fewest and most
// entries and its questions, then does what its button asked.
func editGroup(f *hubclient.Field, i int, form url.Values) []error {
	var errs []error
	bad := func(member, format string, args ...any) {
		errs = append(errs, problem(fmt.Sprintf("fields[%d].%s", i, member), format, args...))
	}
	if v, ok := form["addLabel"]; ok {
		f.AddLabel = strings.TrimSpace(v[0])
	}
	lo, hi := f.MinItems, f.MaxItems
	for _, b := range []struct {
		member, words string
		n             *int
	}{{"minItems", "The fewest entries", &lo}, {"maxItems", "The most entries", &hi}} {
		v, ok := form[b.member]
		if !ok {
			continue
		}
		text := strings.TrimSpace(v[0])
		if text == "" {
			*b.n = 0
			continue
		}
		n, err := wholeIn(memberPath(i, b.member), text, 0, hubclient.MaxGroupItems, b.words)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		*b.n = n
	}
	if len(errs) == 0 && hi != 0 && lo > hi {
		bad("minItems", "The fewest entries (%d) is more than the most entries (%d)", lo, hi)
	}
	if len(errs) == 0 {
		f.MinItems, f.MaxItems = lo, hi
	}
	if _, ok := form[questionsField]; ok {
		errs = append(errs, editQuestions(f, i, form)...)
	}
	if len(errs) > 0 {
		return errs
	}
	return questionAction(f, i, form)
}

// editQuestions sets the group's questions as posted: each keeps its
// name, by which answers already stored know it; its label, type and
// whether it is required change.
func editQuestions(f *hubclient.Field, i int, form url.Values) []error {
	var errs []error
	n, err := strconv.Atoi(form.Get(questionsField))
	if err != nil || n != len(f.Fields) {
		return []error{problem(fmt.Sprintf("fields[%d].fields", i), "the group's questions changed since this page was loaded: reload the page")}
	}
	for k := range f.Fields {
		c := &f.Fields[k]
		if name := form.Get(questionKey(k, "name")); name != "" && name != c.Name {
			return []error{problem(fmt.Sprintf("fields[%d].fields", i), "the group's questions changed since this page was loaded: reload the page")}
		}
		path := fmt.Sprintf("fields[%d].fields[%d]", i, k)
		if v, ok := form[questionKey(k, "label")]; ok {
			label := strings.TrimSpace(v[0])
			if label == "" {
				errs = append(errs, problem(path+".label", "Question %d of the group needs a label", k+1))
			} else {
				c.Label = label
			}
		}
		if t := form.Get(questionKey(k, "type")); t != "" && t != c.Type {
			if !hubclient.TakesChild(t) {
				errs = append(errs, problem(path+".type", "A question of a group cannot be a %s: choose one of the types offered", strings.ToLower(kindOf(t).Word)))
			} else {
				retypeChild(c, t)
			}
		}
		if _, ok := form[questionKey(k, "label")]; ok {
			c.Required = form.Get(questionKey(k, "required")) != ""
		}
		if v, ok := form[questionKey(k, "options")]; ok && c.TypeOf().TakesOptions() {
			if os := parseOptions(v[0], c.Options); len(os) > 0 {
				c.Options = os
			} else {
				errs = append(errs, problem(path+".options", "Question %d of the group needs one option at least: write one a line", k+1))
			}
		}
	}
	return errs
}

// retypeChild changes a group's question to type t: options kept or
// made, what t does not take dropped.
func retypeChild(c *hubclient.Field, t string) {
	c.Type = t
	tt := c.TypeOf()
	switch {
	case tt.TakesOptions() && len(c.Options) == 0:
		c.Options = newOptions(t)
	case !tt.TakesOptions():
		c.Options = nil
	}
	if !tt.TakesText() {
		c.MinLength, c.MaxLength, c.Pattern = 0, 0, ""
	}
	if tt.Range() == nil {
		c.Min, c.Max, c.Step = "", "", 0
	}
	if !tt.TakesItems() {
		c.MinItems, c.MaxItems = 0, 0
	}
	c.Messages = nil
}

// questionAction moves, removes or adds a question of the group, as the
// button posted asks.
func questionAction(f *hubclient.Field, i int, form url.Values) []error {
	act := form.Get(questionActionField)
	if act == "" {
		return nil
	}
	path := fmt.Sprintf("fields[%d].fields", i)
	if act == "add" {
		label := strings.TrimSpace(form.Get("newQuestion"))
		if label == "" {
			return []error{problem(path, "Write the new question's label, then add it")}
		}
		t := form.Get("newQuestionType")
		if t == "" {
			t = hubclient.FieldText
		}
		if !hubclient.TakesChild(t) {
			return []error{problem(path, "A question of a group cannot be a %s: choose one of the types offered", strings.ToLower(kindOf(t).Word))}
		}
		c := hubclient.Field{Name: childName(f, nameFrom(label)), Type: t, Label: label}
		if c.TypeOf().TakesOptions() {
			c.Options = newOptions(t)
		}
		f.Fields = append(f.Fields, c)
		return nil
	}
	verb, at, _ := strings.Cut(act, ":")
	k, err := strconv.Atoi(at)
	if err != nil || k < 0 || k >= len(f.Fields) {
		return []error{problem(path, "there is no question %s in the group", at)}
	}
	switch verb {
	case "up", "down":
		j := k - 1
		if verb == "down" {
			j = k + 1
		}
		if j < 0 || j >= len(f.Fields) {
			return []error{problem(path, "Question %d cannot move further %s", k+1, verb)}
		}
		f.Fields[k], f.Fields[j] = f.Fields[j], f.Fields[k]
	case "remove":
		if len(f.Fields) == 1 {
			return []error{problem(path, "A group asks one question at least: add another before removing this one")}
		}
		f.Fields = slices.Delete(f.Fields, k, k+1)
	default:
		return []error{problem(path, "Say what to do with the question: up, down or remove")}
	}
	return nil
}

// childName returns base, or base_2 ..., the first name no question of
// the group f has.
func childName(f *hubclient.Field, base string) string {
	if base == "" {
		base = "question"
	}
	for n, try := 2, base; ; n++ {
		if f.Child(try) == nil {
			return try
		}
		try = base + "_" + strconv.Itoa(n)
	}
}

// itemsText is a group's bound as its input shows it: empty for none.
func itemsText(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}
