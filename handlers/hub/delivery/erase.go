package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

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
	wanted := make(map[string]bool, len(submissionIDs))
	for _, id := range submissionIDs {
		wanted[id] = true
	}
	return q.deleteJobs(ctx, river.NewJobListParams().States(pendingStates...), pendingStates, func(j *rivertype.JobRow) bool {
		var args struct {
			SubmissionID string `json:"submissionId"`
		}
		return json.Unmarshal(j.EncodedArgs, &args) == nil && wanted[args.SubmissionID]
	})
}

// notRunning are the states of every job but one under way.
var notRunning = append([]rivertype.JobState{rivertype.JobStateCompleted, rivertype.JobStateCancelled, rivertype.JobStateDiscarded}, pendingStates...)

// DeleteRequests deletes the requests to confirm address for workspace's
// notifications, made or not: their arguments hold the address, which
// erasing a person must not leave behind. It returns how many it deleted.
func (q *Queue) DeleteRequests(ctx context.Context, workspace, address string) (int, error) {
	params := river.NewJobListParams().Kinds(ConfirmRecipientArgs{}.Kind()).States(notRunning...)
	return q.deleteJobs(ctx, params, notRunning, func(j *rivertype.JobRow) bool {
		var args ConfirmRecipientArgs
		return json.Unmarshal(j.EncodedArgs, &args) == nil && args.Workspace == workspace && strings.EqualFold(args.Address, strings.TrimSpace(address))
	})
}

// deleteJobs deletes the deliveries params lists that match picks, if they
// are still in one of states when deleted.
func (q *Queue) deleteJobs(ctx context.Context, params *river.JobListParams, states []rivertype.JobState, picks func(*rivertype.JobRow) bool) (int, error) {
	deleter, ok := q.river.(jobDeleter)
	if !ok {
		return 0, errors.New("delivery: the queue cannot delete jobs")
	}
	// River filters jobs by state and kind, not by their arguments: the
	// jobs are read a page at a time and picked here.
	var ids []int64
	params = params.Queues(QueueName).OrderBy(river.JobListOrderByID, river.SortOrderAsc).First(10000)
	for {
		res, err := q.river.JobList(ctx, params)
		if err != nil {
			return 0, fmt.Errorf("delivery: list jobs to delete: %w", err)
		}
		for _, j := range res.Jobs {
			if picks(j) {
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
		res, err := deleter.JobDeleteMany(ctx, river.NewJobDeleteManyParams().IDs(chunk...).States(states...).First(len(chunk)))
		if err != nil {
			return n, fmt.Errorf("delivery: delete jobs: %w", err)
		}
		n += len(res.Jobs)
	}
	return n, nil
}
