package components

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/hubform/hubform/hubclient"
)

// describe returns a control's accessibility attributes: aria-describedby,
// aria-invalid, autocomplete. They come sorted by name, the order in
// which templ renders a map of attributes; a list costs less than a map.
func describe(p FieldProps) templ.OrderedAttributes {
	var attrs templ.OrderedAttributes
	if ids := p.DescribedBy(); ids != "" {
		attrs = append(attrs, attr("aria-describedby", ids))
	}
	if p.Error != "" {
		attrs = append(attrs, attr("aria-invalid", "true"))
	}
	if ac := p.Autocomplete(); ac != "" {
		attrs = append(attrs, attr("autocomplete", ac))
	}
	if p.Focus != "" && p.Focus == p.Field.Name {
		attrs = append(attrs, templ.KeyValue[string, any]{Key: "autofocus", Value: true})
	}
	return attrs
}

// groupDescribe returns the aria-describedby of a fieldset of choices,
// when it has help or an error.
func groupDescribe(p FieldProps) templ.OrderedAttributes {
	if ids := p.DescribedBy(); ids != "" {
		return templ.OrderedAttributes{attr("aria-describedby", ids)}
	}
	return nil
}

// rules returns the HTML attributes of a field's validation rules, so
// that browsers help before the server judges: minlength, maxlength and
// pattern for text, min, max and step for numbers and dates. A number
// without a step takes any. They come sorted by name, as describe's do.
func rules(f hubclient.Field) templ.OrderedAttributes {
	var attrs templ.OrderedAttributes
	t := f.TypeOf()
	switch {
	case t.Range() != nil:
		if f.Max != "" {
			attrs = append(attrs, attr("max", string(f.Max)))
		}
		if f.Min != "" {
			attrs = append(attrs, attr("min", string(f.Min)))
		}
		step := f.Step
		if f.Type == hubclient.FieldTime || f.Type == hubclient.FieldDateTime {
			step *= 60 // minutes in the schema, seconds in HTML
		}
		if step > 0 {
			attrs = append(attrs, attr("step", strconv.FormatFloat(step, 'f', -1, 64)))
		} else if f.Type == hubclient.FieldNumber || f.Type == hubclient.FieldSlider {
			attrs = append(attrs, attr("step", "any"))
		}
	case t.TakesText():
		if f.MaxLength > 0 {
			attrs = append(attrs, attr("maxlength", strconv.Itoa(f.MaxLength)))
		}
		if f.MinLength > 0 {
			attrs = append(attrs, attr("minlength", strconv.Itoa(f.MinLength)))
		}
		if f.Pattern != "" && f.Type != hubclient.FieldTextarea {
			attrs = append(attrs, attr("pattern", f.Pattern))
		}
	}
	return attrs
}

func attr(name, value string) templ.KeyValue[string, any] {
	return templ.KeyValue[string, any]{Key: name, Value: value}
}

var requiredStarComponent = requiredStar()

// requiredMark is the mark after the label of a required field; nothing
// for another.
func requiredMark(required bool) templ.Component {
	if required {
		return requiredStarComponent
	}
	return templ.NopComponent
}

// fieldClass returns the classes of a field's outer element.
func fieldClass(p FieldProps) string {
	if p.Error != "" {
		return "hubform-field hubform-field--" + p.Field.Type + " hubform-field--invalid"
	}
	return "hubform-field hubform-field--" + p.Field.Type
}

// keptFile is a file the form already holds for a field, shown with a box
// that, unticked, drops it: a draft's, posted back by its key, or one held
// for a form that came back, posted back by its ticket in the field's name.
type keptFile struct{ text, name, value string }

// keptFiles lists the field's files a draft kept, then those held.
func keptFiles(p FieldProps) []keptFile {
	// A signature's file is named for what it is, not "signature.png".
	name := func(filename string) string {
		if p.Field.Type == hubclient.FieldSignature {
			return p.Texts.T("signatureDrawn")
		}
		return filename
	}
	var out []keptFile
	for _, a := range p.Kept {
		out = append(out, keptFile{strings.ReplaceAll(p.Texts.T("draftKept"), "{name}", name(a.Filename)), hubclient.DraftKeepField, a.Key})
	}
	for _, h := range p.Held {
		out = append(out, keptFile{strings.ReplaceAll(p.Texts.T("heldFile"), "{name}", name(h.Filename)), p.Field.Name, h.Ticket})
	}
	return out
}

// keptID is the id of the line naming the i-th file kept for the field;
// its box adds "-keep".
func keptID(p FieldProps, i int) string {
	return p.ID + "-kept-" + strconv.Itoa(i+1)
}

func inputType(fieldType string) string {
	switch fieldType {
	case hubclient.FieldEmail, hubclient.FieldTel, hubclient.FieldURL, hubclient.FieldNumber, hubclient.FieldDate, hubclient.FieldTime:
		return fieldType
	case hubclient.FieldDateTime:
		return "datetime-local"
	}
	return "text"
}

func choiceType(fieldType string) string {
	if fieldType == hubclient.FieldRadio {
		return "radio"
	}
	return "checkbox"
}

// uploadTexts returns, as JSON, the texts the script shows while it uploads
// files from the browser.
func uploadTexts(t Texts) string {
	keys := []string{"uploading", "uploaded", "uploadCancel", "uploadRetry", "uploadRemove", "uploadWait", "uploadFailed", "uploadFallback", "uploadOffline"}
	texts := make(map[string]string, len(keys))
	for _, k := range keys {
		texts[k] = t.T(k)
	}
	b, _ := json.Marshal(texts) // strings always encode
	return string(b)
}
