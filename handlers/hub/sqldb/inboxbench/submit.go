package inboxbench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/localblob"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/hubclient"
)

// surveyForms serves the survey at the slug the submit route's writes go
// to.
type surveyForms struct{}

func (surveyForms) Lookup(site, slug string) (*hub.Form, error) {
	if site != Site || slug != writtenSlug {
		return nil, fmt.Errorf("%s/%s: %w", site, slug, hub.ErrNotFound)
	}
	return &hub.Form{Site: Site, Slug: writtenSlug, Schema: surveySchema}, nil
}

// A HubStarter makes the handler of a hub serving the protocol's routes
// with what it is given, as protocol.NewServer does with its Config's
// Forms, Store, Blobs and Logger: this package stays free of the HTTP
// framework.
type HubStarter func(forms hub.FormSource, store hub.Store, blobs hub.Blobs, logger *slog.Logger) (http.Handler, error)

// unsummed is a store that keeps no summary: the submit route computes
// no tallies for it, as a hub without the summary would not.
type unsummed struct{ hub.Store }

// submitWriteRates is countedWriteRates through the hub's submit route:
// survey answers posted over loopback HTTP, from writeClients clients,
// to a hub storing in db, which keeps the summary and is given the
// tallies, and to one storing in bare, which keeps none and is not. What
// it measures is a write as the hub takes them: the request read, the
// answers checked, calculations worked out, the submission stored.
// start makes each hub (SummaryOptions.Hub).
func submitWriteRates(ctx context.Context, db, bare *sqldb.DB, n int, serverCPU func() (time.Duration, error), start HubStarter) (writeComparison, error) {
	// The survey has no files; the hub wants a place for them all the same.
	dir, err := os.MkdirTemp("", "hubform-bench-files-")
	if err != nil {
		return writeComparison{}, err
	}
	defer os.RemoveAll(dir)
	blobs, err := localblob.Open(ctx, dir, "http://127.0.0.1/uploads", make([]byte, 32))
	if err != nil {
		return writeComparison{}, err
	}
	defer blobs.Close()
	// The hub logs each request, as it would, to nowhere.
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	hubs := map[bool]*httptest.Server{}
	for tallied, store := range map[bool]hub.Store{true: db, false: unsummed{bare}} {
		h, err := start(surveyForms{}, store, blobs, logger)
		if err != nil {
			return writeComparison{}, err
		}
		hubs[tallied] = httptest.NewServer(h)
		defer hubs[tallied].Close()
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: writeClients}, Timeout: time.Minute}
	defer client.CloseIdleConnections()
	return compareWrites(ctx, db, bare, n, serverCPU, func(_ *sqldb.DB, tallied bool) (func() (float64, error), error) {
		bodies, err := surveyPosts(n)
		if err != nil {
			return nil, err
		}
		url := hubs[tallied].URL + "/v1/" + Site + "/" + writtenSlug + "/submit"
		return func() (float64, error) { return postRate(ctx, client, url, bodies) }, nil
	})
}

// surveyPosts returns the bodies of n posts of survey answers to the
// submit route.
func surveyPosts(n int) ([][]byte, error) {
	s := newSurvey(3)
	bodies := make([][]byte, n)
	for i := range bodies {
		_, answers := s.answers()
		b, err := json.Marshal(hubclient.SubmitRequest{Payload: answers})
		if err != nil {
			return nil, err
		}
		bodies[i] = b
	}
	return bodies, nil
}

// postRate posts bodies to url from writeClients goroutines and returns
// how many the hub took a second; an answer other than 200 fails it.
func postRate(ctx context.Context, client *http.Client, url string, bodies [][]byte) (float64, error) {
	return inParallel(len(bodies), func(i int) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(bodies[i]))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		res, err := client.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		answer, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("submit answered %s: %s", res.Status, answer)
		}
		return nil
	})
}
