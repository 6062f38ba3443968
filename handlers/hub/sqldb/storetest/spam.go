package storetest

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// hookCall is what a SubmissionHook was called with.
type hookCall struct {
	ID         string
	Held, Spam bool
	Reasons    []string
}

// testSpamRelease checks that a flagged submission keeps its reasons and
// held mark, and that marking it as not spam releases it: the hook runs
// once for it, in the transaction that marks it, and never again, however
// often it is marked; submissions that were not held run nothing.
func testSpamRelease(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	var (
		mu      sync.Mutex
		calls   []hookCall
		hookErr error
	)
	hookRows := hookIntoTable(t, db, "hook_release", func(s hub.Submission) error {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, hookCall{s.ID, s.Held, s.Spam, s.SpamReasons})
		return hookErr
	})
	takeCalls := func() []hookCall {
		mu.Lock()
		defer mu.Unlock()
		c := calls
		calls = nil
		return c
	}
	setSpam := func(spam bool, want int, ids ...string) {
		t.Helper()
		if n, err := db.SetSpam(ctx, "site", "form", ids, spam); err != nil || n != want {
			t.Fatalf("SetSpam(%v, %v) = %d, %v; want %d", ids, spam, n, err, want)
		}
	}
	read := func(id string) hub.Submission {
		t.Helper()
		s, err := db.Submission(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}

	reasons := []string{"sent 0.4 s after the form was shown (the form's minimum is 2 s)", "the phrase “casino”"}
	flagged := Submission("01-flagged")
	flagged.Spam, flagged.Held, flagged.SpamReasons = true, true, reasons
	clean := Submission("02-clean")
	marked := Submission("03-marked")
	other := Submission("04-other")
	other.Slug, other.Spam, other.Held = "other", true, true
	for _, s := range []hub.Submission{flagged, clean, marked, other} {
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	takeCalls()

	// The reasons and the marks round-trip, in a submission and a list.
	flagged.Attachments = []hubclient.Attachment{}
	if got := read(flagged.ID); !reflect.DeepEqual(got, flagged) {
		t.Errorf("Submission(flagged) = %+v\nwant %+v", got, flagged)
	}
	if got := ListAll(t, db, hub.Filter{Site: "site", Slug: "form", Spam: hub.OnlySpam}); len(got) != 1 || !slices.Equal(got[0].SpamReasons, reasons) || !got[0].Held {
		t.Errorf("spam listed = %+v, want flagged with its reasons, held", got)
	}
	if got := read(clean.ID); got.SpamReasons != nil || got.Held || got.Spam {
		t.Errorf("Submission(clean) = %+v, want no reasons, not held, not spam", got)
	}

	// Submissions not held run nothing, marked either way.
	setSpam(true, 2, clean.ID, marked.ID)
	setSpam(false, 2, clean.ID, marked.ID)
	if c := takeCalls(); len(c) != 0 {
		t.Errorf("marking submissions not held ran the hook: %+v", c)
	}
	// Marking a held submission as spam leaves it held.
	setSpam(true, 1, flagged.ID)
	if got := read(flagged.ID); !got.Held || !got.Spam {
		t.Errorf("flagged marked as spam: held %v, spam %v; want both", got.Held, got.Spam)
	}
	if c := takeCalls(); len(c) != 0 {
		t.Errorf("marking a held submission as spam ran the hook: %+v", c)
	}

	// The hook's error leaves everything as it was: it runs in the
	// transaction that marks.
	hookErr = errors.New("hook failed")
	if _, err := db.SetSpam(ctx, "site", "form", []string{flagged.ID, clean.ID}, false); !errors.Is(err, hookErr) {
		t.Fatalf("SetSpam with a failing hook = %v, want its error", err)
	}
	hookErr = nil
	takeCalls()
	if got := read(flagged.ID); !got.Held || !got.Spam {
		t.Errorf("after the hook failed: held %v, spam %v; want both", got.Held, got.Spam)
	}
	if rows := hookRows(); len(rows) != 4 {
		t.Errorf("hook rows %v: the failed release left one", rows)
	}

	// Released: the hook runs once, not held and not spam, in the same
	// transaction; another form's held submission is left alone.
	setSpam(false, 2, flagged.ID, clean.ID, other.ID)
	want := []hookCall{{flagged.ID, false, false, reasons}}
	if c := takeCalls(); !reflect.DeepEqual(c, want) {
		t.Errorf("releasing ran the hook with %+v, want %+v", c, want)
	}
	if got := read(flagged.ID); got.Held || got.Spam || !slices.Equal(got.SpamReasons, reasons) {
		t.Errorf("released: held %v, spam %v, reasons %q; want neither, the reasons kept", got.Held, got.Spam, got.SpamReasons)
	}
	if got := read(other.ID); !got.Held || !got.Spam {
		t.Errorf("another form's submission: held %v, spam %v; want both", got.Held, got.Spam)
	}
	if rows := hookRows(); !slices.Equal(rows, []string{flagged.ID, flagged.ID, clean.ID, marked.ID, other.ID}) {
		t.Errorf("hook rows %v, want the four stored and the one released", rows)
	}

	// Marked again, either way: nothing more runs.
	for range 2 {
		setSpam(true, 1, flagged.ID)
		setSpam(false, 1, flagged.ID)
	}
	if c := takeCalls(); len(c) != 0 {
		t.Errorf("a released submission marked again ran the hook: %+v", c)
	}
	if got := read(flagged.ID); got.Held {
		t.Error("a released submission is held again")
	}
}
