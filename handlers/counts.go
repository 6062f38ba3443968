package handlers

import (
	"context"
	"errors"
	"math"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// Counter counts the events of forms' funnels: views, starts and steps
// reached (hubclient.EventView and the others). Counts only: nothing of
// the visitor. The hub's funnel.Counter is one.
type Counter interface {
	Count(site, slug, event, step string, n int64)
}

// CountedField is the hidden input that marks a form whose start and
// steps were counted already (components.CountedField).
const CountedField = components.CountedField

// Limits of counting in the app.
const (
	// DefaultCountInterval is how often counts go to the hubs.
	DefaultCountInterval = 10 * time.Second
	// maxPendingCounts bounds the counts an app holds for hubs that do not
	// answer: beyond, new ones are dropped.
	maxPendingCounts = 10_000
	// maxCountedPosts is how many renderings posted without JavaScript the
	// app remembers, so that a post sent again is not counted again.
	maxCountedPosts   = 4096
	sendCountsTimeout = 10 * time.Second
	// maxAnonymousPosts is how many posts of counts without a token go to
	// one hub each CountInterval at the most: a hub takes its rate limit's
	// posts a minute (60 by default) from the app's address, counted
	// apart from the submissions.
	maxAnonymousPosts = 10
)

// count counts n events of f, unless counting is off.
func (h *Handler) count(f Form, event, step string) {
	if h.counter != nil {
		h.counter.Count(f.Site, f.Slug, event, step, 1)
	}
}

// countView counts a form shown to a visitor: one that takes
// submissions.
func (h *Handler) countView(f Form, schema *hubclient.Schema) {
	if schema.Configured() && !schema.Meta.Closed {
		h.count(f, hubclient.EventView, "")
	}
}

// event counts a visitor's start or a step reached, which hubform.js
// sends as they happen.
func (h *Handler) event(c echo.Context) error {
	r := c.Request()
	f := formOf(c)
	limitBody(c, 4<<10)
	if err := r.ParseForm(); err != nil {
		return c.NoContent(statusOf(err))
	}
	event, step := r.PostForm.Get("event"), r.PostForm.Get("step")
	switch event {
	case hubclient.EventStart:
		step = ""
	case hubclient.EventStep:
		schema, err := h.cache.get(r.Context(), h.form(f).client, f.Site, f.Slug)
		if err != nil || schema.Step(step) == nil {
			return c.NoContent(http.StatusBadRequest)
		}
	default:
		return c.NoContent(http.StatusBadRequest)
	}
	h.count(f, event, step)
	return c.NoContent(http.StatusNoContent)
}

// countPost counts the start and the steps of a post sent without
// hubform.js, which shows every step at once: once per rendering.
func (h *Handler) countPost(f Form, schema *hubclient.Schema, rendering string, r *http.Request) {
	if h.counter == nil || r.PostFormValue(CountedField) != "" || rendering == "" || !h.posts.first(rendering) {
		return
	}
	h.count(f, hubclient.EventStart, "")
	for i, st := range schema.Steps {
		if i > 0 {
			h.count(f, hubclient.EventStep, st.ID)
		}
	}
}

// seenPosts remembers the latest renderings posted without JavaScript.
type seenPosts struct {
	mu    sync.Mutex
	seen  map[string]bool
	order []string
}

// first reports whether rendering is posted for the first time.
func (s *seenPosts) first(rendering string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen[rendering] {
		return false
	}
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	if len(s.order) == maxCountedPosts {
		delete(s.seen, s.order[0])
		s.order = s.order[1:]
	}
	s.seen[rendering] = true
	s.order = append(s.order, rendering)
	return true
}

// hubCounter sends the counts of each form to its hub in batches (the
// protocol's events route). A hub that answers 404 counts nothing of the
// form: it is not asked again.
type hubCounter struct {
	h        *Handler
	interval time.Duration

	mu      sync.Mutex
	pending map[countKey]int64
	refused map[Form]bool
	dropped int64

	start sync.Once
	stop  chan struct{}
	done  chan struct{}
}

type countKey struct {
	form        Form
	event, step string
}

func newHubCounter(h *Handler, interval time.Duration) *hubCounter {
	return &hubCounter{h: h, interval: interval, pending: map[countKey]int64{}, refused: map[Form]bool{},
		stop: make(chan struct{}), done: make(chan struct{})}
}

// Count implements Counter.
func (c *hubCounter) Count(site, slug, event, step string, n int64) {
	k := countKey{Form{Site: site, Slug: slug}, event, step}
	c.mu.Lock()
	switch _, ok := c.pending[k]; {
	case c.refused[k.form]:
	case ok || len(c.pending) < maxPendingCounts:
		c.pending[k] += n
	default:
		c.dropped += n
	}
	c.mu.Unlock()
	c.start.Do(func() { go c.run() })
}

func (c *hubCounter) run() {
	defer close(c.done)
	t := time.NewTicker(c.interval)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			c.flush(context.Background(), maxAnonymousPosts)
		}
	}
}

// flush sends the counts held, in posts per form, at most posts of them
// without a token to each hub (0: until the hub refuses more); those not
// sent are kept for the next time.
func (c *hubCounter) flush(ctx context.Context, posts int) {
	c.mu.Lock()
	pending, dropped := c.pending, c.dropped
	c.pending, c.dropped = map[countKey]int64{}, 0
	c.mu.Unlock()
	if dropped > 0 {
		c.h.cfg.Logger.Warn("counts of forms dropped: their hubs did not take them", "count", dropped)
	}
	byForm := map[Form][]hubclient.EventCount{}
	for k, n := range pending {
		byForm[k.form] = append(byForm[k.form], hubclient.EventCount{Event: k.event, Step: k.step, N: n})
	}
	if posts == 0 {
		posts = math.MaxInt
	}
	// left is how many posts without a token each hub takes yet.
	left := map[*hubclient.Client]int{}
	for f, counts := range byForm {
		r := c.h.form(f)
		if _, ok := left[r.client]; !ok {
			left[r.client] = posts
		}
		c.send(ctx, f, r, counts, left)
	}
}

// send sends counts of f to its hub, r's, in posts the hub takes: with a
// token, of at most hubclient.MaxEventCount of each event; without, of at
// most hubclient.MaxAnonymousCount, as many as left allows the hub, which
// ends at a 429. What is not sent is kept.
func (c *hubCounter) send(ctx context.Context, f Form, r registered, counts []hubclient.EventCount, left map[*hubclient.Client]int) {
	size := int64(hubclient.MaxEventCount)
	if r.countsToken == "" {
		size = hubclient.MaxAnonymousCount
	}
	for i := int64(0); ; i++ {
		batch := slice(counts, i*size, size)
		if len(batch) == 0 {
			return
		}
		if r.countsToken == "" && left[r.client] <= 0 {
			// The hub takes no more from this app for now.
			c.keep(f, counts, i*size)
			return
		}
		sctx, cancel := context.WithTimeout(ctx, sendCountsTimeout)
		err := r.client.SendEventsWithToken(sctx, f.Site, f.Slug, r.countsToken, batch)
		cancel()
		if r.countsToken == "" {
			left[r.client]--
		}
		var hubErr *hubclient.HubError
		switch {
		case hubclient.NotCounting(err):
			c.h.cfg.Logger.Info("the form's hub counts no visits, or its counts token is of another workspace: counting stops", "site", f.Site, "form", f.Slug)
			c.mu.Lock()
			c.refused[f] = true
			c.mu.Unlock()
			return
		case errors.As(err, &hubErr) && hubErr.StatusCode == http.StatusTooManyRequests:
			left[r.client] = 0
			c.keep(f, counts, i*size)
			return
		case err != nil:
			c.h.cfg.Logger.Warn("counts of a form not sent: kept for the next try", "site", f.Site, "form", f.Slug, "error", err)
			c.keep(f, counts, i*size)
			return
		}
	}
}

// slice returns the part of counts from from on, at most size of each
// event.
func slice(counts []hubclient.EventCount, from, size int64) []hubclient.EventCount {
	var out []hubclient.EventCount
	for _, ec := range counts {
		if n := ec.N - from; n > 0 {
			out = append(out, hubclient.EventCount{Event: ec.Event, Step: ec.Step, N: min(n, size)})
		}
	}
	return out
}

// keep holds again the part of counts of f from from on, not sent.
func (c *hubCounter) keep(f Form, counts []hubclient.EventCount, from int64) {
	for _, ec := range slice(counts, from, math.MaxInt64) {
		c.Count(f.Site, f.Slug, ec.Event, ec.Step, ec.N)
	}
}

// held returns how many counts are held, not sent.
func (c *hubCounter) held() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	var n int64
	for _, v := range c.pending {
		n += v
	}
	return n
}

// close stops the sending and sends what is held.
func (c *hubCounter) close(ctx context.Context) {
	c.start.Do(func() { close(c.done) }) // never started
	select {
	case <-c.stop:
	default:
		close(c.stop)
	}
	<-c.done
	// Without a token, as many posts as the hubs take: what is left is
	// lost.
	c.flush(ctx, 0)
	if n := c.held(); n > 0 {
		c.h.cfg.Logger.Warn("counts of forms lost as the app closes: their hubs took no more without a token (Config.CountsToken)", "count", n)
	}
}
