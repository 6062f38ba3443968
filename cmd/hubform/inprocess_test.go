package main

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/protocol"
)

// testHubConfig is the configuration of a hub served in the test's own
// process: a fresh data directory, the PostgreSQL database at dbURL (SQLite
// in the data directory when it is ""), and the test forms directory.
func testHubConfig(t *testing.T, dbURL string) hubConfig {
	return hubConfig{addr: "127.0.0.1:0", data: t.TempDir(), db: dbURL, forms: formsDir(t), uploadTTL: 24 * time.Hour,
		sweepInterval: time.Hour, maxBody: protocol.DefaultMaxBodyBytes, shutdownGrace: time.Second}
}

// serveRoutes opens the hub cfg describes, as hubform hub would, logging to
// logger (nowhere when it is nil), and serves its routes over HTTP until t
// ends; unlike serveInProcess, it runs none of the hub's background work
// (deliveries, sweeps), so that a test sees only what its requests did.
func serveRoutes(t *testing.T, cfg hubConfig, logger *slog.Logger) (*runningHub, *httptest.Server) {
	t.Helper()
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	h, err := openHub(context.Background(), cfg, logger)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	srv := httptest.NewServer(h.server)
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
