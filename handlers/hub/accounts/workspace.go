package accounts

import (
	"fmt"
	"time"
)

// DefaultWorkspace is the workspace that holds what a hub held before it
// had workspaces, and the forms directory's sites unless the hub is told
// otherwise.
const DefaultWorkspace = "default"

// Workspace is a group of people who own sites, and so the forms,
// submissions, files and deliveries of those sites.
type Workspace struct {
	Name      string
	CreatedAt time.Time
	// Members and Sites are counts, filled in by listings.
	Members, Sites int
	Quota          Quota
}

// Quota limits what a workspace takes: submissions a calendar month (UTC)
// and bytes of files stored, zero for no limit; and e-mails the hub sends
// on its behalf a day (UTC), zero for DefaultMailPerDay.
type Quota struct {
	SubmissionsPerMonth int64
	StoredBytes         int64
	MailPerDay          int64
}

// DefaultMailPerDay is how many e-mails a day the hub sends on behalf of a
// workspace whose quota sets none: notifications, confirmations, requests
// to confirm an address and draft links together.
const DefaultMailPerDay = 500

// MailLimit returns how many e-mails a day the hub sends on the
// workspace's behalf.
func (q Quota) MailLimit() int64 {
	if q.MailPerDay > 0 {
		return q.MailPerDay
	}
	return DefaultMailPerDay
}

// Unlimited reports whether q limits neither submissions nor stored bytes.
func (q Quota) Unlimited() bool { return q.SubmissionsPerMonth == 0 && q.StoredBytes == 0 }

// Usage is what a workspace has taken: submissions this month, bytes of
// files stored.
type Usage struct {
	Submissions int64
	StoredBytes int64
}

// Over reports whether u has reached q, taking bytes more.
func (q Quota) Over(u Usage, bytes int64) bool {
	return q.SubmissionsPerMonth > 0 && u.Submissions >= q.SubmissionsPerMonth ||
		q.StoredBytes > 0 && u.StoredBytes+bytes > q.StoredBytes
}

// MonthStart returns the start of t's calendar month, in UTC: the month a
// quota of submissions counts.
func MonthStart(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// ValidWorkspaceName reports whether s can name a workspace: the same
// characters as a token's name.
func ValidWorkspaceName(s string) bool { return ValidTokenName(s) }

// Role is what a member of a workspace may do. Each role may do all that
// the roles below it may.
type Role string

// Roles, from the least allowed.
const (
	// Viewer reads forms, and reads and exports submissions.
	Viewer Role = "viewer"
	// Editor also builds, saves, publishes and rolls back forms, manages
	// submissions and retries deliveries.
	Editor Role = "editor"
	// Admin also manages the workspace's members, tokens and settings.
	Admin Role = "admin"
)

// rank orders the roles; 0 is no role.
func (r Role) rank() int {
	switch r {
	case Viewer:
		return 1
	case Editor:
		return 2
	case Admin:
		return 3
	}
	return 0
}

// Allows reports whether a member of role r may do what needs role need.
func (r Role) Allows(need Role) bool { return r.rank() > 0 && r.rank() >= need.rank() }

// Article returns the role with its article: "an admin", "an editor", "a
// viewer".
func (r Role) Article() string {
	if r == Viewer {
		return "a viewer"
	}
	return "an " + string(r)
}

// ParseRole returns the role s names.
func ParseRole(s string) (Role, error) {
	if r := Role(s); r.rank() > 0 {
		return r, nil
	}
	return "", fmt.Errorf("%q is not a role: want admin, editor or viewer", s)
}

// Member is a user's membership of a workspace.
type Member struct {
	Workspace string
	Email     string
	Role      Role
	CreatedAt time.Time
}

// Scope is what an API token may do.
type Scope string

// Scopes of API tokens.
const (
	// ScopeAll lets a workspace's token do whatever an admin of the
	// workspace may do through the API.
	ScopeAll Scope = "all"
	// ScopeForms lets a workspace's token read, push and publish forms.
	ScopeForms Scope = "forms"
	// ScopeSubmissionsRead lets a workspace's token read and export
	// submissions, and nothing else.
	ScopeSubmissionsRead Scope = "submissions:read"
	// ScopeCounts lets a workspace's token send the counts of its forms'
	// funnels that an app aggregates from its visitors (the events route),
	// beyond what one anonymous client may send, and nothing else.
	ScopeCounts Scope = "counts:write"
	// ScopeMetrics is the scope of a hub-wide token, which belongs to no
	// workspace and may read /metrics alone.
	ScopeMetrics Scope = "metrics"
)

// ParseScope returns the scope s names.
func ParseScope(s string) (Scope, error) {
	switch sc := Scope(s); sc {
	case ScopeAll, ScopeForms, ScopeSubmissionsRead, ScopeCounts, ScopeMetrics:
		return sc, nil
	}
	return "", fmt.Errorf("%q is not a scope: want all, forms, submissions:read, counts:write or metrics", s)
}

// Allows reports whether a token of scope s may do what needs scope need.
// All covers forms, submissions:read and counts:write; metrics covers
// only itself.
func (s Scope) Allows(need Scope) bool {
	if s == need {
		return true
	}
	return s == ScopeAll && need != ScopeMetrics
}
