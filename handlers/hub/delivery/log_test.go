package delivery

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

func TestMinLevel(t *testing.T) {
	var b bytes.Buffer
	l := slog.New(minLevel{slog.NewTextHandler(&b, nil), slog.LevelWarn}).With("queue", "delivery").WithGroup("g")
	l.Info("dropped")
	l.Warn("kept")
	if s := b.String(); strings.Contains(s, "dropped") || !strings.Contains(s, "kept") || !strings.Contains(s, "queue=delivery") {
		t.Errorf("log %q", s)
	}
}
