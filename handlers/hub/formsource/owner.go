package formsource

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// SiteClaimer gives sites to workspaces, as sqldb.DB does.
type SiteClaimer interface {
	// ClaimSite gives site to workspace when no workspace owns it, and
	// returns the workspace that owns it afterwards.
	ClaimSite(ctx context.Context, site, workspace string, now time.Time) (string, error)
}

// SiteConflictError is a site of the forms directory that the database
// gives to another workspace than the directory's: the directory does not
// serve its forms, as that workspace would read their submissions.
type SiteConflictError struct {
	Site string
	// Owner is the workspace the database gives the site to; Workspace
	// the directory's.
	Owner, Workspace string
}

func (e *SiteConflictError) Error() string {
	return fmt.Sprintf("site %s of the forms directory belongs to workspace %s, not to the forms workspace %s: rename the site's directory, or serve the directory for workspace %s",
		e.Site, e.Owner, e.Workspace, e.Owner)
}

// siteOwner is the workspace that owns a directory's sites, and the sites
// it has been given already.
type siteOwner struct {
	workspace string
	sites     SiteClaimer

	mu sync.Mutex
	// claimed holds the sites the workspace owns. A site never changes
	// hands, so what is known to be owned is asked once.
	claimed map[string]bool
}

// Own makes every site of the directory workspace's from the moment the
// directory sees it: when a form of the site is first read, or when
// [Dir.Claim] is asked about it. The site is claimed through sites, so
// that no other workspace can claim it first and read the submissions of
// its forms. Call Own before the directory serves.
func (d *Dir) Own(workspace string, sites SiteClaimer) {
	d.owner = &siteOwner{workspace: workspace, sites: sites, claimed: make(map[string]bool)}
}

// HoldsSite reports whether the directory has a directory for site, with
// forms in it or not.
func (d *Dir) HoldsSite(site string) bool {
	if !hub.ValidName(site) {
		return false
	}
	if testHookFS != nil {
		testHookFS(site)
	}
	info, err := d.root.Stat(site)
	return err == nil && info.IsDir()
}

// Claim gives site to the workspace that Own named when the directory
// holds it, and reports whether it does. The error is a
// *SiteConflictError when another workspace owns the site. Without Own,
// Claim claims nothing.
func (d *Dir) Claim(ctx context.Context, site string) (held bool, err error) {
	if d.owner == nil || !d.HoldsSite(site) {
		return false, nil
	}
	return true, d.claim(ctx, site)
}

// claim gives site to the directory's workspace, unless done before.
func (d *Dir) claim(ctx context.Context, site string) error {
	o := d.owner
	if o == nil {
		return nil
	}
	o.mu.Lock()
	done := o.claimed[site]
	o.mu.Unlock()
	if done {
		return nil
	}
	owner, err := o.sites.ClaimSite(ctx, site, o.workspace, d.now())
	if err != nil {
		return fmt.Errorf("claiming site %s for workspace %s: %w", site, o.workspace, err)
	}
	if owner != o.workspace {
		return &SiteConflictError{Site: site, Owner: owner, Workspace: o.workspace}
	}
	o.mu.Lock()
	o.claimed[site] = true
	o.mu.Unlock()
	return nil
}
