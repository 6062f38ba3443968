package hub

import (
	"slices"
	"strconv"

	"github.com/hubform/hubform/hubclient"
)

// problemMessages say what a problem code of hubclient.CheckValue means,
// in the hub's answers.
var problemMessages = map[string]string{
	hubclient.ProblemRequired:        "required",
	hubclient.ProblemNotText:         "must be text",
	hubclient.ProblemTooLong:         "too long: at most " + strconv.Itoa(hubclient.MaxLineLength) + " characters, " + strconv.Itoa(hubclient.MaxTextLength) + " for a textarea",
	hubclient.ProblemEmail:           "not an email address",
	hubclient.ProblemURL:             "not an http or https address",
	hubclient.ProblemTel:             "not a telephone number",
	hubclient.ProblemNumber:          "must be a number",
	hubclient.ProblemDate:            "not a date (YYYY-MM-DD)",
	hubclient.ProblemTime:            "not a time (HH:MM)",
	hubclient.ProblemDateTime:        "not a date and time (YYYY-MM-DDTHH:MM)",
	hubclient.ProblemChoice:          "not one of the choices",
	hubclient.ProblemDuplicateChoice: "a choice is given twice",
	hubclient.ProblemRanking:         "must hold every option once, in order",
	hubclient.ProblemBoolean:         "must be true or false",
	hubclient.ProblemMatrixRows:      "required: every row needs an answer",
	hubclient.ProblemAddress:         "required: the first line, the city and the country",
	hubclient.ProblemCountry:         "not a country this form takes (an ISO 3166-1 code such as FR)",
	hubclient.ProblemObject:          "must be an object of the field's parts",
	hubclient.ProblemSignature:       "a drawn signature is one PNG file of at most 512 KiB",
	hubclient.ProblemGroupItem:       "item {n}, {label}: {message}",
	hubclient.ProblemOneFile:         "takes one file",
	hubclient.ProblemMinLength:       "too short: at least {limit} characters",
	hubclient.ProblemMaxLength:       "too long: at most {limit} characters",
	hubclient.ProblemPattern:         "does not match the pattern {limit}",
	hubclient.ProblemMin:             "less than {limit}",
	hubclient.ProblemMax:             "more than {limit}",
	hubclient.ProblemStep:            "not a multiple of {limit} from the minimum",
	hubclient.ProblemMinItems:        "too few: at least {limit}",
	hubclient.ProblemMaxItems:        "too many: at most {limit}",
}

func problemMessage(code string) string { return problemMessages[code] }

// ShapeProblems returns a message per name of the payload that is no field
// of the schema or holds a file, and per attachment's field that takes no
// files, or a signature's that is not a PNG it takes: what a submission
// and a draft alike may not carry.
func ShapeProblems(schema *hubclient.Schema, payload map[string]any, attachments []hubclient.Attachment) map[string]string {
	problems := map[string]string{}
	for name := range payload {
		f := schema.Field(name)
		switch {
		case f == nil:
			problems[name] = "not a field of this form"
		case f.TypeOf().IsFiles() && !hubclient.IsEmptyValue(payload[name]):
			problems[name] = "files are sent as attachments, not in the payload"
		case !f.TypeOf().HasValue() && !hubclient.IsEmptyValue(payload[name]):
			problems[name] = "a " + f.Type + " takes no value"
		}
	}
	for _, a := range attachments {
		f := schema.Field(a.Field)
		switch {
		case a.Field != "" && (f == nil || !f.TypeOf().TakesFiles()):
			problems[a.Field] = "not a file field of this form"
		case f != nil && f.Type == hubclient.FieldSignature && hubclient.CheckSignatureFile(a.MIME, a.Size) != "":
			problems[a.Field] = problemMessage(hubclient.ProblemSignature)
		}
	}
	return problems
}

// ValidatePayload checks the payload and the attachments' fields against
// the schema, its rules and its conditions, and returns a message per
// offending field, or nil. The values of fields the conditions hide are
// dropped from the payload, and their attachments from the list: they
// were not shown, so they are not kept. The others are left as the hub
// keeps them (hubclient.Field.Stored): numbers as numbers.
func ValidatePayload(schema *hubclient.Schema, payload map[string]any, attachments *[]hubclient.Attachment) map[string]string {
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
	logic, err := hubclient.Compile(schema)
	if err != nil {
		// The hub refuses such a schema when it is stored; one that slipped
		// through judges no submission.
		return map[string]string{"": "the form's rules cannot be read"}
	}
	outcome, found := logic.Check(values)
	for name, p := range found {
		f := schema.Field(name)
		if problems[name] != "" || (f.Type == hubclient.FieldFile && p.Code == hubclient.ProblemRequired && unassigned > 0) {
			continue
		}
		problems[name] = p.Text(f, problemMessage)
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
	*attachments = slices.DeleteFunc(*attachments, func(a hubclient.Attachment) bool {
		return a.Field != "" && !outcome.Visible(a.Field)
	})
	return nil
}
