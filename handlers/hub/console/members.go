package console

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"
	gomail "github.com/wneessen/go-mail"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// Mailer sends e-mail, as delivery.SMTP does.
type Mailer interface {
	Send(ctx context.Context, m *gomail.Msg) error
}

// Paths of the members' pages.
const (
	membersPath     = Path + "/members"
	invitationsPath = Path + "/invitations"
)

// membersProps are what the members page shows.
type membersProps struct {
	CSRF      string
	Workspace string
	Self      string
	Members   []accounts.Member
	// Notice says what was just done; Link is an invitation's link to
	// copy, when it was not sent by e-mail.
	Notice, Error, Link string
	// Invites is whether the hub takes invitations; the invitation form
	// as typed follows.
	Invites     bool
	InviteEmail string
	InviteRole  accounts.Role
}

func (con *Console) membersPage(c echo.Context) error {
	return con.renderMembers(c, http.StatusOK, membersProps{Notice: con.sessions.PopString(c.Request().Context(), sessionNotice)})
}

func (con *Console) renderMembers(c echo.Context, status int, p membersProps) error {
	m := memberOf(c)
	members, err := con.cfg.Workspaces.Members(c.Request().Context(), m.Workspace)
	if err != nil {
		return hub.Internal("listing members", err)
	}
	p.CSRF, p.Workspace, p.Self, p.Members = con.csrfToken(c), m.Workspace, userEmail(c), members
	p.Invites = con.cfg.Signup != SignupClosed
	if p.InviteRole == "" {
		p.InviteRole = accounts.Editor
	}
	return con.render(c, status, membersPageView(p))
}

// setRole gives a member of the workspace another role.
func (con *Console) setRole(c echo.Context) error {
	ws := memberOf(c).Workspace
	email, role := c.FormValue("email"), accounts.Role(c.FormValue("role"))
	if _, err := accounts.ParseRole(string(role)); err != nil {
		return con.renderMembers(c, http.StatusUnprocessableEntity, membersProps{Error: "Choose admin, editor or viewer."})
	}
	if !con.isMember(c, ws, email) {
		return &hub.Error{Status: http.StatusNotFound, Message: "No such member of this workspace."}
	}
	err := con.cfg.Workspaces.SetMember(c.Request().Context(), accounts.Member{Workspace: ws, Email: email, Role: role, CreatedAt: con.cfg.Now()})
	if errors.Is(err, accounts.ErrLastAdmin) {
		return con.renderMembers(c, http.StatusUnprocessableEntity, membersProps{Error: email + " is the last admin of this workspace: make another member admin first."})
	}
	if err != nil {
		return hub.Internal("changing a role", err)
	}
	con.audit(c, accounts.ActionMemberSet, email, string(role))
	return con.noticeAndGo(c, membersPath, email+" is now "+role.Article()+".")
}

// removeMember ends a membership of the workspace.
func (con *Console) removeMember(c echo.Context) error {
	ws := memberOf(c).Workspace
	email := c.FormValue("email")
	if !con.isMember(c, ws, email) {
		return &hub.Error{Status: http.StatusNotFound, Message: "No such member of this workspace."}
	}
	if ok, err := con.confirmed(c, confirmation{Question: "Remove " + email + " from workspace " + ws + "?",
		Detail: "They no longer see its forms; they can be invited again.", Action: "Remove", Cancel: membersPath}); !ok {
		return err
	}
	err := con.cfg.Workspaces.RemoveMember(c.Request().Context(), ws, email)
	switch {
	case errors.Is(err, accounts.ErrLastAdmin):
		return con.renderMembers(c, http.StatusUnprocessableEntity, membersProps{Error: email + " is the last admin of this workspace: make another member admin first."})
	case errors.Is(err, hub.ErrNotFound):
		return &hub.Error{Status: http.StatusNotFound, Message: "No such member of this workspace."}
	case err != nil:
		return hub.Internal("removing a member", err)
	}
	con.audit(c, accounts.ActionMemberRemoved, email, "")
	return con.noticeAndGo(c, membersPath, email+" was removed.")
}

func (con *Console) isMember(c echo.Context, workspace, email string) bool {
	members, err := con.cfg.Workspaces.Members(c.Request().Context(), workspace)
	if err != nil {
		return false
	}
	for _, m := range members {
		if m.Email == email {
			return true
		}
	}
	return false
}

// invite invites an e-mail address to the workspace with a role: the link
// goes out by e-mail when the console has a Mailer, and is shown to copy
// otherwise, or when the e-mail could not be sent.
func (con *Console) invite(c echo.Context) error {
	if con.cfg.Signup == SignupClosed {
		return &hub.Error{Status: http.StatusForbidden, Message: "This hub takes no invitations: its operator adds people with hubform workspaces add-member."}
	}
	ctx := c.Request().Context()
	ws := memberOf(c).Workspace
	p := membersProps{InviteEmail: c.FormValue("email"), InviteRole: accounts.Role(c.FormValue("role"))}
	email, err := accounts.NormalizeEmail(p.InviteEmail)
	if err != nil {
		p.Error = "Give the e-mail address to invite, such as ann@example.com."
		return con.renderMembers(c, http.StatusUnprocessableEntity, p)
	}
	if _, err := accounts.ParseRole(string(p.InviteRole)); err != nil {
		p.Error = "Choose admin, editor or viewer."
		return con.renderMembers(c, http.StatusUnprocessableEntity, p)
	}
	// Limited as sign-ins are: an invitation sends mail to a stranger.
	if retry, err := con.limit(c, "console-invite", email); err != nil {
		return err
	} else if retry > 0 {
		p.Error = "Too many invitations. Try again in " + minutes(retry) + "."
		return con.renderMembers(c, http.StatusTooManyRequests, p)
	}
	token, now := accounts.NewLinkToken(), con.cfg.Now()
	inv := accounts.Invitation{Workspace: ws, Email: email, Role: p.InviteRole, InvitedBy: userEmail(c), CreatedAt: now, ExpiresAt: now.Add(accounts.InvitationTTL)}
	if err := con.cfg.Workspaces.CreateInvitation(ctx, accounts.HashToken(token), inv); err != nil {
		return hub.Internal("creating an invitation", err)
	}
	con.audit(c, accounts.ActionMemberInvited, email, string(p.InviteRole))
	link := con.cfg.PublicURL + invitationsPath + "/" + token
	p.InviteEmail = ""
	if con.cfg.Mailer == nil {
		p.Notice, p.Link = "The hub sends no e-mail: copy this link to "+email+". It works once, for 72 hours.", link
		return con.renderMembers(c, http.StatusOK, p)
	}
	if err := con.sendInvitation(ctx, inv, link); err != nil {
		con.cfg.Logger.ErrorContext(ctx, "invitation not sent", slog.String("email", email), slog.Any("error", err))
		p.Notice, p.Link = "The e-mail could not be sent: copy this link to "+email+". It works once, for 72 hours.", link
		return con.renderMembers(c, http.StatusOK, p)
	}
	return con.noticeAndGo(c, membersPath, "An invitation was sent to "+email+".")
}

func (con *Console) sendInvitation(ctx context.Context, inv accounts.Invitation, link string) error {
	return con.send(ctx, inv.Email, fmt.Sprintf("%s invites you to the workspace %s", inv.InvitedBy, inv.Workspace),
		fmt.Sprintf(`%s invites you to the workspace %s of a form hub, as %s.

Accept the invitation here:

%s

The link works once, until %s. If you did not expect this e-mail, ignore it.
`, inv.InvitedBy, inv.Workspace, inv.Role.Article(), link, inv.ExpiresAt.UTC().Format("2006-01-02 15:04 UTC")))
}

// invitationProps are what the page of an invitation's link shows.
type invitationProps struct {
	CSRF, Path string
	Invitation accounts.Invitation
	// NewUser is whether the invitee has no account yet, and so sets a
	// password.
	NewUser bool
	Error   string
}

// invalidInvitation answers a link that cannot be used.
var invalidInvitation = &hub.Error{Status: http.StatusNotFound,
	Message: "This invitation is not valid: it may have expired or been used already. Ask the person who invited you for a new one."}

// openInvitation returns the page of the request's invitation link.
func (con *Console) openInvitation(c echo.Context) (invitationProps, error) {
	if con.cfg.Signup == SignupClosed {
		return invitationProps{}, invalidInvitation
	}
	token := c.Param("token")
	inv, err := con.cfg.Workspaces.Invitation(c.Request().Context(), accounts.HashToken(token), con.cfg.Now())
	if errors.Is(err, hub.ErrNotFound) {
		return invitationProps{}, invalidInvitation
	}
	if err != nil {
		return invitationProps{}, hub.Internal("reading an invitation", err)
	}
	_, err = con.cfg.Users.User(c.Request().Context(), inv.Email)
	if err != nil && !errors.Is(err, hub.ErrNotFound) {
		return invitationProps{}, hub.Internal("looking up a user", err)
	}
	return invitationProps{CSRF: con.csrfToken(c), Path: invitationsPath + "/" + token, Invitation: inv, NewUser: err != nil}, nil
}

func (con *Console) invitationPage(c echo.Context) error {
	p, err := con.openInvitation(c)
	if err != nil {
		return err
	}
	return con.render(c, http.StatusOK, invitationPageView(p))
}

// acceptInvitation accepts the link's invitation: a new user sets their
// password and is signed in; one who exists joins and signs in as usual.
func (con *Console) acceptInvitation(c echo.Context) error {
	ctx := c.Request().Context()
	p, err := con.openInvitation(c)
	if err != nil {
		return err
	}
	var hash string
	if p.NewUser {
		password := c.FormValue("password")
		if err := accounts.CheckPasswordRules(password); err != nil {
			p.Error = "Choose another password: " + err.Error() + "."
			return con.render(c, http.StatusUnprocessableEntity, invitationPageView(p))
		}
		if password != c.FormValue("confirm") {
			p.Error = "The two passwords differ: type the same one twice."
			return con.render(c, http.StatusUnprocessableEntity, invitationPageView(p))
		}
		if hash, err = accounts.HashPassword(password, con.cfg.PasswordParams); err != nil {
			return hub.Internal("hashing a password", err)
		}
	}
	inv, added, err := con.cfg.Workspaces.AcceptInvitation(ctx, accounts.HashToken(c.Param("token")), hash, con.cfg.Now())
	if errors.Is(err, hub.ErrNotFound) {
		return invalidInvitation
	}
	if err != nil {
		return hub.Internal("accepting an invitation", err)
	}
	con.record(ctx, accounts.Event{Workspace: inv.Workspace, At: con.cfg.Now(), Actor: inv.Email, Action: accounts.ActionInvitationAccepted,
		Target: inv.Email, Client: c.RealIP(), Detail: string(inv.Role)})
	if !added {
		return c.Redirect(http.StatusSeeOther, SignInPath)
	}
	if err := con.startSession(c, inv.Email, inv.Workspace); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, Path)
}

// sessionNotice is the session key of a notice for the next page.
const sessionNotice = "notice"

// noticeAndGo redirects to path, whose page then shows notice: kept in the
// session, not the URL, so that no link can put words on a console page.
func (con *Console) noticeAndGo(c echo.Context, path, notice string) error {
	con.sessions.Put(c.Request().Context(), sessionNotice, notice)
	return c.Redirect(http.StatusSeeOther, path)
}
