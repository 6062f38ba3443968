// Package storetest is the behaviour every hub database must show, as one
// suite that each driver package runs against its own databases:
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T, handles int) []*sqldb.DB { … })
//	}
package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/hubclient"
)

// Open returns handles open on one new, empty database, each as a separate
// hub process would have, and closes them when t ends. Most tests want
// one; those of behaviour across processes want two.
type Open func(t *testing.T, handles int) []*sqldb.DB

// onOneAndTwoHandles runs test on one handle of a fresh database, then on
// two handles of another, as with two processes whose writers contend in
// the database itself.
func onOneAndTwoHandles(t *testing.T, open Open, test func(t *testing.T, dbs []*sqldb.DB)) {
	for _, handles := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d handles", handles), func(t *testing.T) { test(t, open(t, handles)) })
	}
}

// Run runs the suite as parallel subtests of t, each on a database of its
// own.
func Run(t *testing.T, open Open) {
	tests := []struct {
		name string
		fn   func(*testing.T, Open)
	}{
		{"SubmissionRoundTrip", testSubmissionRoundTrip},
		{"CreateSubmissionRefuses", testCreateSubmissionRefuses},
		{"ClaimRules", testClaimRules},
		{"ListSubmissions", testListSubmissions},
		{"CountSubmissionsBy", testCountSubmissionsBy},
		{"Counts", testCounts},
		{"CountsCompacted", testCountsCompacted},
		{"ConcurrentCreateSubmission", testConcurrentCreateSubmission},
		{"ClaimRace", testClaimRace},
		{"IdempotencyKeys", testIdempotencyKeys},
		{"IdempotencyKeyRace", testIdempotencyKeyRace},
		{"ContextCanceled", testContextCanceled},
		{"SubmissionByID", testSubmissionByID},
		{"SubmissionHook", testSubmissionHook},
		{"UploadRoundTrip", testUploadRoundTrip},
		{"MarkUploaded", testMarkUploaded},
		{"StaleUploads", testStaleUploads},
		{"DeleteUpload", testDeleteUpload},
		{"Allow", testAllow},
		{"AllowSharedBudget", testAllowSharedBudget},
		{"AllowPrunes", testAllowPrunes},
		{"AutoresponseBudget", testAutoresponseBudget}, {"AutoresponseRace", testAutoresponseRace},
		{"Users", testUsers},
		{"Tokens", testTokens},
		{"Workspaces", testWorkspaces},
		{"Brands", testBrands},
		{"Digests", testDigests},
		{"Images", testImages},
		{"Audit", testAudit},
		{"Invitations", testInvitations},
		{"UserSessions", testUserSessions},
		{"ColumnChoices", testColumnChoices},
		{"Signups", testSignups},
		{"ResetLinksRetired", testResetLinksRetired},
		{"ProvedAddresses", testProvedAddresses},
		{"Quotas", testQuotas},
		{"MailRecipients", testMailRecipients},
		{"Sessions", testSessions},
		{"FormVersions", testFormVersions},
		{"FormSaveRace", testFormSaveRace},
		{"FormDraft", testFormDraft},
		{"FormDraftRace", testFormDraftRace},
		{"InboxFilters", testInboxFilters},
		{"SearchInStep", testSearchInStep},
		{"SpamRelease", testSpamRelease},
		{"FormVersionKept", testFormVersionKept},
		{"DeleteSubmissions", testDeleteSubmissions},
		{"DeleteSubmissionsBefore", testDeleteSubmissionsBefore},
		{"TrashSubmissions", testTrashSubmissions},
		{"SummaryCounts", testSummaryCounts},
		{"TallySubmissions", testTallySubmissions},
		{"SummaryRace", testSummaryRace},
		{"SummaryOneStatement", testSummaryOneStatement},
		{"DeleteRace", testDeleteRace},
		{"Limits", testLimits},
		{"People", testPeople},
		{"Keys", testKeys},
		{"FunnelCounts", testFunnelCounts},
		{"FunnelCountsRefuses", testFunnelCountsRefuses},
		{"FunnelCountsRace", testFunnelCountsRace},
		{"DraftRoundTrip", testDraftRoundTrip},
		{"DraftUpdate", testDraftUpdate},
		{"DraftHolds", testDraftHolds},
		{"DraftHook", testDraftHook},
		{"DraftTokens", testDraftTokens},
		{"DraftTokenRetiredBySave", testDraftTokenRetiredBySave},
		{"DeleteExpiredDrafts", testDeleteExpiredDrafts},
		{"DraftFinished", testDraftFinished},
		{"DraftFinishedTogether", testDraftFinishedTogether},
		{"SubmissionEndings", testSubmissionEndings},
		{"SubmissionCalculations", testSubmissionCalculations},
	}
	// Each check opens databases of its own: they run in parallel.
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.fn(t, open)
		})
	}
}

// open1 returns one handle on a new database.
func open1(t *testing.T, open Open) *sqldb.DB {
	t.Helper()
	return open(t, 1)[0]
}

// T0 is a fixed time with a millisecond fraction, which is what survives a
// round trip.
var T0 = time.Date(2026, 11, 21, 10, 30, 0, 123e6, time.UTC)

// Upload returns an upload of the form "site"/"form" that was received.
func Upload(key string) hub.Upload {
	return hub.Upload{
		Key:        key,
		Site:       "site",
		Slug:       "form",
		Filename:   "cv.pdf",
		MIME:       "application/pdf",
		Size:       1234,
		CreatedAt:  T0,
		ExpiresAt:  T0.Add(15 * time.Minute),
		UploadedAt: T0.Add(time.Second),
	}
}

// Attachment returns the attachment matching u.
func Attachment(u hub.Upload) hubclient.Attachment {
	return hubclient.Attachment{Key: u.Key, Filename: u.Filename, Size: u.Size, MIME: u.MIME, Field: "files"}
}

// Submission returns a submission of the form "site"/"form".
func Submission(id string, atts ...hubclient.Attachment) hub.Submission {
	return hub.Submission{
		ID:          id,
		Site:        "site",
		Slug:        "form",
		CreatedAt:   T0,
		Payload:     json.RawMessage(`{"name":"Jane","n":1}`),
		Attachments: atts,
		ClientAddr:  "192.0.2.1",
		UserAgent:   "test/1.0",
	}
}

// MustCreateUpload stores u or fails the test.
func MustCreateUpload(t testing.TB, db *sqldb.DB, u hub.Upload) {
	t.Helper()
	if err := db.CreateUpload(context.Background(), u); err != nil {
		t.Fatalf("CreateUpload(%q): %v", u.Key, err)
	}
}

// ListAll returns every submission f selects.
func ListAll(t testing.TB, db *sqldb.DB, f hub.Filter) []hub.Submission {
	t.Helper()
	var out []hub.Submission
	err := db.ListSubmissions(context.Background(), f, func(s hub.Submission) error {
		out = append(out, s)
		return nil
	})
	if err != nil {
		t.Fatalf("ListSubmissions(%+v): %v", f, err)
	}
	return out
}

// Count returns the number of submissions f selects.
func Count(t testing.TB, db *sqldb.DB, f hub.Filter) int {
	t.Helper()
	n, err := db.CountSubmissions(context.Background(), f)
	if err != nil {
		t.Fatalf("CountSubmissions(%+v): %v", f, err)
	}
	return n
}
