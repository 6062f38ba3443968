package formsource

import (
	"fmt"
	"strings"

	"github.com/hubform/hubform/hubclient"
)

// maxEndings is the most endings a form may have: each is a condition the
// hub evaluates on every submission.
const maxEndings = 64

// endings checks the form's endings: each has an id of its own, in the
// character set of field names (translations and counts refer to it),
// something to show or a page to send the visitor to, and a redirectUrl
// only to an absolute http or https address. Their conditions are
// checked with the others' (rules).
func (v *validator) endings() {
	if len(v.schema.Endings) > maxEndings {
		v.addf("endings", "endings: %d endings; a form has at most %d", len(v.schema.Endings), maxEndings)
	}
	seen := make(map[string]bool, len(v.schema.Endings))
	for i, e := range v.schema.Endings {
		path := fmt.Sprintf("endings[%d]", i)
		at := fmt.Sprintf("ending %q", e.ID)
		switch {
		case e.ID == "":
			at = path
			v.addf(path+".id", "%s: id is empty", at)
		case seen[e.ID]:
			v.addf(path+".id", "%s: id is used by more than one ending", at)
		case !fieldName.MatchString(e.ID):
			v.addf(path+".id", "%s: id does not match %s", at, fieldName)
		}
		seen[e.ID] = true
		if strings.TrimSpace(e.Title) == "" && e.RedirectURL == "" {
			v.addf(path+".title", "%s: an ending needs a title, or a redirectUrl to send the visitor to", at)
		}
		// Clients send the visitor there: a javascript: URL would run in
		// the page of whoever shows the form.
		if e.RedirectURL != "" && !hubclient.ValidEndingRedirect(e.RedirectURL) {
			v.addf(path+".redirectUrl", "%s: redirectUrl %q is not an absolute http or https address", at, e.RedirectURL)
		}
	}
}
