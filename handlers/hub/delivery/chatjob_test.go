package delivery

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/delivery/chat"
	"github.com/hubform/hubform/handlers/hub/delivery/chat/chattest"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
	"github.com/hubform/hubform/hubclient"
)

// links are the console's addresses as a hub at hub.example.com has them.
type links struct{}

func (links) Submission(site, slug, id string) string {
	return "https://hub.example.com/console/forms/" + site + "/" + slug + "/submissions/" + id
}

func (links) File(site, slug, id string, n int) string {
	return links{}.Submission(site, slug, id) + "/files/0"
}

func (links) Inbox(site, slug string) string {
	return "https://hub.example.com/console/forms/" + site + "/" + slug + "/submissions"
}

func (links) Account() string { return "https://hub.example.com/console/account" }

// chatToken is the secret part of every destination's URL in these tests.
const chatToken = "T0/B0/s3cr3tT0ken"

// syncBuffer is a log's output, written by the queue's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// chatForm returns a form posting to a receiver of each chat service,
// and the receivers.
func chatForm(t *testing.T) (forms, map[chat.Kind]*chattest.Receiver) {
	receivers := map[chat.Kind]*chattest.Receiver{}
	var ds []hub.Destination
	for _, k := range chat.Kinds() {
		r := chattest.NewReceiver(string(k))
		t.Cleanup(r.Close)
		receivers[k] = r
		// Loopback is no service's address: the kind says which it is.
		ds = append(ds, hub.Destination{Kind: string(k), URL: r.URL + "/services/" + chatToken})
	}
	schema := hubclient.Schema{Title: "Feedback", Fields: []hubclient.Field{{Name: "name", Type: hubclient.FieldText, Label: "Your name"}}}
	return forms{"site/form": {Site: "site", Slug: "form", Schema: &schema, Settings: hub.Settings{Destinations: ds}}}, receivers
}

// TestChatDestinationsDelivered stores a submission for a form with a
// destination of each chat service: each chat gets one message of its own
// shape, with the answers under the form's labels and a link to the
// submission; a submission flagged as spam gets none; the deliveries are
// listed by the chat's name, never its URL.
func TestChatDestinationsDelivered(t *testing.T) {
	for name, open := range databases(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db, pgURL := open(t)
			fs, receivers := chatForm(t)
			q := openQueueWith(t, db, pgURL, fs, func(c *Config) { c.Links = links{} })
			spam := storetest.Submission("spam")
			spam.Spam, spam.Held = true, true
			for _, s := range []hub.Submission{storetest.Submission("S1"), spam} {
				if err := db.CreateSubmission(ctx, s); err != nil {
					t.Fatal(err)
				}
			}
			for k, r := range receivers {
				waitFor(t, string(k)+"'s message", func() bool { return len(r.Messages()) > 0 })
			}
			time.Sleep(200 * time.Millisecond) // room for a message too many
			for k, r := range receivers {
				if errs := r.Errors(); len(errs) > 0 {
					t.Errorf("%s: messages not of the service's shape: %v", k, errs)
				}
				got := r.Messages()
				if len(got) != 1 {
					t.Errorf("%s: %d messages, want 1 (none for spam)", k, len(got))
					continue
				}
				for _, want := range []string{"New submission: Feedback", "Your name", "Jane", links{}.Submission("site", "form", "S1")} {
					if !strings.Contains(string(got[0]), want) {
						t.Errorf("%s: the message lacks %q: %s", k, want, got[0])
					}
				}
			}
			// Marked delivered once each chat's answer is in.
			var list []Delivery
			waitFor(t, "the deliveries marked", func() bool {
				var err error
				list, err = q.List(ctx, "site", "form")
				return err == nil && !slices.ContainsFunc(list, func(d Delivery) bool { return d.Outcome == OutcomePending })
			})
			if len(list) != len(receivers) {
				t.Errorf("List: %d deliveries, want %d", len(list), len(receivers))
			}
			for _, d := range list {
				if d.Kind != "chat" || strings.Contains(d.Target, "s3cr3t") || !strings.Contains(d.Target, "(destination ") || d.Outcome != OutcomeDelivered {
					t.Errorf("delivery listed as %+v", d)
				}
			}
		})
	}
}

// TestChatRetriedAndShown: a chat that refuses a message has it retried,
// the delivery listed as retrying with the chat's answer, and delivered
// once the chat takes it; its URL is in no log line nor in the list.
func TestChatRetriedAndShown(t *testing.T) {
	ctx := context.Background()
	db, _ := databases(t)["sqlite"](t)
	fs, receivers := chatForm(t)
	slack := receivers[chat.Slack]
	fs["site/form"].Settings.Destinations = fs["site/form"].Settings.Destinations[:1]
	slack.Fail(500)
	var logs syncBuffer
	q := openQueueWith(t, db, "", fs, func(c *Config) {
		c.Backoff = 300 * time.Millisecond
		c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	if err := db.CreateSubmission(ctx, storetest.Submission("S1")); err != nil {
		t.Fatal(err)
	}
	var failed Delivery
	waitFor(t, "a failed attempt", func() bool {
		list, err := q.List(ctx, "site", "form")
		if err != nil || len(list) != 1 || len(list[0].Errors) == 0 {
			return false
		}
		failed = list[0]
		return true
	})
	if e := failed.Errors[0].Error; !strings.Contains(e, "Slack answered 500 Internal Server Error: no_service") {
		t.Errorf("the attempt's error = %q, want the chat's answer", e)
	}
	slack.Fail(0)
	waitFor(t, "the delivery", func() bool { return len(slack.Messages()) == 1 })
	waitFor(t, "the delivery listed", func() bool {
		list, err := q.List(ctx, "site", "form")
		return err == nil && len(list) == 1 && list[0].Outcome == OutcomeDelivered
	})
	// Sent again by hand, as the Deliveries page's button does.
	list, err := q.List(ctx, "site", "form")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.Retry(ctx, list[0].ID); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the delivery sent again", func() bool { return len(slack.Messages()) == 2 })
	if strings.Contains(logs.String(), "s3cr3t") || strings.Contains(logs.String(), slack.URL) {
		t.Errorf("the log shows the destination's URL:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), "Slack answered 500") {
		t.Errorf("the log does not say why the attempt failed:\n%s", logs.String())
	}
}

// TestTestChat sends the Settings tab's test message: the chat's answer
// comes back, a refusal as an error that says it, a private address is
// refused before anything is sent, and no URL is in any of them.
func TestTestChat(t *testing.T) {
	db, _ := databases(t)["sqlite"](t)
	fs, receivers := chatForm(t)
	form := fs["site/form"]
	q := openQueueWith(t, db, "", fs, func(*Config) {})
	ctx := context.Background()
	for _, d := range form.Settings.Destinations {
		r := receivers[chat.Kind(d.Kind)]
		answer, err := q.TestChat(ctx, form, d)
		if err != nil || !strings.HasPrefix(answer, chat.Kind(d.Kind).Name()+" answered 2") {
			t.Errorf("%s: TestChat = %q, %v", d.Kind, answer, err)
		}
		if got := r.Messages(); len(got) != 1 || !strings.Contains(string(got[0]), "Test message: Feedback") || !strings.Contains(string(got[0]), "Your name") {
			t.Errorf("%s: test messages %q", d.Kind, got)
		}
	}
	slack := receivers[chat.Slack]
	slack.Fail(404)
	answer, err := q.TestChat(ctx, form, form.Settings.Destinations[0])
	if err == nil || answer != "Slack answered 404 Not Found: no_service" || strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("TestChat to a chat that refuses = %q, %v", answer, err)
	}
	closed := openQueueWith(t, db, "", fs, func(c *Config) { c.AllowNetworks = nil })
	before := len(slack.Messages())
	if _, err := closed.TestChat(ctx, form, form.Settings.Destinations[0]); !errors.Is(err, ErrPrivateAddress) || strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("TestChat to a private address = %v, want ErrPrivateAddress without the URL", err)
	}
	if len(slack.Messages()) != before {
		t.Error("a message reached a private address")
	}
}
