package console

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/delivery"
	"github.com/hubform/hubform/handlers/hub/delivery/chat"
)

// The Settings tab's team chats: each submission posted to Slack,
// Discord, Microsoft Teams or Google Chat. A chat is added by pasting the
// incoming webhook's address the chat gives, which says which chat it is;
// the address is a secret of the form's file, shown to the workspace's
// admins alone, and never in a message or a log. "Send a test message"
// posts a sample to one chat and shows the chat's answer.

// ChatTester sends a form's test message to one of its chats, as
// delivery.Queue does.
type ChatTester interface {
	TestChat(ctx context.Context, form *hub.Form, d hub.Destination) (string, error)
}

// sessionChatTest is the session key the answer of a test message waits
// under for the next page.
const sessionChatTest = "chatTest"

// chatTestResult is a test message's outcome, as the Settings tab shows
// it beside its chat.
type chatTestResult struct {
	N      int    `json:"n"`
	Answer string `json:"answer"`
	OK     bool   `json:"ok"`
}

// destinationPath is where a form's n-th chat is sent a test message.
func destinationTestPath(site, slug string, n int) string {
	return settingsPath(site, slug) + "/destinations/" + strconv.Itoa(n) + "/test"
}

// destinations returns the form's chats, or a problem when the file's
// cannot be read.
func (d *formFile) destinations() ([]hub.Destination, error) {
	var ds []hub.Destination
	if raw, ok := d.Hub["destinations"]; ok && json.Unmarshal(raw, &ds) != nil {
		return nil, problem("hub.destinations", "the team chats cannot be read: fix them in the JSON file")
	}
	return ds, nil
}

// editDestinations removes the chats whose box "Remove" was checked and
// adds the posted address, whose chat it recognises.
func editDestinations(d *formFile, form url.Values) error {
	ds, err := d.destinations()
	if err != nil {
		return err
	}
	var kept []hub.Destination
	for i, dest := range ds {
		if !slices.Contains(form["destinationRemove"], strconv.Itoa(i)) {
			kept = append(kept, dest)
		}
	}
	if raw := strings.TrimSpace(form.Get("destinationURL")); raw != "" {
		if err := checkChatURL(raw); err != nil {
			return err
		}
		kept = append(kept, hub.Destination{URL: raw})
	}
	d.setHub("destinations", kept, len(kept) == 0)
	return nil
}

// checkChatURL refuses an address that is no chat's incoming webhook, or
// of a private network. Its messages never repeat the address.
func checkChatURL(raw string) error {
	const at = "hub.destinationURL"
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return problem(at, "paste the whole address the chat gives, starting with https://")
	}
	if _, err := chat.Recognise(raw); err != nil {
		return problem(at, "this is not the address of a Slack, Discord, Microsoft Teams or Google Chat incoming webhook; for any other receiver add a webhook above")
	}
	if delivery.IsPrivateHost(u.Hostname()) {
		return problem(at, "the address is of a private network, which the hub sends nothing to")
	}
	return nil
}

// destinationRow is a chat as the Settings tab lists it.
type destinationRow struct {
	// Name is the chat's ("Slack").
	Name string
	// Where is the host it posts to, or for a member who may not read
	// the file's secrets a word that it is hidden.
	Where string
}

// chatRows are the chats of the form file body as the settings list
// them: never a URL, which carries the chat's token, and for a member who
// may not read the file's secrets not even its host. They are read before
// the page hides the file's secrets, which would hide which chat each is.
func chatRows(body []byte, secrets bool) []destinationRow {
	d := decodeFormFile(body)
	if d == nil {
		return nil
	}
	ds, _ := d.destinations()
	var out []destinationRow
	for _, dest := range ds {
		row := destinationRow{Name: "A chat", Where: "its address is shown to the workspace's admins"}
		if kind, err := chat.Resolve(dest.Kind, dest.URL); err == nil {
			row.Name = kind.Name()
		}
		if secrets {
			row.Where = hub.RedactURL(dest.URL)
		}
		out = append(out, row)
	}
	return out
}

// testDestination sends the n-th chat of the form's newest version a test
// message, keeps the chat's answer for the Settings tab and goes back
// there.
func (con *Console) testDestination(c echo.Context) error {
	site, slug := c.Param("site"), c.Param("slug")
	p, err := con.loadNewest(c, viewSettings)
	if err != nil {
		return err
	}
	// The draft's chats, whether or not the rest of it is ready to
	// publish.
	d := decodeFormFile([]byte(p.Body))
	var ds []hub.Destination
	if d != nil {
		ds, _ = d.destinations()
	}
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n < 0 || n >= len(ds) {
		return echo.NewHTTPError(http.StatusNotFound, "This form has no such chat.")
	}
	f := &hub.Form{Site: site, Slug: slug, Schema: d.Schema}
	res := chatTestResult{N: n, OK: true}
	res.Answer, err = con.cfg.ChatTester.TestChat(c.Request().Context(), f, ds[n])
	if err != nil {
		res.OK = false
		if res.Answer == "" {
			res.Answer = chatTestFailure(err)
		}
		con.cfg.Logger.InfoContext(c.Request().Context(), "test message to a chat failed", slog.String("site", site), slog.String("form", slug),
			slog.Int("chat", n), slog.Any("error", err))
	}
	raw, _ := json.Marshal(res)
	con.sessions.Put(c.Request().Context(), sessionChatTest, string(raw))
	return c.Redirect(http.StatusSeeOther, settingsPath(site, slug)+"#destinations")
}

// chatTestFailure says why a test message did not reach its chat, when
// the chat did not answer.
func chatTestFailure(err error) string {
	if errors.Is(err, delivery.ErrPrivateAddress) {
		return "Not sent: the address is of a private network, which the hub sends nothing to."
	}
	return "Not sent: the chat could not be reached. Try again in a moment; the hub's log says why."
}

// chatTestToShow takes the answer kept for this page: shown once.
func (con *Console) chatTestToShow(c echo.Context) *chatTestResult {
	raw := con.sessions.PopString(c.Request().Context(), sessionChatTest)
	if raw == "" {
		return nil
	}
	var res chatTestResult
	if json.Unmarshal([]byte(raw), &res) != nil {
		return nil
	}
	return &res
}
