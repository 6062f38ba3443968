package handlers

import (
	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/hubclient"
)

// visitor returns the address of the visitor who posted, for the hub to
// count, check and record instead of the app's: Config.VisitorAddr's
// answer when set; else c.RealIP() when the host's Echo has an
// IPExtractor, which then says whom to believe; else the address of the
// socket. Without an extractor Echo's RealIP would believe the visitor's
// own X-Forwarded-For or X-Real-IP, so headers are never read here.
func (h *Handler) visitor(c echo.Context) string {
	if h.cfg.VisitorAddr != nil {
		return h.cfg.VisitorAddr(c.Request())
	}
	if c.Echo().IPExtractor != nil {
		return c.RealIP()
	}
	return echo.ExtractIPDirect()(c.Request())
}

// clientFor returns a copy of the client of reg's hub that names the
// visitor who sent c's request (hubclient.Client.Visitor), for the calls
// made in that visitor's name.
func (h *Handler) clientFor(c echo.Context, reg registered) *hubclient.Client {
	client := *reg.client
	client.Visitor = h.visitor(c)
	return &client
}
