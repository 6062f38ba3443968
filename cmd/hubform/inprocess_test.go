package main

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/handlers/hub/protocol"
)

// testHubConfig is the configuration of a hub served in the test's own
// process: a fresh data directory, the PostgreSQL database at dbURL (SQLite
// in the data directory when it is ""), and the test forms directory.
func testHubConfig(t *testing.T, dbURL string) hubserver.Config {
	return hubserver.Config{Addr: "127.0.0.1:0", Data: t.TempDir(), DB: dbURL, Forms: formsDir(t), UploadTTL: 24 * time.Hour,
		SweepInterval: time.Hour, MaxBody: protocol.DefaultMaxBodyBytes, ShutdownGrace: time.Second}
}

// serveRoutes opens the hub cfg describes, as hubform hub would, logging to
// logger (nowhere when it is nil), and serves its routes over HTTP until t
// ends; unlike serveInProcess, it runs none of the hub's background work
// (deliveries, sweeps), so that a test sees only what its requests did.
func serveRoutes(t *testing.T, cfg hubserver.Config, logger *slog.Logger) (*hubserver.Hub, *httptest.Server) {
	t.Helper()
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	h, err := hubserver.Open(context.Background(), cfg, logger)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	srv := httptest.NewServer(h.Server)
	t.Cleanup(srv.Close)
	return h, srv
}

// addTestUser adds a user whose password is password, hashed at
// argon2id's lowest cost so that tests signing in stay fast.
func addTestUser(t *testing.T, db interface {
	CreateUser(context.Context, accounts.User) error
}, email, password string) {
	t.Helper()
	hash, err := accounts.HashPassword(password, accounts.Params{Memory: 64, Time: 1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.CreateUser(context.Background(), accounts.User{Email: email, PasswordHash: hash, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
}
