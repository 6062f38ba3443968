package hubclient

import "context"

// SubmitConfig is a custom submit configuration, shaped like the
// { type: 'custom', onSubmit(values) } of PROTOCOL.md §1.
type SubmitConfig struct {
	// Type is always "custom".
	Type string
	// OnSubmit delivers values to the hub and returns its answer.
	OnSubmit func(ctx context.Context, values map[string]any) (*SubmitResponse, error)
}

// NewSubmit returns a submit configuration that delivers form values to a
// hub (PROTOCOL.md §4 rule 3): the Go twin of createHubFormSubmit(), the
// protocol's JavaScript entry point, for code that follows it.
//
// Its OnSubmit is Submitter.Submit, of NewSubmitter(opts), taking what a
// Submission holds besides the values from the context: the locale
// (WithLocale), the timing (WithTiming), the draft (WithDraft) and the
// visitor (WithVisitor). Go code that has them at hand calls a Submitter
// with a Submission instead.
func NewSubmit(opts SubmitOptions) SubmitConfig {
	s := NewSubmitter(opts)
	return SubmitConfig{Type: "custom", OnSubmit: func(ctx context.Context, values map[string]any) (*SubmitResponse, error) {
		// The visitor stays in ctx: the Client names it on every call.
		return s.Submit(ctx, Submission{
			Values: values,
			Locale: localeFrom(ctx),
			Timing: timingFrom(ctx),
			Draft:  draftFrom(ctx),
		})
	}}
}

type (
	localeKey struct{}
	timingKey struct{}
	draftKey  struct{}
)

// WithLocale returns a copy of ctx that names locale ("de", "pt-BR") as
// the one the visitor used, for NewSubmit's OnSubmit to send as
// Submission.Locale. Empty sends none.
func WithLocale(ctx context.Context, locale string) context.Context {
	return context.WithValue(ctx, localeKey{}, locale)
}

// WithTiming returns a copy of ctx that carries t, the time-trap signal of
// the submission it sends, for NewSubmit's OnSubmit to send as
// Submission.Timing.
func WithTiming(ctx context.Context, t Timing) context.Context {
	return context.WithValue(ctx, timingKey{}, t)
}

// WithDraft returns a copy of ctx that names the token of the draft the
// submission finishes, for NewSubmit's OnSubmit to send as
// Submission.Draft. Empty sends none.
func WithDraft(ctx context.Context, token string) context.Context {
	return context.WithValue(ctx, draftKey{}, token)
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

// draftFrom returns the draft token ctx names, or "".
func draftFrom(ctx context.Context) string {
	d, _ := ctx.Value(draftKey{}).(string)
	return d
}
