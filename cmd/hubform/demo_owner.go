package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/handlers/hub/manage"
)

// demoOwner is the address of the demo hub's owner, an admin of the
// workspace that owns the example forms, so that a newcomer sees the
// owner's side of the forms they tried.
const demoOwner = "owner@demo.example"

// demoPassword returns a password for one run of the demo: 16 letters and
// digits. The demo never has a fixed password, even on its own loopback
// hub.
func demoPassword() string {
	const alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
	b := make([]byte, 16)
	rand.Read(b)
	for i, c := range b {
		b[i] = alphabet[int(c)%len(alphabet)]
	}
	return string(b)
}

// ensureDemoOwner gives the demo hub's owner a new password, creating the
// owner, admin of the default workspace, on the first run on --data. It
// returns the password.
func ensureDemoOwner(ctx context.Context, db *hubserver.Database, stderr io.Writer) (string, error) {
	password := demoPassword()
	hash, err := accounts.HashPassword(password, accounts.DefaultParams)
	if err != nil {
		return "", err
	}
	now := time.Now()
	err = db.SetPassword(ctx, demoOwner, hash, "", now)
	if !errors.Is(err, hub.ErrNotFound) {
		return password, err
	}
	if err := db.CreateUser(ctx, accounts.User{Email: demoOwner, PasswordHash: hash, CreatedAt: now, ProvedAt: now}); err != nil {
		return "", err
	}
	err = manage.NewMembers(operatorServices(db, stderr), db).Add(ctx, manage.Operator(accounts.DefaultWorkspace), demoOwner, accounts.Admin)
	if err != nil {
		return "", fmt.Errorf("making %s an admin of the demo's workspace: %w", demoOwner, err)
	}
	return password, nil
}
