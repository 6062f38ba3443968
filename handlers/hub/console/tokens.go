package console

import (
	"context"
	"errors"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// Tokens keeps the API tokens, as sqldb.DB does.
type Tokens interface {
	CreateToken(ctx context.Context, t accounts.Token) error
	// Tokens returns the tokens of a workspace.
	Tokens(ctx context.Context, workspace string) ([]accounts.Token, error)
	RevokeToken(ctx context.Context, name string) error
}

const tokensPath = Path + "/tokens"

// tokensProps are what the tokens page shows.
type tokensProps struct {
	CSRF, Workspace string
	Tokens          []accounts.Token
	// Created is a token just made, shown this once.
	Created, CreatedName string
	Notice, Error        string
	Name                 string
	Scope                accounts.Scope
}

// tokenScopes are the scopes a workspace's token may have.
var tokenScopes = []accounts.Scope{accounts.ScopeAll, accounts.ScopeForms, accounts.ScopeSubmissionsRead, accounts.ScopeCounts}

func (con *Console) tokensPage(c echo.Context) error {
	return con.renderTokens(c, http.StatusOK, tokensProps{Notice: con.sessions.PopString(c.Request().Context(), sessionNotice)})
}

func (con *Console) renderTokens(c echo.Context, status int, p tokensProps) error {
	ws := memberOf(c).Workspace
	tokens, err := con.cfg.Tokens.Tokens(c.Request().Context(), ws)
	if err != nil {
		return hub.Internal("listing tokens", err)
	}
	p.CSRF, p.Workspace, p.Tokens = con.csrfToken(c), ws, tokens
	if p.Scope == "" {
		p.Scope = accounts.ScopeSubmissionsRead
	}
	return con.render(c, status, tokensPageView(p))
}

// createToken makes an API token of the workspace and shows it once.
func (con *Console) createToken(c echo.Context) error {
	p := tokensProps{Name: c.FormValue("name"), Scope: accounts.Scope(c.FormValue("scope"))}
	if !accounts.ValidTokenName(p.Name) {
		p.Error = "Name the token with 1 to 64 letters, digits, '.', '_' or '-'."
		return con.renderTokens(c, http.StatusUnprocessableEntity, p)
	}
	if !slices.Contains(tokenScopes, p.Scope) {
		p.Error = "Choose all, forms, submissions:read or counts:write."
		return con.renderTokens(c, http.StatusUnprocessableEntity, p)
	}
	secret := accounts.NewToken()
	err := con.cfg.Tokens.CreateToken(c.Request().Context(), accounts.Token{Name: p.Name, Hash: accounts.HashToken(secret),
		CreatedAt: con.cfg.Now(), Workspace: memberOf(c).Workspace, Scope: p.Scope})
	if errors.Is(err, accounts.ErrExists) {
		p.Error = "A token of this name exists on the hub: choose another."
		return con.renderTokens(c, http.StatusUnprocessableEntity, p)
	}
	if err != nil {
		return hub.Internal("creating a token", err)
	}
	con.audit(c, accounts.ActionTokenCreated, "token "+p.Name, "scope "+string(p.Scope))
	return con.renderTokens(c, http.StatusOK, tokensProps{Created: secret, CreatedName: p.Name})
}

// revokeToken revokes a token of the workspace; another's is 404.
func (con *Console) revokeToken(c echo.Context) error {
	ctx := c.Request().Context()
	name := c.FormValue("name")
	tokens, err := con.cfg.Tokens.Tokens(ctx, memberOf(c).Workspace)
	if err != nil {
		return hub.Internal("listing tokens", err)
	}
	if !slices.ContainsFunc(tokens, func(t accounts.Token) bool { return t.Name == name }) {
		return &hub.Error{Status: http.StatusNotFound, Message: "No such token in this workspace."}
	}
	if ok, err := con.confirmed(c, confirmation{Question: "Revoke the token " + name + "?",
		Detail: "Scripts that use it are refused from then on. This cannot be undone.", Action: "Revoke", Cancel: tokensPath}); !ok {
		return err
	}
	if err := con.cfg.Tokens.RevokeToken(ctx, name); err != nil && !errors.Is(err, hub.ErrNotFound) {
		return hub.Internal("revoking a token", err)
	}
	con.audit(c, accounts.ActionTokenRevoked, "token "+name, "")
	return con.noticeAndGo(c, tokensPath, "The token "+name+" was revoked.")
}
