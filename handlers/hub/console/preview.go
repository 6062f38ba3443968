package console

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/hubclient"
)

// previewProps are what the preview beside the editor shows: the form as
// components.HubForm renders it for visitors, in one of its locales.
type previewProps struct {
	Site, Slug string
	Locale     string
	// Locales are the schema's translations; "" is the base language.
	Locales []string
	// Form is nil when the JSON cannot be read as a schema at all.
	Form *components.HubFormProps
	// Invalid says that the form does not validate yet: the preview shows
	// what it can, the editor lists the problems.
	Invalid bool
	// Gaps are what each translation leaves untranslated.
	Gaps []localeGaps
}

// previewOf renders body, a form file, for the preview. A form that does
// not validate is still shown when its JSON reads as a schema, so that the
// owner sees the edit while fixing it. The preview's form posts to the
// console's preview route, which stores and delivers nothing.
func (con *Console) previewOf(c echo.Context, site, slug string, body []byte, locale string) previewProps {
	p := previewProps{Site: site, Slug: slug, Locales: []string{""}}
	var s *hubclient.Schema
	if form, err := formsource.Parse(site, slug, body); err == nil {
		s = form.Schema
	} else {
		p.Invalid = true
		var loose hubclient.Schema
		if json.Unmarshal(body, &loose) != nil {
			return p
		}
		delete(loose.Extra, "hub")
		s = &loose
	}
	p.Gaps = untranslated(s)
	for loc := range s.I18n.Translations {
		p.Locales = append(p.Locales, loc)
	}
	slices.Sort(p.Locales)
	if slices.Contains(p.Locales, locale) {
		p.Locale = locale
	}
	p.Form = &components.HubFormProps{
		SiteID: site, FormSlug: slug, Locale: p.Locale, InitialSchema: s,
		Routes: previewRoutes(site, slug, con.csrfToken(c)),
	}
	return p
}

// preview answers the preview of the posted form file, for htmx to put
// beside the editor as the owner types.
func (con *Console) preview(c echo.Context) error {
	site, slug := c.Param("site"), c.Param("slug")
	body := []byte(c.FormValue("body"))
	if formsource.HasHidden(body) {
		r, err := con.cfg.Store.FormRecord(c.Request().Context(), site, slug)
		if err != nil {
			return con.formError(err)
		}
		if kept, err := con.keepSecrets(c, site, slug, r.LastVersion, body); err == nil {
			body = kept
		}
	}
	return fragment(c, previewPanel(con.previewOf(c, site, slug, body, c.FormValue("locale"))))
}

// previewSubmit is where the preview's form posts: nothing is stored or
// delivered, the owner is told so, above the ending the answers reach
// in the newest version and, for a quiz, its score, worked out as the
// hub would.
func (con *Console) previewSubmit(c echo.Context) error {
	site, slug := c.Param("site"), c.Param("slug")
	var schema *hubclient.Schema
	if rec, err := con.cfg.Store.FormRecord(c.Request().Context(), site, slug); err == nil {
		if v, err := con.cfg.Store.FormVersion(c.Request().Context(), site, slug, rec.LastVersion); err == nil {
			if form, err := formsource.Parse(site, slug, v.Body); err == nil {
				schema = form.Schema
			}
		}
	}
	return con.answerPreviewSent(c, site, slug, schema)
}

// answerPreviewSent answers a preview's form sent, of schema when it is known:
// what visitors would see, under the note that nothing was stored.
func (con *Console) answerPreviewSent(c echo.Context, site, slug string, schema *hubclient.Schema) error {
	p := components.HubFormProps{SiteID: site, FormSlug: slug, SuccessFallback: previewSent()}
	if schema == nil {
		return fragment(c, components.Submitted(p))
	}
	posted, _ := c.FormParams()
	values := hubclient.Values(schema, posted)
	worked := hub.Work(schema, values, nil)
	p.InitialSchema, p.SuccessFallback = schema, nil
	// The ending recalls the answers sent.
	p.State.Values = posted
	p.State.Ending = hub.EndingOf(schema, values, nil)
	if schema.Quiz != nil {
		p.State.Score, p.State.Answers = hub.QuizOf(schema, values, worked.Calculations)
	}
	return fragment(c, previewSubmitted(components.Submitted(p)))
}

// previewRoutes are the routes of the preview's form: all the console's,
// so that it reaches a version the hub does not serve yet.
func previewRoutes(site, slug, csrf string) components.Routes {
	return components.Routes{
		Load: formURL(site, slug), Submit: formURL(site, slug) + "/preview/submit",
		Logic:     formURL(site, slug) + "/preview/logic",
		CSRFField: csrfField, CSRFToken: csrf,
	}
}

// previewLogic answers the preview's change of a field that a condition
// reads, as the hub's logic route does for the live form, for the newest
// version: the fields and steps whose visibility or requiredness changed
// for the values posted. The hub's route knows only the live version.
func (con *Console) previewLogic(c echo.Context) error {
	site, slug := c.Param("site"), c.Param("slug")
	ctx := c.Request().Context()
	rec, err := con.cfg.Store.FormRecord(ctx, site, slug)
	if err != nil {
		return con.formError(err)
	}
	v, err := con.cfg.Store.FormVersion(ctx, site, slug, rec.LastVersion)
	if err != nil {
		return con.formError(err)
	}
	form, err := formsource.Parse(site, slug, v.Body)
	if err != nil {
		// The preview of a version that does not validate has no logic.
		return c.NoContent(http.StatusNoContent)
	}
	return con.previewLogicOf(c, site, slug, form.Schema, previewRoutes(site, slug, con.csrfToken(c)))
}

// previewLogicOf answers a preview's change for schema, whose form has
// routes.
func (con *Console) previewLogicOf(c echo.Context, site, slug string, schema *hubclient.Schema, routes components.Routes) error {
	posted, _ := c.FormParams()
	values := url.Values{}
	for _, f := range schema.Fields {
		if v, ok := posted[f.Name]; ok {
			values[f.Name] = v
		}
	}
	p := components.HubFormProps{
		SiteID: site, FormSlug: slug, Locale: c.QueryParam("locale"), InitialSchema: schema,
		Routes: routes,
		State:  components.State{Values: values},
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return fragment(c, asWrittenForm(components.LogicUpdate(p, posted.Get(components.LogicStateField))))
}
