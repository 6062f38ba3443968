package console

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/templates"
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
	return con.render(c, http.StatusOK, templatePage(t, con.previewOf(c, "template", name, body, "")))
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
