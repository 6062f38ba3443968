package admin_test

import (
	"github.com/hubform/hubform/handlers/hub/admin"
	"github.com/hubform/hubform/handlers/hub/manage"
	"github.com/hubform/hubform/handlers/hub/privacy"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// withServices returns cfg with the services of package manage on db
// that its stores need, as hubform hub wires them: FormChanges with
// Forms, SubmissionChanges with Inbox, and Privacy on people when given.
func withServices(db *sqldb.DB, cfg admin.Config, people *privacy.People) admin.Config {
	mc := manage.Config{Sites: db, Audit: db, Logger: cfg.Logger, Now: cfg.Now}
	if cfg.Forms != nil {
		cfg.FormChanges = manage.NewForms(mc, db)
	}
	if cfg.Inbox != nil {
		cfg.SubmissionChanges = manage.NewSubmissions(mc, cfg.Inbox, db, nil)
	}
	if people != nil {
		cfg.Privacy = manage.NewPrivacy(mc, people)
	}
	return cfg
}
