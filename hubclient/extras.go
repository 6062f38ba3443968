package hubclient

import "context"

type (
	localeKey struct{}
	timingKey struct{}
	draftKey  struct{}
)

// WithLocale returns a copy of ctx that names locale ("de", "pt-BR") as
// the one the visitor used. A submission that NewSubmit's OnSubmit sends
// with such a context carries it as "locale" (PROTOCOL.md §10), for the
// hub's e-mail to the visitor. Empty sends none.
//
// The locale and the timing travel in the context, as the visitor's
// address does (WithVisitor), rather than among the values: they describe
// one send of the form, not what was typed in it.
func WithLocale(ctx context.Context, locale string) context.Context {
	return context.WithValue(ctx, localeKey{}, locale)
}

// WithTiming returns a copy of ctx that carries t, the time-trap signal of
// the submission it sends: a submission that NewSubmit's OnSubmit sends
// with such a context carries it as "timing" (PROTOCOL.md §10).
func WithTiming(ctx context.Context, t Timing) context.Context {
	return context.WithValue(ctx, timingKey{}, t)
}

// localeFrom returns the locale ctx names, or "".
func localeFrom(ctx context.Context) string {
	l, _ := ctx.Value(localeKey{}).(string)
	return l
}

// timingFrom returns the timing ctx carries, or nil.
func timingFrom(ctx context.Context) *Timing {
	if t, ok := ctx.Value(timingKey{}).(Timing); ok {
		return &t
	}
	return nil
}

// WithDraft returns a copy of ctx that names the token of the draft the
// submission finishes: a submission that NewSubmit's OnSubmit sends with
// such a context carries it as "draft" (PROTOCOL.md §10, "Drafts"), and
// the hub deletes the draft once the submission is stored. Empty sends
// none.
func WithDraft(ctx context.Context, token string) context.Context {
	return context.WithValue(ctx, draftKey{}, token)
}

// draftFrom returns the draft token ctx names, or "".
func draftFrom(ctx context.Context) string {
	d, _ := ctx.Value(draftKey{}).(string)
	return d
}
