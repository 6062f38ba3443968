package delivery

import (
	"net/http"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// TestSignVector checks Sign against the example the Standard Webhooks
// specification publishes.
func TestSignVector(t *testing.T) {
	key, err := hub.Webhook{Secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}.Key()
	if err != nil {
		t.Fatal(err)
	}
	got := Sign(key, "msg_p5jXN8AQM9LWM0D4loKWxJek", time.Unix(1614265330, 0), []byte(`{"test": 2432232314}`))
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Errorf("Sign = %s, want %s", got, want)
	}
	h := http.Header{}
	setHeaders(h, key, "msg_p5jXN8AQM9LWM0D4loKWxJek", time.Unix(1614265330, 0), []byte(`{"test": 2432232314}`))
	if h.Get("webhook-id") != "msg_p5jXN8AQM9LWM0D4loKWxJek" || h.Get("webhook-timestamp") != "1614265330" || h.Get("webhook-signature") != got {
		t.Errorf("headers = %v", h)
	}
}
