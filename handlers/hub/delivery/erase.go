package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// pendingStates are the states of a delivery that has not run yet, or
// will run again: those DeletePending deletes. A running one is left to
// finish; its submission gone, it ends there.
var pendingStates = []rivertype.JobState{
	rivertype.JobStateAvailable, rivertype.JobStateScheduled, rivertype.JobStateRetryable, rivertype.JobStatePending,
}

// jobDeleter is what DeletePending uses of a *river.Client beside
// riverClient, whatever its driver.
type jobDeleter interface {
	JobDeleteMany(ctx context.Context, params *river.JobDeleteManyParams) (*river.JobDeleteManyResult, error)
}

// DeletePending deletes the deliveries of the submissions with the ids
// that have not been made yet: those waiting for their first attempt or
// for a retry. It returns how many it deleted. Deliveries made, failed or
// cancelled stay in the list of deliveries; they hold no values.
func (q *Queue) DeletePending(ctx context.Context, submissionIDs []string) (int, error) {
	if len(submissionIDs) == 0 {
		return 0, nil
	}
	deleter, ok := q.river.(jobDeleter)
	if !ok {
		return 0, errors.New("delivery: the queue cannot delete jobs")
	}
	wanted := make(map[string]bool, len(submissionIDs))
	for _, id := range submissionIDs {
		wanted[id] = true
	}
	// River filters jobs by state, not by their arguments: the pending
	// deliveries are read a page at a time and picked here, which holds
	// whatever their kind.
	var ids []int64
	params := river.NewJobListParams().Queues(QueueName).States(pendingStates...).
		OrderBy(river.JobListOrderByID, river.SortOrderAsc).First(10000)
	for {
		res, err := q.river.JobList(ctx, params)
		if err != nil {
			return 0, fmt.Errorf("delivery: list pending: %w", err)
		}
		for _, j := range res.Jobs {
			var args struct {
				SubmissionID string `json:"submissionId"`
			}
			if json.Unmarshal(j.EncodedArgs, &args) == nil && wanted[args.SubmissionID] {
				ids = append(ids, j.ID)
			}
		}
		if len(res.Jobs) == 0 || res.LastCursor == nil {
			break
		}
		params = params.After(res.LastCursor)
	}
	n := 0
	for chunk := range slices.Chunk(ids, 1000) {
		// The states again: a job that began running since it was listed
		// is left alone.
		res, err := deleter.JobDeleteMany(ctx, river.NewJobDeleteManyParams().IDs(chunk...).States(pendingStates...).First(len(chunk)))
		if err != nil {
			return n, fmt.Errorf("delivery: delete pending: %w", err)
		}
		n += len(res.Jobs)
	}
	return n, nil
}
