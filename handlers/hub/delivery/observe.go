package delivery

import (
	"context"
	"errors"
	"fmt"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivertype"
)

// observer tells Config.OnAttempt how each attempt this hub makes ends.
type observer struct {
	river.MiddlewareDefaults
	onAttempt func(kind, outcome string)
}

func (o *observer) Work(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) error {
	err := doInner(ctx)
	o.onAttempt(job.Kind, attemptOutcome(job, err))
	return err
}

// attemptOutcome is what an attempt of job that returned err leaves the
// delivery as.
func attemptOutcome(job *rivertype.JobRow, err error) string {
	var cancel *rivertype.JobCancelError
	switch {
	case err == nil:
		return OutcomeDelivered
	case errors.As(err, &cancel):
		return OutcomeCancelled
	case job.Attempt >= job.MaxAttempts:
		return OutcomeFailed
	}
	return OutcomeRetrying
}

// Depth is how many deliveries the queue holds, by what they wait for.
type Depth struct {
	// Available are due and wait for a worker; Running are being attempted;
	// Retrying failed and wait for their next attempt.
	Available, Running, Retrying int
}

// Depth counts the deliveries not finished, across every hub on the
// database.
func (q *Queue) Depth(ctx context.Context) (Depth, error) {
	byQueue, err := q.exec.JobCountByQueueAndState(ctx, &riverdriver.JobCountByQueueAndStateParams{QueueNames: []string{QueueName}})
	if err != nil {
		return Depth{}, fmt.Errorf("delivery: counting jobs: %w", err)
	}
	var d Depth
	for _, r := range byQueue {
		d.Available += int(r.CountAvailable)
		d.Running += int(r.CountRunning)
	}
	// Every job of the hub is a delivery: the count by state needs no
	// queue.
	if d.Retrying, err = q.exec.JobCountByState(ctx, &riverdriver.JobCountByStateParams{State: rivertype.JobStateRetryable}); err != nil {
		return Depth{}, fmt.Errorf("delivery: counting jobs: %w", err)
	}
	return d, nil
}
