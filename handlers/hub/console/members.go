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
	"github.com/hubform/hubform/handlers/hub/manage"
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
	members, err := con.cfg.Members.List(c.Request().Context(), actorOf(c))
	if err != nil {
		return err
	}
	p.CSRF, p.Workspace, p.Self, p.Members = con.csrfToken(c), memberOf(c).Workspace, userEmail(c), members
	p.Invites = con.cfg.Signup != SignupClosed
	if p.InviteRole == "" {
		p.InviteRole = accounts.Editor
	}
	return con.render(c, status, membersPageView(p))
}

// setRole gives a member of the workspace another role.
func (con *Console) setRole(c echo.Context) error {
	email, role := c.FormValue("email"), accounts.Role(c.FormValue("role"))
	if _, err := accounts.ParseRole(string(role)); err != nil {
		return con.renderMembers(c, http.StatusUnprocessableEntity, membersProps{Error: "Choose admin, editor or viewer."})
	}
	err := con.cfg.Members.SetRole(c.Request().Context(), actorOf(c), email, role)
	if errors.Is(err, accounts.ErrLastAdmin) {
		return con.renderMembers(c, http.StatusUnprocessableEntity, membersProps{Error: email + " is the last admin of this workspace: make another member admin first."})
	}
	if err != nil {
		return err
	}
	return con.noticeAndGo(c, membersPath, email+" is now "+role.Article()+".")
}

// removeMember ends a membership of the workspace.
func (con *Console) removeMember(c echo.Context) error {
	ws := memberOf(c).Workspace
	email := c.FormValue("email")
	if _, err := con.cfg.Members.Member(c.Request().Context(), actorOf(c), email); err != nil {
		return err
	}
	if ok, err := con.confirmed(c, confirmation{Question: "Remove " + email + " from workspace " + ws + "?",
		Detail: "They no longer see its forms; they can be invited again.", Action: "Remove", Cancel: membersPath}); !ok {
		return err
	}
	err := con.cfg.Members.Remove(c.Request().Context(), actorOf(c), email)
	if errors.Is(err, accounts.ErrLastAdmin) {
		return con.renderMembers(c, http.StatusUnprocessableEntity, membersProps{Error: email + " is the last admin of this workspace: make another member admin first."})
	}
	if err != nil {
		return err
	}
	return con.noticeAndGo(c, membersPath, email+" was removed.")
}

// invite invites an e-mail address to the workspace with a role: the link
// goes out by e-mail when the console has a Mailer, and is shown to copy
// otherwise, or when the e-mail could not be sent.
func (con *Console) invite(c echo.Context) error {
	if con.cfg.Signup == SignupClosed {
		return &hub.Error{Status: http.StatusForbidden, Message: "This hub takes no invitations: its operator adds people with hubform workspaces add-member."}
	}
	ctx := c.Request().Context()
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
	// An invitation that would take the workspace's last admin their role
	// could never be accepted: refused now, with the reason.
	inv, token, err := con.cfg.Invitations.Create(ctx, actorOf(c), email, p.InviteRole)
	if errors.Is(err, accounts.ErrLastAdmin) {
		p.Error = email + " is the last admin of this workspace: make another member admin first."
		return con.renderMembers(c, http.StatusUnprocessableEntity, p)
	}
	if err != nil {
		return err
	}
	link := con.cfg.PublicURL + invitationsPath + "/" + token
	p.InviteEmail = ""
	if con.cfg.Mailer == nil {
		p.Notice, p.Link = "The hub sends no e-mail: copy this link to "+email+". It works once, for 72 hours. "+shownLinkNote, link
		return con.renderMembers(c, http.StatusOK, p)
	}
	if err := con.sendInvitation(ctx, inv, link); err != nil {
		con.cfg.Logger.ErrorContext(ctx, "invitation not sent", slog.String("email", email), slog.Any("error", err))
		p.Notice, p.Link = "The e-mail could not be sent: copy this link to "+email+". It works once, for 72 hours. "+shownLinkNote, link
		return con.renderMembers(c, http.StatusOK, p)
	}
	// Mailed, and never shown: the link now proves the address to whoever
	// opens it. Not recorded, it counts as shown, which proves nothing.
	if err := con.cfg.Invitations.Mailed(ctx, actorOf(c), token); err != nil {
		return err
	}
	return con.noticeAndGo(c, membersPath, "An invitation was sent to "+email+".")
}

// shownLinkNote says what a link shown, not mailed, cannot do.
const shownLinkNote = "A link not mailed proves nothing of the address: an account it makes reaches this workspace alone, and one made elsewhere that way joins only once its address is proved."

func (con *Console) sendInvitation(ctx context.Context, inv accounts.Invitation, link string) error {
	return con.send(ctx, inv.Email, fmt.Sprintf("%s invites you to the workspace %s", inv.InvitedBy, inv.Workspace),
		fmt.Sprintf(`%s invites you to the workspace %s of a form hub, as %s.

Accept the invitation here:

%s

The link works once, until %s. If you did not expect this e-mail, ignore it.
`, inv.InvitedBy, inv.Workspace, inv.Role.Article(), link, inv.ExpiresAt.UTC().Format("2006-01-02 15:04 UTC")))
}

// invitationStep is what the visitor of an invitation's link may do.
type invitationStep int

const (
	// inviteNewUser: no user has the address; the visitor chooses the
	// password of the new account.
	inviteNewUser invitationStep = iota
	// inviteJoin: the visitor is signed in as the invitee, whose address
	// is proved, and joins.
	inviteJoin
	// inviteSignIn: the invitee has an account and the visitor is not
	// signed in as them: nothing is granted until they are.
	inviteSignIn
	// inviteReclaim: nobody proved the invitee's address, and the link,
	// mailed to it, proves it: the visitor sets a new password, which
	// replaces the one whoever made the account chose.
	inviteReclaim
	// inviteUnproved: nobody proved the invitee's address, and the link
	// was only shown to the inviting admin: it grants nothing.
	inviteUnproved
)

// invitationProps are what the page of an invitation's link shows.
type invitationProps struct {
	CSRF, Path string
	Invitation accounts.Invitation
	Step       invitationStep
	// SignedInAs is the address the visitor is signed in as, empty when
	// none.
	SignedInAs string
	// Mailer is whether the hub sends e-mail, and so reset links.
	Mailer bool
	Error  string
}

// SetsPassword is whether the visitor chooses a password.
func (p invitationProps) SetsPassword() bool {
	return p.Step == inviteNewUser || p.Step == inviteReclaim
}

// CanAccept is whether the page offers to accept.
func (p invitationProps) CanAccept() bool { return p.SetsPassword() || p.Step == inviteJoin }

// invalidInvitation answers a link that cannot be used.
var invalidInvitation = &hub.Error{Status: http.StatusNotFound,
	Message: "This invitation is not valid: it may have expired or been used already. Ask the person who invited you for a new one."}

// openInvitation returns the page of the request's invitation link: what
// its visitor may do depends on who has the address, whether it is
// proved, and whom the visitor is signed in as.
func (con *Console) openInvitation(c echo.Context) (invitationProps, error) {
	if con.cfg.Signup == SignupClosed {
		return invitationProps{}, invalidInvitation
	}
	ctx := c.Request().Context()
	token := c.Param("token")
	inv, err := con.cfg.Workspaces.Invitation(ctx, accounts.HashToken(token), con.cfg.Now())
	if errors.Is(err, hub.ErrNotFound) {
		return invitationProps{}, invalidInvitation
	}
	if err != nil {
		return invitationProps{}, hub.Internal("reading an invitation", err)
	}
	p := invitationProps{CSRF: con.csrfToken(c), Path: invitationsPath + "/" + token, Invitation: inv, Mailer: con.cfg.Mailer != nil}
	if p.SignedInAs, err = con.signedInAs(c); err != nil {
		return p, err
	}
	u, err := con.cfg.Users.User(ctx, inv.Email)
	switch {
	case errors.Is(err, hub.ErrNotFound):
		p.Step = inviteNewUser
	case err != nil:
		return p, hub.Internal("looking up a user", err)
	case !u.Proved() && inv.Mailed:
		p.Step = inviteReclaim
	case !u.Proved():
		p.Step = inviteUnproved
	case p.SignedInAs == inv.Email:
		p.Step = inviteJoin
	default:
		p.Step = inviteSignIn
	}
	return p, nil
}

// signedInAs returns the address the request's session is signed in as,
// or "" when none: on a public route, which requireUser did not check.
func (con *Console) signedInAs(c echo.Context) (string, error) {
	ctx := c.Request().Context()
	email := con.sessions.GetString(ctx, sessionUser)
	if email == "" {
		return "", nil
	}
	err := con.cfg.Users.TouchUserSession(ctx, con.sessions.GetString(ctx, sessionID), email, con.cfg.Now())
	if errors.Is(err, hub.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", hub.Internal("looking up the session", err)
	}
	return email, nil
}

func (con *Console) invitationPage(c echo.Context) error {
	p, err := con.openInvitation(c)
	if err != nil {
		return err
	}
	return con.render(c, http.StatusOK, invitationPageView(p))
}

// acceptInvitation accepts the link's invitation: a new user sets their
// password and is signed in; one whose address the mailed link proves sets
// a new password, which replaces the old one, and is signed in; one who
// exists joins only signed in as themselves. Anyone else is told what to
// do, and nothing is granted.
func (con *Console) acceptInvitation(c echo.Context) error {
	ctx := c.Request().Context()
	p, err := con.openInvitation(c)
	if err != nil {
		return err
	}
	if !p.CanAccept() {
		return con.render(c, http.StatusForbidden, invitationPageView(p))
	}
	var hash string
	if p.SetsPassword() {
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
	inv, setPassword, err := con.cfg.Invitations.Accept(ctx, manage.Invitee{SignedInAs: p.SignedInAs, PasswordHash: hash,
		Reclaim: p.Step == inviteReclaim, Client: c.RealIP()}, c.Param("token"))
	switch {
	case errors.Is(err, hub.ErrNotFound):
		return invalidInvitation
	case errors.Is(err, accounts.ErrLastAdmin):
		return &hub.Error{Status: http.StatusConflict, Message: fmt.Sprintf(
			"This invitation would make %s, the last admin of workspace %s, %s: a workspace keeps at least one admin. Make another member admin first.",
			p.Invitation.Email, p.Invitation.Workspace, p.Invitation.Role.Article())}
	case errors.Is(err, accounts.ErrNotInvitee), errors.Is(err, accounts.ErrUnproved):
		// The account changed since the page was read: the page says what
		// holds now.
		return &hub.Error{Status: http.StatusConflict, Message: "This invitation cannot be accepted this way any more: open its link again."}
	case err != nil:
		return hub.Internal("accepting an invitation", err)
	}
	if !setPassword {
		// Joined by their own choice: they work in it from now.
		con.sessions.Put(ctx, sessionWorkspace, inv.Workspace)
		return c.Redirect(http.StatusSeeOther, Path)
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
