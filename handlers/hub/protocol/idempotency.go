package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// keyLocks lets one submission at a time through per idempotency key in
// this process, so that a repeat sent while the first is still being
// checked waits for its outcome instead of spending the same captcha token
// a second time, which the provider would refuse. Across processes, the
// store's unique key keeps the outcome right: one submission is stored and
// the others are answered its id.
type keyLocks struct {
	mu   sync.Mutex
	held map[string]chan struct{} // closed when released
}

// lock waits until no other request holds name, then holds it until the
// returned function is called; it gives up when ctx ends.
func (l *keyLocks) lock(ctx context.Context, name string) (unlock func(), err error) {
	for {
		l.mu.Lock()
		if l.held == nil {
			l.held = make(map[string]chan struct{})
		}
		busy, ok := l.held[name]
		if !ok {
			released := make(chan struct{})
			l.held[name] = released
			l.mu.Unlock()
			return func() {
				l.mu.Lock()
				delete(l.held, name)
				l.mu.Unlock()
				close(released)
			}, nil
		}
		l.mu.Unlock()
		select {
		case <-busy:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// holdKey checks the submission's idempotency key and, when there is one,
// holds it for the rest of the request (see keyLocks). It returns the
// function that releases the key.
func (s *Server) holdKey(ctx context.Context, form *hub.Form, key string) (release func(), err error) {
	if err := hubclient.CheckIdempotencyKey(key); err != nil {
		return func() {}, hub.Errorf(http.StatusBadRequest, "bad idempotencyKey: %v", err)
	}
	if key == "" {
		return func() {}, nil
	}
	release, err = s.keys.lock(ctx, form.Site+"\x00"+form.Slug+"\x00"+key)
	if err != nil {
		return func() {}, hub.Errorf(http.StatusServiceUnavailable, "gave up waiting for the same submission sent before; try again")
	}
	return release, nil
}

// firstWithKey returns the id of the form's stored submission that carries
// the idempotency key, or "" when none does (or key is empty).
func (s *Server) firstWithKey(ctx context.Context, form *hub.Form, key string) (string, error) {
	if key == "" {
		return "", nil
	}
	id, err := s.cfg.Store.SubmissionByKey(ctx, form.Site, form.Slug, key)
	switch {
	case errors.Is(err, hub.ErrNotFound):
		return "", nil
	case err != nil:
		return "", hub.Internal("looking up the idempotency key", err)
	}
	return id, nil
}

// repeatOr answers a submission whose idempotency key a stored submission
// of the form already carries as that one was answered, {ok:true,
// submissionId}; for any other it returns failure.
func (s *Server) repeatOr(c echo.Context, form *hub.Form, key string, failure error) error {
	id, err := s.firstWithKey(c.Request().Context(), form, key)
	switch {
	case err != nil:
		return err
	case id != "":
		return s.answerRepeat(c, form, id)
	}
	return failure
}

// answerRepeat answers a repeated submission with the id of the first,
// and the ending it reached, when the store reads it back: the visitor
// sees the same end however often the form was sent.
func (s *Server) answerRepeat(c echo.Context, form *hub.Form, id string) error {
	ctx := c.Request().Context()
	s.cfg.Logger.LogAttrs(ctx, slog.LevelInfo, "repeated submission answered with the stored one",
		slog.String("site", form.Site), slog.String("form", form.Slug), slog.String("submission", id))
	var ending string
	if r, ok := s.cfg.Store.(hub.EndingReader); ok && form.Schema != nil && len(form.Schema.Endings) > 0 {
		var err error
		if ending, err = r.SubmissionEnding(ctx, form.Site, form.Slug, id); err != nil {
			// The submission is stored: the visitor sees the thank-you
			// panel rather than an error.
			s.cfg.Logger.Warn("reading the ending of a repeated submission", slog.String("submission", id), slog.Any("error", err))
		}
	}
	res := hubclient.SubmitResponse{OK: true, SubmissionID: id, Ending: ending}
	s.repeatQuiz(c, form, &res)
	return c.JSON(http.StatusOK, res)
}

// submissionReader is a Store that reads a stored submission back
// (sqldb.DB).
type submissionReader interface {
	Submission(ctx context.Context, id string) (hub.Submission, error)
}

// repeatQuiz gives the answer to a repeated submission of a quiz the
// score and answers of the first, as stored.
func (s *Server) repeatQuiz(c echo.Context, form *hub.Form, res *hubclient.SubmitResponse) {
	r, ok := s.cfg.Store.(submissionReader)
	if !ok || form.Schema == nil || form.Schema.Quiz == nil {
		return
	}
	sub, err := r.Submission(c.Request().Context(), res.SubmissionID)
	var payload map[string]any
	if err == nil {
		err = json.Unmarshal(sub.Payload, &payload)
	}
	if err != nil || sub.Site != form.Site || sub.Slug != form.Slug {
		// The submission is stored: the visitor sees the ending without
		// the score rather than an error.
		s.cfg.Logger.Warn("reading the score of a repeated submission", slog.String("submission", res.SubmissionID), slog.Any("error", err))
		return
	}
	res.Score, res.Answers = hub.QuizOf(form.Schema, payload, sub.Calculations)
}
