package console

import (
	"errors"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub/accounts"
)

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
	tokens, err := con.cfg.Tokens.List(c.Request().Context(), actorOf(c))
	if err != nil {
		return err
	}
	p.CSRF, p.Workspace, p.Tokens = con.csrfToken(c), memberOf(c).Workspace, tokens
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
	secret, err := con.cfg.Tokens.Create(c.Request().Context(), actorOf(c), p.Name, p.Scope)
	if errors.Is(err, accounts.ErrExists) {
		p.Error = "A token of this name exists on the hub: choose another."
		return con.renderTokens(c, http.StatusUnprocessableEntity, p)
	}
	if err != nil {
		return err
	}
	return con.renderTokens(c, http.StatusOK, tokensProps{Created: secret, CreatedName: p.Name})
}

// revokeToken revokes a token of the workspace; another's is 404.
func (con *Console) revokeToken(c echo.Context) error {
	ctx := c.Request().Context()
	name := c.FormValue("name")
	if _, err := con.cfg.Tokens.Token(ctx, actorOf(c), name); err != nil {
		return err
	}
	if ok, err := con.confirmed(c, confirmation{Question: "Revoke the token " + name + "?",
		Detail: "Scripts that use it are refused from then on. This cannot be undone.", Action: "Revoke", Cancel: tokensPath}); !ok {
		return err
	}
	if err := con.cfg.Tokens.Revoke(ctx, actorOf(c), name); err != nil {
		return err
	}
	return con.noticeAndGo(c, tokensPath, "The token "+name+" was revoked.")
}
