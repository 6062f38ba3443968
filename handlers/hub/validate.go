package hub

import (
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
	hubclient.ProblemChoice:          "not one of the choices",
	hubclient.ProblemDuplicateChoice: "a choice is given twice",
	hubclient.ProblemBoolean:         "must be true or false",
	hubclient.ProblemOneFile:         "takes one file",
}

// validatePayload checks the payload and the attachments' fields against
// the schema and returns a message per offending field, or nil.
func validatePayload(schema *hubclient.Schema, payload map[string]any, attachments []hubclient.Attachment) map[string]string {
	problems := map[string]string{}
	for name := range payload {
		f := schema.Field(name)
		switch {
		case f == nil:
			problems[name] = "not a field of this form"
		case f.Type == hubclient.FieldFile && !hubclient.IsEmptyValue(payload[name]):
			problems[name] = "files are sent as attachments, not in the payload"
		}
	}
	files, unassigned := map[string]int{}, 0
	for _, a := range attachments {
		if a.Field == "" {
			unassigned++
			continue
		}
		if f := schema.Field(a.Field); f == nil || f.Type != hubclient.FieldFile {
			problems[a.Field] = "not a file field of this form"
			continue
		}
		files[a.Field]++
	}
	for i := range schema.Fields {
		f := &schema.Fields[i]
		if hubclient.IsHoneypot(f.Name) || problems[f.Name] != "" {
			continue
		}
		if f.Type == hubclient.FieldFile {
			switch n := files[f.Name]; {
			case f.Required && n == 0 && unassigned == 0:
				problems[f.Name] = problemMessages[hubclient.ProblemRequired]
			case !f.Multiple && n > 1:
				problems[f.Name] = problemMessages[hubclient.ProblemOneFile]
			}
			continue
		}
		if problem := hubclient.CheckValue(f, payload[f.Name]); problem != "" {
			problems[f.Name] = problemMessages[problem]
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return problems
}
