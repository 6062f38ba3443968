package console

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/templates"
)

// Paths of the forms kept in the database.
const (
	sitesPath = Path + "/sites"
	formPath  = Path + "/forms/:site/:slug"
)

// registerStored adds the pages of the forms kept in the database. They
// go through the admin API's store and validate with formsource.Parse, as the
// admin API does: the console is a second door to the same data, not a
// second data path.
func (con *Console) registerStored(g *echo.Group) {
	g.GET("/sites", con.sitesPage)
	g.GET("/sites/templates/:name", con.templatePreview)
	g.POST("/sites/templates/:name/logic", con.templateLogic)
	g.POST("/sites/templates/:name/submit", con.templateSubmit)
	g.POST("/sites", con.createForm)
	g.GET("/forms/:site/:slug", con.formPage)
	g.POST("/forms/:site/:slug", con.saveForm)
	g.POST("/forms/:site/:slug/preview", con.preview)
	g.POST("/forms/:site/:slug/preview/submit", con.previewSubmit)
	g.GET("/forms/:site/:slug/try", con.tryPage)
	g.POST("/forms/:site/:slug/preview/logic", con.previewLogic)
	g.POST("/forms/:site/:slug/versions/:version/publish", con.publish)
	con.registerBuilder(g)
	con.registerPublish(g)
}

// formURL is the console page of a database form.
func formURL(site, slug string) string { return Path + "/forms/" + site + "/" + slug }

func (con *Console) sitesPage(c echo.Context) error {
	var p createProps
	if name := c.QueryParam("template"); name != "" {
		p.chooseTemplate(name)
		p.Title = p.TemplateTitle
	}
	return con.renderSites(c, http.StatusOK, p)
}

func (con *Console) renderSites(c echo.Context, status int, create createProps) error {
	create.CSRF = con.csrfToken(c)
	return con.render(c, status, sitesPage(sitesProps{Create: create}))
}

// createProps are the create form's values and its errors by input.
type createProps struct {
	CSRF, Site, Slug, Title string
	// Template is the template the form starts from, "" for an empty form.
	Template, TemplateTitle string
	Errors                  map[string]string
}

// chooseTemplate sets the template name, when there is one of that name.
func (p *createProps) chooseTemplate(name string) bool {
	for _, t := range templates.List() {
		if t.Name == name {
			p.Template, p.TemplateTitle = t.Name, t.Title
			return true
		}
	}
	return false
}

// createForm creates a form, on a new site or an existing one, as its
// first version: not published, with the title alone, which the hub would serve
// in the unconfigured state once published, or with a template's content.
func (con *Console) createForm(c echo.Context) error {
	p := createProps{Site: strings.TrimSpace(c.FormValue("site")), Slug: strings.TrimSpace(c.FormValue("slug")), Title: c.FormValue("title"), Errors: map[string]string{}}
	switch {
	case !hub.ValidName(p.Site):
		p.Errors["site"] = "Use 1 to 64 letters, digits, '-' or '_' for the site."
	case p.Site == hub.ReservedSite:
		p.Errors["site"] = fmt.Sprintf("The site %q is reserved for the admin API.", p.Site)
	}
	if !hub.ValidName(p.Slug) {
		p.Errors["slug"] = "Use 1 to 64 letters, digits, '-' or '_' for the form."
	}
	if name := c.FormValue("template"); name != "" && !p.chooseTemplate(name) {
		return hub.Errorf(http.StatusUnprocessableEntity, "No template of this name.")
	}
	ctx := c.Request().Context()
	workspace := memberOf(c).Workspace
	if len(p.Errors) == 0 {
		// A site of another workspace is not available, whether it exists
		// or not: its name is all that is said.
		if owner, err := con.cfg.Workspaces.SiteWorkspace(ctx, p.Site); err == nil && owner != workspace && con.holdsSite(p.Site) {
			p.Errors["site"] = errDirectorySite
		} else if err == nil && owner != workspace {
			p.Errors["site"] = "This site name is not available: choose another."
		} else if err != nil && !errors.Is(err, hub.ErrNotFound) {
			return hub.Internal("finding the site's workspace", err)
		} else if con.inDirectory(p.Site, p.Slug) {
			p.Errors["slug"] = "The forms directory holds this form, and wins over the database: choose another name."
		} else if _, err := con.cfg.Store.FormRecord(ctx, p.Site, p.Slug); err == nil {
			p.Errors["slug"] = "This site has a form of this name already."
		} else if !errors.Is(err, hub.ErrNotFound) {
			return hub.Internal("reading a form", err)
		}
	}
	if len(p.Errors) > 0 {
		return con.renderSites(c, http.StatusUnprocessableEntity, p)
	}
	body, err := json.MarshalIndent(map[string]any{"title": p.Title, "fields": []any{}, "steps": []any{}}, "", "  ")
	if p.Template != "" {
		body, err = templateBody(p.Template, strings.TrimSpace(p.Title))
	}
	if err != nil {
		return hub.Internal("encoding a form", err)
	}
	if owner, err := con.cfg.Sites.ClaimSite(ctx, actorOf(c), p.Site); err != nil {
		return err
	} else if owner != workspace && con.holdsSite(p.Site) {
		p.Errors["site"] = errDirectorySite
		return con.renderSites(c, http.StatusUnprocessableEntity, p)
	} else if owner != workspace {
		// Another workspace claimed it in the meantime.
		p.Errors["site"] = "This site name is not available: choose another."
		return con.renderSites(c, http.StatusUnprocessableEntity, p)
	}
	if _, err := con.cfg.FormChanges.Save(ctx, actorOf(c), p.Site, p.Slug, body); err != nil {
		return con.changeError(err)
	}
	return c.Redirect(http.StatusSeeOther, formURL(p.Site, p.Slug))
}

// errDirectorySite refuses a site of the forms directory to a workspace
// other than the one that serves the directory. Its forms are served to
// anyone: naming the site tells nothing a visitor could not learn.
const errDirectorySite = "This site is served from the hub's forms directory, and belongs to the workspace that serves it: choose another."

// holdsSite reports whether the forms directory holds site.
func (con *Console) holdsSite(site string) bool {
	d, ok := con.cfg.Forms.(interface{ HoldsSite(site string) bool })
	return ok && d.HoldsSite(site)
}

// inDirectory reports whether the forms directory holds site and slug, so
// that the database's form would never be served.
func (con *Console) inDirectory(site, slug string) bool {
	d, ok := con.cfg.Forms.(interface{ InDirectory(site, slug string) bool })
	return ok && d.InDirectory(site, slug)
}

// save stores body, which the caller validated, into the form's draft,
// saved by the signed-in member, if the form is still at the revision
// base the page was built from. A form saved since is a 409 *hub.Error
// wrapping formsource.ErrChanged.
func (con *Console) save(c echo.Context, site, slug string, body []byte, base int64) (int64, error) {
	s, err := con.cfg.FormChanges.SaveDraft(c.Request().Context(), actorOf(c), site, slug, body, base)
	if err != nil {
		return 0, con.changeError(err)
	}
	return s.Version, nil
}

// baseOf is the revision the posted page was built from, 0 when it names
// none, which no form has.
func baseOf(c echo.Context) int64 {
	n, _ := strconv.ParseInt(c.FormValue("base"), 10, 64)
	return n
}

// changeError is the answer to err, which a change of a form returned: a
// missing form or version, or a site not the member's, as formError
// answers it; a refusal or a failure as the service said it.
func (con *Console) changeError(err error) error {
	if errors.Is(err, hub.ErrNotFound) {
		return con.formError(err)
	}
	return err
}

// formProps are what a database form's page shows.
type formProps struct {
	CSRF       string
	Site, Slug string
	Record     formsource.Record
	Versions   []formsource.Version
	// Body is the form file in the editor: the newest version's, or what
	// the owner posted, kept as typed when it did not validate.
	Body string
	// Shown is the version Body is, 0 for what the owner posted.
	Shown int64
	// Problems are what is wrong with Body.
	Problems []formsource.Problem
	// Notice says what was just done.
	Notice string
	// Preview is the preview of Body.
	Preview previewProps
	// Edits is whether the member may change the form: a viewer is not
	// offered what only an editor may open.
	Edits bool
	// Branded is whether the workspace has a brand, which the form
	// inherits: the Design tab says so. Uploads is whether it takes
	// pictures for the logo and cover.
	Branded, Uploads bool
	// Typed is what the builder's form at the path TypedAt posted, when
	// it was refused: its inputs show it back as typed.
	Typed   url.Values
	TypedAt string
	// Retyped is the field whose type the last save changed, and
	// RetypedNote what its panel says of it.
	Retyped, RetypedNote string
	// Editing is the field whose panel the last save left open: a
	// group's question moved, added or removed, to go on with.
	Editing string
	// View is what the page shows: a view of the Build tab (viewFields,
	// viewTranslations, viewJSON), or viewSettings.
	View string
	// Settings are what the Settings tab shows beside the file.
	Settings settingsContext
}

func (con *Console) formPage(c echo.Context) error {
	site, slug := c.Param("site"), c.Param("slug")
	p, err := con.loadForm(c, site, slug)
	if err != nil {
		return err
	}
	shown := p.Record.LastVersion
	if q := c.QueryParam("version"); q != "" {
		if n, err := strconv.ParseInt(q, 10, 64); err == nil && n >= 1 && n <= p.Record.LastVersion {
			shown = n
		}
	}
	v, err := con.cfg.Store.FormVersion(c.Request().Context(), site, slug, shown)
	if err != nil {
		return con.formError(err)
	}
	p.Body, p.Shown, p.View = string(v.Body), shown, viewOf(c.QueryParam("view"))
	switch {
	case c.QueryParam("saved") != "":
		p.Retyped = c.QueryParam("retyped")
		p.Editing = c.QueryParam("editing")
		p.RetypedNote = retypedNotice(v.Body, p.Retyped, c.QueryParam("dropped"))
		p.Notice = movedNotice(v.Body, c.QueryParam("moved")) + p.RetypedNote + savedNotice
	}
	p.Preview = con.previewOf(c, site, slug, v.Body, "")
	return con.renderForm(c, http.StatusOK, p)
}

// seesSecrets reports whether the signed-in member reads the secrets of
// the workspace's form files (formsource.HideSecrets): an admin does. An
// editor replaces a secret without reading it; a viewer sees it is set.
func seesSecrets(c echo.Context) bool { return memberOf(c).Role.Allows(accounts.Admin) }

// renderForm shows the page of p.View, Build or Settings, with the
// secrets of p.Body hidden from a member who may not read them: every
// page that shows a form file goes through here.
func (con *Console) renderForm(c echo.Context, status int, p formProps) error {
	p.Edits = memberOf(c).Role.Allows(accounts.Editor)
	if p.View == viewSettings {
		p.Settings.Chats = chatRows([]byte(p.Body), seesSecrets(c))
	}
	if !seesSecrets(c) {
		p.Body = string(formsource.HideSecrets([]byte(p.Body)))
	}
	if p.View == viewSettings {
		p.Settings.Me, p.Settings.NoMail = memberOf(c).Email, con.cfg.Mailer == nil
		p.Settings.ChatTests = con.cfg.ChatTester != nil && p.Edits
		return con.render(c, status, settingsPage(p))
	}
	if p.View == viewDesign {
		return con.renderDesign(c, status, p)
	}
	return con.render(c, status, formPage(p))
}

// keepSecrets returns body, posted, with the secrets it shows hidden
// taken from the newest version, as formsource.KeepSecrets does.
func (con *Console) keepSecrets(c echo.Context, site, slug string, last int64, body []byte) ([]byte, error) {
	if !formsource.HasHidden(body) || last == 0 {
		return formsource.KeepSecrets(body, nil)
	}
	v, err := con.cfg.Store.FormVersion(c.Request().Context(), site, slug, last)
	if err != nil {
		return nil, con.formError(err)
	}
	return formsource.KeepSecrets(body, v.Body)
}

// loadForm reads the form's record and versions, or returns a 404.
func (con *Console) loadForm(c echo.Context, site, slug string) (formProps, error) {
	ctx := c.Request().Context()
	p := formProps{CSRF: con.csrfToken(c), Site: site, Slug: slug}
	var err error
	if p.Record, err = con.cfg.Store.FormRecord(ctx, site, slug); err != nil {
		return p, con.formError(err)
	}
	if p.Versions, err = con.cfg.Store.FormVersions(ctx, site, slug); err != nil {
		return p, con.formError(err)
	}
	return p, nil
}

// formError is the answer to err, which reading a form returned: 404 for
// a missing form or version, else 500.
func (con *Console) formError(err error) error {
	if errors.Is(err, hub.ErrNotFound) {
		return &hub.Error{Status: http.StatusNotFound, Message: "There is no such form or version."}
	}
	return hub.Internal("reading a form", err)
}

// savedNotice is what a page says after an edit was saved.
const savedNotice = "Saved to the draft. Publish it to make it live."

// saveForm saves the posted form file into the draft when it validates
// exactly as the admin API's and the directory's files must; otherwise
// the page comes back with what was typed and every problem, by path.
func (con *Console) saveForm(c echo.Context) error {
	site, slug := c.Param("site"), c.Param("slug")
	p, err := con.loadForm(c, site, slug)
	if err != nil {
		return err
	}
	p.Body, p.View = c.FormValue("body"), viewJSON
	if baseOf(c) != p.Record.Revision {
		p.Problems = []formsource.Problem{{Err: errors.New("the form was saved again since this page was loaded: nothing was saved; copy your text, reload the page and save again")}}
		p.Preview = con.previewOf(c, site, slug, []byte(p.Body), "")
		return con.renderForm(c, http.StatusConflict, p)
	}
	body, err := con.keepSecrets(c, site, slug, p.Record.LastVersion, []byte(p.Body))
	if he := (*hub.Error)(nil); errors.As(err, &he) {
		return he
	}
	if err == nil {
		_, err = formsource.Parse(site, slug, body)
	}
	if err != nil {
		p.Problems = formsource.Problems(err)
		p.Preview = con.previewOf(c, site, slug, []byte(p.Body), "")
		return con.renderForm(c, http.StatusUnprocessableEntity, p)
	}
	if con.inDirectory(site, slug) {
		p.Problems = []formsource.Problem{{Err: errors.New("the forms directory holds this form and wins over the database: nothing was saved")}}
		return con.renderForm(c, http.StatusConflict, p)
	}
	n, err := con.save(c, site, slug, body, p.Record.Revision)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, withQuery(viewURL(site, slug, viewJSON), "saved", strconv.FormatInt(n, 10)))
}

// publish makes a version live by its number, from the history: the
// newest, or an earlier version again, which is a rollback and leaves the
// draft as it is. The version is checked again, as the admin API does,
// since an older hub may have saved it under looser rules.
func (con *Console) publish(c echo.Context) error {
	ctx := c.Request().Context()
	site, slug := c.Param("site"), c.Param("slug")
	n, err := strconv.ParseInt(c.Param("version"), 10, 64)
	if err != nil || n < 1 {
		return c.String(http.StatusNotFound, "There is no such form or version.")
	}
	v, err := con.cfg.Store.FormVersion(ctx, site, slug, n)
	if err != nil {
		return con.formError(err)
	}
	p, err := con.loadForm(c, site, slug)
	if err != nil {
		return err
	}
	p.View = viewOf(c.FormValue("view"))
	if _, perr := formsource.Parse(site, slug, v.Body); perr != nil || con.inDirectory(site, slug) {
		p.Body, p.Shown = string(v.Body), n
		p.Problems = formsource.Problems(perr)
		if perr == nil {
			p.Problems = []formsource.Problem{{Err: errors.New("the forms directory holds this form and wins over the database: it cannot be published")}}
		}
		p.Notice = fmt.Sprintf("Version %d was not published.", n)
		p.Preview = con.previewOf(c, site, slug, v.Body, "")
		return con.renderForm(c, http.StatusUnprocessableEntity, p)
	}
	if err := con.cfg.FormChanges.Publish(ctx, actorOf(c), site, slug, n); err != nil {
		return con.changeError(err)
	}
	to := viewURL(site, slug, p.View)
	if from := c.FormValue("from"); from != "" {
		to = formPageOr(site, slug, from)
	}
	return c.Redirect(http.StatusSeeOther, withQuery(to, "published", strconv.FormatInt(n, 10)))
}

// versionState names a version: live, the draft (the newest, never
// published), unpublished (newer than the live one) or earlier.
func versionState(r formsource.Record, v formsource.Version) string {
	switch {
	case v.Version == r.LiveVersion:
		return "live"
	case v.Version == r.LastVersion && r.Draft:
		return "draft"
	case v.Version > r.LiveVersion:
		return "unpublished"
	default:
		return "earlier"
	}
}

// prettyJSON indents body for reading, or returns it as it is when it is
// not JSON.
func prettyJSON(body []byte) string {
	var b bytes.Buffer
	if json.Indent(&b, body, "", "  ") != nil {
		return string(body)
	}
	return b.String()
}
