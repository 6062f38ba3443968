package hubclient

import (
	"slices"
	"strconv"
)

// problemMessages say what a problem code of CheckValue means,
// in the hub's answers.
var problemMessages = map[string]string{
	ProblemRequired:        "required",
	ProblemNotText:         "must be text",
	ProblemTooLong:         "too long: at most " + strconv.Itoa(MaxLineLength) + " characters, " + strconv.Itoa(MaxTextLength) + " for a textarea",
	ProblemEmail:           "not an email address",
	ProblemURL:             "not an http or https address",
	ProblemTel:             "not a telephone number",
	ProblemNumber:          "must be a number",
	ProblemDate:            "not a date (YYYY-MM-DD)",
	ProblemTime:            "not a time (HH:MM)",
	ProblemDateTime:        "not a date and time (YYYY-MM-DDTHH:MM)",
	ProblemChoice:          "not one of the choices",
	ProblemDuplicateChoice: "a choice is given twice",
	ProblemRanking:         "must hold every option once, in order",
	ProblemBoolean:         "must be true or false",
	ProblemMatrixRows:      "required: every row needs an answer",
	ProblemAddress:         "required: the first line, the city and the country",
	ProblemCountry:         "not a country this form takes (an ISO 3166-1 code such as FR)",
	ProblemObject:          "must be an object of the field's parts",
	ProblemSignature:       "a drawn signature is one PNG file of at most 512 KiB",
	ProblemGroupItem:       "item {n}, {label}: {message}",
	ProblemOneFile:         "takes one file",
	ProblemMinLength:       "too short: at least {limit} characters",
	ProblemMaxLength:       "too long: at most {limit} characters",
	ProblemPattern:         "does not match the pattern {limit}",
	ProblemMin:             "less than {limit}",
	ProblemMax:             "more than {limit}",
	ProblemStep:            "not a multiple of {limit} from the minimum",
	ProblemMinItems:        "too few: at least {limit}",
	ProblemMaxItems:        "too many: at most {limit}",
}

// ProblemMessage returns what a problem code means in a hub's answers:
// "required", "not an email address"; "" for a code it does not know.
func ProblemMessage(code string) string { return problemMessages[code] }

// ShapeProblems returns a message per name of the payload that is no field
// of the schema or holds a file, and per attachment's field that takes no
// files, or a signature's that is not a PNG it takes: what a submission
// and a draft alike may not carry.
func ShapeProblems(schema *Schema, payload map[string]any, attachments []Attachment) map[string]string {
	problems := map[string]string{}
	for name := range payload {
		f := schema.Field(name)
		switch {
		case f == nil:
			problems[name] = "not a field of this form"
		case f.TypeOf().IsFiles() && !IsEmptyValue(payload[name]):
			problems[name] = "files are sent as attachments, not in the payload"
		case !f.TypeOf().HasValue() && !IsEmptyValue(payload[name]):
			problems[name] = "a " + f.Type + " takes no value"
		}
	}
	for _, a := range attachments {
		f := schema.Field(a.Field)
		switch {
		case a.Field != "" && (f == nil || !f.TypeOf().TakesFiles()):
			problems[a.Field] = "not a file field of this form"
		case f != nil && f.Type == FieldSignature && CheckSignatureFile(a.MIME, a.Size) != "":
			problems[a.Field] = ProblemMessage(ProblemSignature)
		}
	}
	return problems
}

// CheckPayload checks the payload and the attachments' fields of a
// submission against the schema, its rules and its conditions, and
// returns a message per offending field (ProblemMessage, or the field's
// own message), or nil: what a hub answers 422 with. A hub and a fake of
// one judge values with it alike. The values of fields the conditions hide are
// dropped from the payload, and their attachments from the list: they
// were not shown, so they are not kept. The others are left as the hub
// keeps them (Field.Stored): numbers as numbers. A value under the name of
// one of the schema's calculations is dropped first, whatever the outcome.
func CheckPayload(schema *Schema, payload map[string]any, attachments *[]Attachment) map[string]string {
	// A calculation is worked out by whoever judges the values; a value
	// sent under its name is ignored.
	for i := range schema.Calculations {
		delete(payload, schema.Calculations[i].Name)
	}
	problems := ShapeProblems(schema, payload, *attachments)
	values := make(map[string]any, len(payload))
	for name, v := range payload {
		values[name] = v
	}
	unassigned := 0
	for _, a := range *attachments {
		if a.Field == "" {
			unassigned++
			continue
		}
		if problems[a.Field] != "" {
			continue
		}
		names, _ := values[a.Field].([]string)
		values[a.Field] = append(names, a.Filename)
	}
	logic, err := Compile(schema)
	if err != nil {
		// The hub refuses such a schema when it is stored; one that slipped
		// through judges no submission.
		return map[string]string{"": "the form's rules cannot be read"}
	}
	outcome, found := logic.Check(values)
	for name, p := range found {
		f := schema.Field(name)
		if problems[name] != "" || (f.Type == FieldFile && p.Code == ProblemRequired && unassigned > 0) {
			continue
		}
		problems[name] = p.Text(f, ProblemMessage)
	}
	if len(problems) > 0 {
		return problems
	}
	outcome.Drop(payload)
	for name, v := range payload {
		if f := schema.Field(name); f != nil {
			payload[name] = f.Stored(v)
		}
	}
	*attachments = slices.DeleteFunc(*attachments, func(a Attachment) bool {
		return a.Field != "" && !outcome.Visible(a.Field)
	})
	return nil
}
