package hub

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/hubform/hubform/handlers/hub/captcha"
	"github.com/hubform/hubform/hubclient"
)

// FormSource is where the hub finds its forms.
type FormSource interface {
	// Lookup returns the form, an error wrapping ErrNotFound, or another
	// error when the form exists but cannot be served.
	Lookup(site, slug string) (*Form, error)
}

// Admission decides whether a form takes one more submission beyond its own
// rules: a hub for many owners counts their quotas (package quota).
type Admission interface {
	// Admit returns nil when the form's site may take a submission with
	// files of bytes, and an error wrapping ErrQuota when its owner has
	// reached their quota.
	Admit(ctx context.Context, site string, bytes int64) error
}

// ErrQuota means the owner of a form has reached their quota.
var ErrQuota = errors.New("quota reached")

// ErrStorageFull means the hub's database or file storage has no room left:
// nothing was stored, and a write may succeed once room is made.
var ErrStorageFull = errors.New("the storage is full")

// Store is what the hub needs of its database.
type Store interface {
	CreateUpload(ctx context.Context, u Upload) error
	Upload(ctx context.Context, key string) (Upload, error)
	MarkUploaded(ctx context.Context, key string, at time.Time) error
	// CreateSubmission stores s; when s.IdempotencyKey is already used for
	// s.Site and s.Slug it stores nothing and returns a *KeyUsedError.
	CreateSubmission(ctx context.Context, s Submission) error
	// SubmissionByKey returns the id of the submission of site and slug
	// that carries the idempotency key, or an error wrapping ErrNotFound.
	SubmissionByKey(ctx context.Context, site, slug, key string) (string, error)
	// FormFull reports whether the form of site and slug holds max
	// submissions not marked as spam, reading no more than max of them:
	// the schema route and submit ask it of a form with MaxSubmissions.
	FormFull(ctx context.Context, site, slug string, max int) (bool, error)
	StaleUploads(ctx context.Context, before time.Time, limit int) ([]Upload, error)
	DeleteUpload(ctx context.Context, key string) error
}

// Summaries keeps the counts of each form's answers, by day, in step with
// its submissions: those not marked as spam and not deleted are counted,
// from the tallies they were stored with (Submission.Tallies).
type Summaries interface {
	// AnswerCounts returns the counts of the answers of the form's
	// submissions created since since (all of them when it is zero),
	// counted by whole days in UTC: since is taken back to its day's
	// start.
	AnswerCounts(ctx context.Context, site, slug string, since time.Time) ([]AnswerCount, error)
	// TallySubmissions gives up to limit submissions of the form stored
	// without tallies (before the hub kept them) those tally returns, in
	// one transaction, which counts them; it reports how many it gave and
	// whether more are left. Hubs doing it at once count each submission
	// once.
	TallySubmissions(ctx context.Context, site, slug string, limit int, tally func(payload json.RawMessage) string) (n int, more bool, err error)
}

// Blobs is what the hub needs of its file storage.
type Blobs interface {
	// SignedPutURL returns a URL good for one PUT of u's body, under u.Key,
	// for expiry. Stores that can bind u.MIME and u.Size into the signature
	// do, so that the storage itself refuses any other body.
	SignedPutURL(ctx context.Context, u Upload, expiry time.Duration) (string, error)
	Attributes(ctx context.Context, key string) (size int64, contentType string, err error)
	Delete(ctx context.Context, key string) error
}

// Sealer is implemented by Blobs that clients upload to directly, an
// object store whose signed URLs cannot be revoked and take further PUTs
// until they expire. Such a store keeps each uploaded body apart, staged,
// and the hub has it sealed, copied under the upload's key, when a
// submission first names it: a later PUT to the URL changes the staged
// body only, never a file the hub accepted.
type Sealer interface {
	// Staged returns the size and type of the body uploaded for key and
	// not sealed yet, or an error wrapping ErrNotFound.
	Staged(ctx context.Context, key string) (size int64, contentType string, err error)
	// Seal copies the staged body of u under u.Key, once more checked
	// against u's size and type; an error wraps ErrNotFound without one.
	Seal(ctx context.Context, u Upload) error
}

// PartUploader is implemented by Blobs that take a large file in parts,
// each PUT to its own signed URL, several at a time, so that a cut
// connection resumes with the parts not yet stored and a file may be
// larger than one PUT allows (the protocol's files in parts). The file
// whole, once completed, is where a single PUT would have put it: staged
// for a Sealer, at u.Key otherwise.
type PartUploader interface {
	// StartParts begins u's upload in parts of partSize bytes, the last
	// one shorter, and returns the storage's id for it and one URL per
	// part, valid for expiry.
	StartParts(ctx context.Context, u Upload, partSize int64, expiry time.Duration) (id string, urls []string, err error)
	// SignParts signs the URLs of the parts of u's upload (u.PartsID)
	// again, valid for expiry: an upload may outlast its first ones.
	SignParts(ctx context.Context, u Upload, partSize int64, expiry time.Duration) ([]string, error)
	// CompleteParts joins the parts of u (u.PartsID) into its file, each
	// part named with the ETag its PUT answered. Parts missing, or whose
	// ETags or sizes do not match, give an error wrapping ErrParts.
	CompleteParts(ctx context.Context, u Upload, parts []hubclient.UploadedPart) error
	// AbortParts discards the parts of u's upload (u.PartsID); one
	// completed or aborted already is not an error.
	AbortParts(ctx context.Context, u Upload) error
}

// ErrParts means the parts named to complete an upload are not those
// stored for it.
var ErrParts = errors.New("the parts do not make the file")

// LeftoverSweeper is implemented by Blobs that may hold bodies no upload
// record accounts for: the temporary file of an upload cut short by a
// crash, or a body PUT to a staging object after its file was sealed.
type LeftoverSweeper interface {
	// SweepLeftovers deletes such bodies last written before before, and
	// returns how many it deleted.
	SweepLeftovers(ctx context.Context, before time.Time) (int, error)
}

// Limiter counts requests against a budget shared by every hub that uses
// it, as a database they share can (see sqldb.DB.Allow).
type Limiter interface {
	// Allow counts one request of client against limit requests per
	// window, and reports whether it is within the budget; when it is
	// not, retryAfter is how long until it may be.
	Allow(ctx context.Context, client string, limit int, window time.Duration, now time.Time) (ok bool, retryAfter time.Duration, err error)
}

// Captcha verifies captcha tokens with their provider.
type Captcha interface {
	Verify(ctx context.Context, r captcha.Request) error
}
