package components

import (
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
