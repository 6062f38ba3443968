package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// CreateWorkspace creates the workspace name with the user of the address
// admin as its admin. The error wraps accounts.ErrExists when the
// workspace exists, and hub.ErrNotFound when no user has that address.
func (db *DB) CreateWorkspace(ctx context.Context, name, admin string, now time.Time) error {
	if !accounts.ValidWorkspaceName(name) {
		return db.errorf("create workspace: %q is not a workspace name", name)
	}
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if err := userExists(ctx, tx, admin); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx,
			`INSERT INTO workspaces (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, name, millis(now))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errors.Join(err, accounts.ErrExists)
		}
		_, err = tx.ExecContext(ctx,
			`INSERT INTO workspace_members (workspace, email, role, created_at) VALUES ($1, $2, $3, $4)`,
			name, admin, string(accounts.Admin), millis(now))
		return err
	})
	if err != nil {
		return db.errorf("create workspace %s: %w", name, err)
	}
	return nil
}

// userExists returns nil when a user has the address email, else an error
// wrapping hub.ErrNotFound.
func userExists(ctx context.Context, q querier, email string) error {
	return rowExists(ctx, q, "no user "+email, `SELECT 1 FROM users WHERE email = $1`, email)
}

// rowExists returns nil when query finds a row, else an error wrapping
// hub.ErrNotFound that says missing.
func rowExists(ctx context.Context, q querier, missing, query string, args ...any) error {
	var one int
	err := q.QueryRowContext(ctx, query, args...).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", missing, hub.ErrNotFound)
	}
	return err
}

// Workspace returns the workspace named name, without its counts, or an
// error wrapping hub.ErrNotFound.
func (db *DB) Workspace(ctx context.Context, name string) (accounts.Workspace, error) {
	var w accounts.Workspace
	var created int64
	err := db.r.QueryRowContext(ctx, `SELECT name, created_at, quota_submissions, quota_bytes, quota_mail_per_day FROM workspaces WHERE name = $1`, name).
		Scan(&w.Name, &created, &w.Quota.SubmissionsPerMonth, &w.Quota.StoredBytes, &w.Quota.MailPerDay)
	if errors.Is(err, sql.ErrNoRows) {
		return w, db.errorf("workspace %s: %w", name, hub.ErrNotFound)
	}
	if err != nil {
		return w, db.errorf("workspace %s: %w", name, err)
	}
	w.CreatedAt = fromMillis(created)
	return w, nil
}

// Workspaces returns every workspace with how many members and sites it
// has, by name.
func (db *DB) Workspaces(ctx context.Context) ([]accounts.Workspace, error) {
	out, err := queryAll(ctx, db.r, func(row scanner) (accounts.Workspace, error) {
		var w accounts.Workspace
		var created int64
		if err := row.Scan(&w.Name, &created, &w.Quota.SubmissionsPerMonth, &w.Quota.StoredBytes, &w.Quota.MailPerDay, &w.Members, &w.Sites); err != nil {
			return w, err
		}
		w.CreatedAt = fromMillis(created)
		return w, nil
	}, `SELECT w.name, w.created_at, w.quota_submissions, w.quota_bytes, w.quota_mail_per_day,
		(SELECT COUNT(*) FROM workspace_members m WHERE m.workspace = w.name),
		(SELECT COUNT(*) FROM sites s WHERE s.workspace = w.name)
		FROM workspaces w ORDER BY w.name`)
	if err != nil {
		return nil, db.errorf("workspaces: %w", err)
	}
	return out, nil
}

// SetMember makes the user of m.Email a member of m.Workspace with m.Role,
// or gives a member that role. The error wraps hub.ErrNotFound when the
// workspace or the user does not exist, and accounts.ErrLastAdmin when the
// change would leave the workspace without an admin.
func (db *DB) SetMember(ctx context.Context, m accounts.Member) error {
	if _, err := accounts.ParseRole(string(m.Role)); err != nil {
		return db.errorf("set member: %w", err)
	}
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if err := workspaceExists(ctx, tx, m.Workspace); err != nil {
			return err
		}
		if err := userExists(ctx, tx, m.Email); err != nil {
			return err
		}
		if m.Role != accounts.Admin {
			if err := keepsAnAdmin(ctx, tx, m.Workspace, m.Email); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO workspace_members (workspace, email, role, created_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (workspace, email) DO UPDATE SET role = excluded.role`,
			m.Workspace, m.Email, string(m.Role), millis(m.CreatedAt))
		return err
	})
	if err != nil {
		return db.errorf("set member %s of %s: %w", m.Email, m.Workspace, err)
	}
	return nil
}

// RemoveMember ends the membership of the user of email in workspace, and
// forgets the columns they chose for its forms (SetHiddenColumns). The
// error wraps hub.ErrNotFound when there is no such membership, and
// accounts.ErrLastAdmin when it is the workspace's last admin.
func (db *DB) RemoveMember(ctx context.Context, workspace, email string) error {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if err := keepsAnAdmin(ctx, tx, workspace, email); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM workspace_members WHERE workspace = $1 AND email = $2`, workspace, email)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errors.Join(err, hub.ErrNotFound)
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM column_choices WHERE email = $2 AND `+workspaceSites, workspace, email)
		return err
	})
	if err != nil {
		return db.errorf("remove member %s of %s: %w", email, workspace, err)
	}
	return nil
}

func workspaceExists(ctx context.Context, q querier, name string) error {
	return rowExists(ctx, q, "no workspace "+name, `SELECT 1 FROM workspaces WHERE name = $1`, name)
}

// keepsAnAdmin returns accounts.ErrLastAdmin when email is the one admin
// of workspace: a change that takes their role away would leave the
// workspace without one. A workspace that has no admin yet, as the default
// workspace of a new hub, may take members of any role.
func keepsAnAdmin(ctx context.Context, tx *sql.Tx, workspace, email string) error {
	// The workspace's row, locked, serializes the changes of its members:
	// two admins demoted at once on PostgreSQL would each see the other.
	if _, err := tx.ExecContext(ctx, `UPDATE workspaces SET name = name WHERE name = $1`, workspace); err != nil {
		return err
	}
	var admins, isAdmin int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*), COUNT(CASE WHEN email = $3 THEN 1 END) FROM workspace_members
		WHERE workspace = $1 AND role = $2`, workspace, string(accounts.Admin), email).Scan(&admins, &isAdmin)
	if err == nil && admins == 1 && isAdmin == 1 {
		return accounts.ErrLastAdmin
	}
	return err
}

// Members returns the members of workspace, by e-mail address.
func (db *DB) Members(ctx context.Context, workspace string) ([]accounts.Member, error) {
	return db.members(ctx, `SELECT workspace, email, role, created_at FROM workspace_members WHERE workspace = $1 ORDER BY email`, workspace)
}

// Memberships returns the memberships of the user of email, by workspace.
func (db *DB) Memberships(ctx context.Context, email string) ([]accounts.Member, error) {
	return db.members(ctx, `SELECT workspace, email, role, created_at FROM workspace_members WHERE email = $1 ORDER BY workspace`, email)
}

func (db *DB) members(ctx context.Context, query, arg string) ([]accounts.Member, error) {
	out, err := queryAll(ctx, db.r, func(row scanner) (accounts.Member, error) {
		var m accounts.Member
		var created int64
		if err := row.Scan(&m.Workspace, &m.Email, &m.Role, &created); err != nil {
			return m, err
		}
		m.CreatedAt = fromMillis(created)
		return m, nil
	}, query, arg)
	if err != nil {
		return nil, db.errorf("members: %w", err)
	}
	return out, nil
}

// SiteWorkspace returns the workspace that owns site, or an error wrapping
// hub.ErrNotFound when none does.
func (db *DB) SiteWorkspace(ctx context.Context, site string) (string, error) {
	var ws string
	err := db.r.QueryRowContext(ctx, `SELECT workspace FROM sites WHERE site = $1`, site).Scan(&ws)
	if errors.Is(err, sql.ErrNoRows) {
		return "", db.errorf("site %s: %w", site, hub.ErrNotFound)
	}
	if err != nil {
		return "", db.errorf("site %s: %w", site, err)
	}
	return ws, nil
}

// ClaimSite gives site to workspace when no workspace owns it, and returns
// the workspace that owns it afterwards: workspace, or the one that owned
// it already.
func (db *DB) ClaimSite(ctx context.Context, site, workspace string, now time.Time) (string, error) {
	var owner string
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO sites (site, workspace, created_at) VALUES ($1, $2, $3) ON CONFLICT (site) DO NOTHING`,
			site, workspace, millis(now)); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT workspace FROM sites WHERE site = $1`, site).Scan(&owner)
	})
	if err != nil {
		return "", db.errorf("claim site %s for %s: %w", site, workspace, err)
	}
	return owner, nil
}

// Sites returns the sites workspace owns, by name.
func (db *DB) Sites(ctx context.Context, workspace string) ([]string, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT site FROM sites WHERE workspace = $1 ORDER BY site`, workspace)
	if err != nil {
		return nil, db.errorf("sites of %s: %w", workspace, err)
	}
	sites, err := scanStrings(rows)
	if err != nil {
		return nil, db.errorf("sites of %s: %w", workspace, err)
	}
	return sites, nil
}

// SetQuota sets the quota of workspace, or returns an error wrapping
// hub.ErrNotFound.
func (db *DB) SetQuota(ctx context.Context, workspace string, q accounts.Quota) error {
	w, err := db.writer()
	if err != nil {
		return err
	}
	res, err := w.ExecContext(ctx, `UPDATE workspaces SET quota_submissions = $1, quota_bytes = $2, quota_mail_per_day = $3 WHERE name = $4`,
		max(0, q.SubmissionsPerMonth), max(0, q.StoredBytes), max(0, q.MailPerDay), workspace)
	if err != nil {
		return db.errorf("set the quota of %s: %w", workspace, err)
	}
	return db.affected(res, "set the quota of "+workspace, hub.ErrNotFound)
}

// SiteQuota returns the workspace that owns site and its quota, or an
// error wrapping hub.ErrNotFound when no workspace owns it.
func (db *DB) SiteQuota(ctx context.Context, site string) (string, accounts.Quota, error) {
	var ws string
	var q accounts.Quota
	err := db.r.QueryRowContext(ctx, `SELECT w.name, w.quota_submissions, w.quota_bytes, w.quota_mail_per_day FROM sites s JOIN workspaces w ON w.name = s.workspace
		WHERE s.site = $1`, site).Scan(&ws, &q.SubmissionsPerMonth, &q.StoredBytes, &q.MailPerDay)
	if errors.Is(err, sql.ErrNoRows) {
		return "", q, db.errorf("site %s: %w", site, hub.ErrNotFound)
	}
	if err != nil {
		return "", q, db.errorf("quota of site %s: %w", site, err)
	}
	return ws, q, nil
}

// WorkspaceUsage returns what workspace has taken: its sites' submissions
// since monthStart, and the bytes of the files they claimed and of its
// themes' pictures. Submissions
// deleted and waiting to be purged (TrashSubmissions) count for nothing,
// nor do their files, as for every other read; restored, they count again.
func (db *DB) WorkspaceUsage(ctx context.Context, workspace string, monthStart time.Time) (accounts.Usage, error) {
	var u accounts.Usage
	// The submissions deleted are few, those of the grace period, and
	// found in the partial index of deleted_at.
	err := db.r.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM submissions WHERE site IN (SELECT site FROM sites WHERE workspace = $1) AND created_at >= $2
			AND deleted_at IS NULL),
		(SELECT COALESCE(SUM(size), 0) FROM uploads WHERE site IN (SELECT site FROM sites WHERE workspace = $1) AND submission_id IS NOT NULL
			AND submission_id NOT IN (SELECT id FROM submissions WHERE deleted_at IS NOT NULL))
		+ (SELECT COALESCE(SUM(size), 0) FROM theme_images WHERE workspace = $1)`,
		workspace, millis(monthStart)).Scan(&u.Submissions, &u.StoredBytes)
	if err != nil {
		return u, db.errorf("usage of %s: %w", workspace, err)
	}
	return u, nil
}
