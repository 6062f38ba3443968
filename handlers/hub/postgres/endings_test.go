package postgres

import (
	"context"
	"testing"

	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
)

// TestSubmitEnding runs the hub on PostgreSQL: it answers the first ending
// whose condition holds, stores it, and answers a repeat with the first
// send's ending.
func TestSubmitEnding(t *testing.T) {
	db := openURL(t, pgtest.URL(t))
	h := hubtest.Start(t, map[string]string{"acme/party": `{
	  "fields": [{"name": "guests", "type": "number"}, {"name": "company", "type": "text"}],
	  "steps": [{"id": "main", "fields": ["guests", "company"]}],
	  "endings": [
	    {"id": "firm", "title": "Sales will call", "if": {"!!": {"var": "company"}}},
	    {"id": "crowd", "title": "Big party", "if": {">": [{"var": "guests"}, 5]}}
	  ]}`}, func(c *protocol.Config) { c.Store, c.Drafts = db, db })
	client := &hubclient.Client{HubURL: h.URL}
	ctx := context.Background()
	for _, tt := range []struct {
		payload map[string]any
		key     string
		want    string
	}{
		{map[string]any{"guests": 9, "company": "ACME"}, "", "firm"},
		{map[string]any{"guests": 9}, "k1", "crowd"},
		{map[string]any{"guests": 2}, "", ""},
		{map[string]any{"guests": 2, "company": "ACME"}, "k1", "crowd"}, // a repeat
	} {
		res, err := client.Submit(ctx, "acme", "party", &hubclient.SubmitRequest{Payload: tt.payload, IdempotencyKey: tt.key})
		if err != nil || res.Ending != tt.want {
			t.Errorf("%v: %+v, %v; want ending %q", tt.payload, res, err, tt.want)
			continue
		}
		if s, err := db.Submission(ctx, res.SubmissionID); err != nil || s.Ending != tt.want {
			t.Errorf("%v: stored %+v, %v; want ending %q", tt.payload, s, err, tt.want)
		}
	}
}
