package handlers

import (
	"mime/multipart"

	"github.com/hubform/hubform/hubclient"
)

// checkDrawings adds to problems the problem of each visible signature
// whose drawing posted is not one it takes (hubclient.CheckSignatureFile),
// as the hub judges the attachment.
func checkDrawings(schema *hubclient.Schema, outcome *hubclient.Outcome, files map[string][]*multipart.FileHeader, problems map[string]hubclient.Problem) map[string]hubclient.Problem {
	for i := range schema.Fields {
		f := &schema.Fields[i]
		if f.Type != hubclient.FieldSignature || !outcome.Visible(f.Name) || problems[f.Name].Code != "" {
			continue
		}
		for _, fh := range files[f.Name] {
			if code := hubclient.CheckSignatureFile(fh.Header.Get("Content-Type"), fh.Size); code != "" {
				if problems == nil {
					problems = map[string]hubclient.Problem{}
				}
				problems[f.Name] = hubclient.Problem{Code: code}
			}
		}
	}
	return problems
}
