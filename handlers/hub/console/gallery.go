package console

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/templates"
	"github.com/hubform/hubform/hubclient"
)

// templateURL is the preview page of the template name.
func templateURL(name string) string { return sitesPath + "/templates/" + name }

// useTemplateURL is the New form page with the template name chosen.
func useTemplateURL(name string) string { return sitesPath + "?template=" + name + "#create-heading" }

// templatePreview shows the template name as visitors see it, read-only:
// its form posts to the console's preview route, which stores nothing.
func (con *Console) templatePreview(c echo.Context) error {
	name := c.Param("name")
	body, err := templates.Get(name)
	if err != nil {
		return hub.Errorf(http.StatusNotFound, "No template of this name.")
	}
	var t templates.Template
	for _, l := range templates.List() {
		if l.Name == name {
			t = l
		}
	}
	pv := con.previewOf(c, templateSite, name, body, "")
	if pv.Form != nil {
		pv.Form.Routes = templateRoutes(name, con.csrfToken(c))
	}
	return con.render(c, http.StatusOK, templatePage(t, pv))
}

// templateSite is the site a template's preview names its form in.
const templateSite = "template"

// templateRoutes are the routes of a template's preview: its conditions
// and calculations, and its sending, answered from the template, which
// is no form of the database.
func templateRoutes(name, csrf string) components.Routes {
	return components.Routes{
		Load: templateURL(name), Submit: templateURL(name) + "/submit", Logic: templateURL(name) + "/logic",
		CSRFField: csrfField, CSRFToken: csrf,
	}
}

// templateSchema is the schema of the template the route names.
func templateSchema(c echo.Context) (*hubclient.Schema, error) {
	name := c.Param("name")
	body, err := templates.Get(name)
	if err != nil {
		return nil, hub.Errorf(http.StatusNotFound, "No template of this name.")
	}
	form, err := formsource.Parse(templateSite, name, body)
	if err != nil {
		return nil, hub.Internal("parsing a template", err)
	}
	return form.Schema, nil
}

// templateLogic answers a template preview's change, as previewLogic
// does a form's.
func (con *Console) templateLogic(c echo.Context) error {
	s, err := templateSchema(c)
	if err != nil {
		return err
	}
	return con.previewLogicOf(c, templateSite, c.Param("name"), s, templateRoutes(c.Param("name"), con.csrfToken(c)))
}

// templateSubmit answers a template preview's form sent: nothing is
// stored, the ending and score its answers reach are shown.
func (con *Console) templateSubmit(c echo.Context) error {
	s, err := templateSchema(c)
	if err != nil {
		return err
	}
	return con.answerPreviewSent(c, templateSite, c.Param("name"), s)
}

// templateBody is the form file of the template name with its title
// replaced by title when one is given.
func templateBody(name, title string) ([]byte, error) {
	body, err := templates.Get(name)
	if err != nil || title == "" {
		return body, err
	}
	var form map[string]json.RawMessage
	if err := json.Unmarshal(body, &form); err != nil {
		return nil, err
	}
	form["title"], _ = json.Marshal(title)
	return json.MarshalIndent(form, "", "  ")
}
