package accounts

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// MinPasswordLen is the fewest characters a password may have.
const MinPasswordLen = 10

// maxPasswordLen bounds the work a sign-in attempt can cause.
const maxPasswordLen = 1024

// Params are argon2id's cost parameters.
type Params struct {
	// Memory is in KiB.
	Memory  uint32
	Time    uint32
	Threads uint8
}

// DefaultParams are the second recommended option of RFC 9106 (64 MiB,
// three passes), with four lanes.
var DefaultParams = Params{Memory: 64 << 10, Time: 3, Threads: 4}

const (
	saltLen = 16
	keyLen  = 32
)

// CheckPasswordRules returns why password cannot be used, or nil.
func CheckPasswordRules(password string) error {
	n := utf8.RuneCountInString(password)
	switch {
	case !utf8.ValidString(password):
		return errors.New("the password is not valid UTF-8")
	case n < MinPasswordLen:
		return fmt.Errorf("the password has %d characters; use at least %d", n, MinPasswordLen)
	case len(password) > maxPasswordLen:
		return fmt.Errorf("the password is longer than %d bytes", maxPasswordLen)
	}
	return nil
}

// HashPassword checks password against CheckPasswordRules and hashes it
// with argon2id under p and a random salt. The result is in PHC string
// format, $argon2id$v=19$m=…,t=…,p=…$SALT$HASH, so that it carries what
// checking it needs, even after DefaultParams change.
func HashPassword(password string, p Params) (string, error) {
	if err := CheckPasswordRules(password); err != nil {
		return "", err
	}
	salt := make([]byte, saltLen)
	rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, keyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.Memory, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// errBadHash is returned for a stored hash this package did not write.
var errBadHash = errors.New("password hash is not in argon2id PHC format")

// CheckPassword reports whether password matches encoded, a HashPassword
// result. An error means encoded is malformed, never a wrong password.
func CheckPassword(encoded, password string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return false, errBadHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errBadHash
	}
	var p Params
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil || p.Time == 0 || p.Threads == 0 {
		return false, errBadHash
	}
	b64 := base64.RawStdEncoding
	salt, err1 := b64.DecodeString(parts[4])
	want, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false, errBadHash
	}
	if len(password) > maxPasswordLen {
		return false, nil
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// dummyHash is checked against when a sign-in names no user, so that the
// answer takes as long as for a wrong password and does not tell which
// addresses have accounts.
// It is made on first use: a command that checks no password pays nothing.
var dummyHash = sync.OnceValue(func() string {
	h, _ := HashPassword("not the password of anyone", DefaultParams)
	return h
})

// CheckNoPassword spends the time CheckPassword would with DefaultParams,
// and returns false.
func CheckNoPassword(password string) bool {
	CheckPassword(dummyHash(), password)
	return false
}
