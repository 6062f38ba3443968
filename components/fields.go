package components

import (
	"strconv"

	"github.com/a-h/templ"

	"github.com/hubform/hubform/hubclient"
)

// describe returns a control's accessibility attributes: autocomplete,
// aria-describedby, aria-invalid.
func describe(p FieldProps) templ.Attributes {
	attrs := templ.Attributes{}
	if ac := p.Autocomplete(); ac != "" {
		attrs["autocomplete"] = ac
	}
	if ids := p.DescribedBy(); ids != "" {
		attrs["aria-describedby"] = ids
	}
	if p.Error != "" {
		attrs["aria-invalid"] = "true"
	}
	return attrs
}

// rules returns the HTML attributes of a field's validation rules, so
// that browsers help before the server judges: minlength, maxlength and
// pattern for text, min, max and step for numbers and dates. A number
// without a step takes any.
func rules(f hubclient.Field) templ.Attributes {
	attrs := templ.Attributes{}
	switch f.Type {
	case hubclient.FieldNumber, hubclient.FieldDate:
		if f.Min != "" {
			attrs["min"] = string(f.Min)
		}
		if f.Max != "" {
			attrs["max"] = string(f.Max)
		}
		if f.Step > 0 {
			attrs["step"] = strconv.FormatFloat(f.Step, 'f', -1, 64)
		} else if f.Type == hubclient.FieldNumber {
			attrs["step"] = "any"
		}
	case hubclient.FieldText, hubclient.FieldEmail, hubclient.FieldTel, hubclient.FieldURL, hubclient.FieldTextarea:
		if f.MinLength > 0 {
			attrs["minlength"] = strconv.Itoa(f.MinLength)
		}
		if f.MaxLength > 0 {
			attrs["maxlength"] = strconv.Itoa(f.MaxLength)
		}
		if f.Pattern != "" && f.Type != hubclient.FieldTextarea {
			attrs["pattern"] = f.Pattern
		}
	}
	return attrs
}

func fieldClasses(p FieldProps) templ.CSSClasses {
	return templ.Classes("hubform-field", "hubform-field--"+p.Field.Type, templ.KV("hubform-field--invalid", p.Error != ""))
}

func inputType(fieldType string) string {
	switch fieldType {
	case hubclient.FieldEmail, hubclient.FieldTel, hubclient.FieldURL, hubclient.FieldNumber, hubclient.FieldDate:
		return fieldType
	}
	return "text"
}

func choiceType(fieldType string) string {
	if fieldType == hubclient.FieldRadio {
		return "radio"
	}
	return "checkbox"
}
