package console

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	gomail "github.com/wneessen/go-mail"

	"github.com/hubform/hubform/handlers/hub"
)

// errNoMailer means the hub sends no e-mail (no --smtp-url).
var errNoMailer = errors.New("the hub sends no e-mail (--smtp-url)")

// send e-mails a plain text to the address to, within 30 seconds.
func (con *Console) send(ctx context.Context, to, subject, body string) error {
	if con.cfg.Mailer == nil {
		return errNoMailer
	}
	m := gomail.NewMsg()
	if err := errors.Join(m.From(con.cfg.MailFrom), m.To(to)); err != nil {
		return err
	}
	m.Subject(subject)
	m.SetBodyString(gomail.TypeTextPlain, body)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return con.cfg.Mailer.Send(ctx, m)
}

// sendLater sends as send does, for a request answered already, whose
// answer must not tell whether mail went out: a failure goes to the log.
func (con *Console) sendLater(ctx context.Context, to, subject, body string) {
	if err := con.send(ctx, to, subject, body); err != nil {
		con.cfg.Logger.ErrorContext(ctx, "an e-mail was not sent", slog.String("subject", subject), slog.Any("error", err))
	}
}

// limit counts an attempt of kind from the request's client and, unless it
// is empty, for email, and returns how long to wait when either is over its
// limit, with Retry-After set.
func (con *Console) limit(c echo.Context, kind, email string) (time.Duration, error) {
	type budget struct {
		key string
		n   int
	}
	budgets := []budget{{kind + " address " + c.RealIP(), con.cfg.AddressLimit}}
	if email != "" {
		budgets = append(budgets, budget{kind + " account " + email, con.cfg.AccountLimit})
	}
	now := con.cfg.Now()
	for _, b := range budgets {
		ok, retry, err := con.cfg.Limiter.Allow(c.Request().Context(), b.key, b.n, LimitWindow, now)
		if err != nil {
			return 0, hub.Internal("counting an attempt", err)
		}
		if !ok {
			c.Response().Header().Set("Retry-After", strconv.Itoa(int((retry+time.Second-1)/time.Second)))
			return max(retry, time.Second), nil
		}
	}
	return 0, nil
}
