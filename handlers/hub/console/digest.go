package console

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
)

// The account page's daily digest: a member asks for one e-mail a day of
// what the workspace's forms, or some of them, received the day before,
// at an hour of their time zone (package delivery sends it).

// Digests keeps the members' daily digests, as sqldb.DB does.
type Digests interface {
	Digests(ctx context.Context, workspace, email string) ([]hub.Digest, error)
	SetDigests(ctx context.Context, workspace, email string, ds []hub.Digest) error
}

// digestPath is where a member sets their digest of the workspace.
const digestPath = accountPath + "/digest"

// digestProps are what the account page shows of the member's digest.
type digestProps struct {
	// On is whether the console keeps digests.
	On bool
	// NoMail is whether the hub sends no e-mail, Unproved whether the
	// member's address was never proved: a digest goes only to one that
	// was.
	NoMail, Unproved bool
	Workspace        string
	// Choice is "off", "workspace" or "forms"; Chosen the forms' "site/slug".
	Choice string
	Chosen []string
	Hour   int
	// Zone is the zone the digest is sent in, the one kept if any.
	Zone  string
	Forms []formRow
}

// loadDigest reads the member's digest of the workspace for the page.
func (con *Console) loadDigest(c echo.Context, p *digestProps) error {
	if con.cfg.Digests == nil {
		return nil
	}
	ctx := c.Request().Context()
	m := memberOf(c)
	p.On, p.NoMail, p.Workspace, p.Choice, p.Hour = true, con.cfg.Mailer == nil, m.Workspace, "off", hub.DefaultDigestHour
	p.Zone = con.location(ctx).String()
	u, err := con.cfg.Users.User(ctx, userEmail(c))
	if err != nil {
		return hub.Internal("reading a user", err)
	}
	p.Unproved = !u.Proved()
	ds, err := con.cfg.Digests.Digests(ctx, m.Workspace, userEmail(c))
	if err != nil {
		return hub.Internal("reading digests", err)
	}
	for _, d := range ds {
		p.Hour, p.Zone = d.Hour, d.TimeZone
		if d.Site == "" {
			p.Choice = "workspace"
			continue
		}
		p.Choice = "forms"
		p.Chosen = append(p.Chosen, d.Site+"/"+d.Slug)
	}
	if p.Forms, err = con.titledForms(c); err != nil {
		return err
	}
	return nil
}

// setDigest keeps the member's digest of the workspace as the form says:
// none, every form's or some forms', at an hour of the session's time
// zone. A form that is not the workspace's is refused as not found.
func (con *Console) setDigest(c echo.Context) error {
	ctx := c.Request().Context()
	m := memberOf(c)
	hour, err := strconv.Atoi(c.FormValue("hour"))
	if err != nil || hour < 0 || hour > 23 {
		return &hub.Error{Status: http.StatusBadRequest, Message: "Choose an hour between 0 and 23."}
	}
	zone := con.location(ctx)
	now := con.cfg.Now()
	digest := func(site, slug string) hub.Digest {
		d := hub.Digest{Workspace: m.Workspace, Email: userEmail(c), Site: site, Slug: slug, TimeZone: zone.String(), Hour: hour}
		d.NextAt = d.Next(now)
		return d
	}
	var ds []hub.Digest
	switch c.FormValue("digest") {
	case "off":
	case "workspace":
		ds = append(ds, digest("", ""))
	case "forms":
		forms, err := con.forms(c)
		if err != nil {
			return err
		}
		params, _ := c.FormParams()
		for _, f := range params["form"] {
			site, slug, _ := strings.Cut(f, "/")
			if !slices.ContainsFunc(forms, func(r formRow) bool { return r.Site == site && r.Slug == slug }) {
				return &hub.Error{Status: http.StatusNotFound, Message: "No such form in this workspace."}
			}
			if !slices.ContainsFunc(ds, func(d hub.Digest) bool { return d.Site == site && d.Slug == slug }) {
				ds = append(ds, digest(site, slug))
			}
		}
		if len(ds) == 0 {
			return con.noticeAndGo(c, accountPath+"#digest-heading", "Choose the forms of your digest: none was checked, so nothing changed.")
		}
	default:
		return &hub.Error{Status: http.StatusBadRequest, Message: "Choose a digest: none, every form's or some forms'."}
	}
	if err := con.cfg.Digests.SetDigests(ctx, m.Workspace, userEmail(c), ds); err != nil {
		return hub.Internal("setting a digest", err)
	}
	if len(ds) == 0 {
		return con.noticeAndGo(c, accountPath, "You get no daily digest of "+m.Workspace+".")
	}
	return con.noticeAndGo(c, accountPath, fmt.Sprintf("You get a digest of %s each day at %02d:00 (%s), on days something came, first on %s.",
		m.Workspace, hour, zone, ds[0].NextAt.In(zone).Format("Monday 2 January")))
}
