package accounts

import (
	"strings"
	"testing"
)

// cheap keeps the tests fast; the format carries the parameters, so
// checking uses whatever hashing used.
var cheap = Params{Memory: 64, Time: 1, Threads: 1}

func TestHashPassword(t *testing.T) {
	h, err := HashPassword("correct horse battery", cheap)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=64,t=1,p=1$") || strings.Contains(h, "horse") {
		t.Errorf("hash %q: want PHC argon2id with the parameters, without the password", h)
	}
	if h2, _ := HashPassword("correct horse battery", cheap); h2 == h {
		t.Error("two hashes of one password are equal: the salt is not random")
	}
	for _, tc := range []struct {
		password string
		ok       bool
	}{
		{"correct horse battery", true},
		{"correct horse batterY", false},
		{"correct horse battery ", false},
		{"", false},
	} {
		ok, err := CheckPassword(h, tc.password)
		if err != nil || ok != tc.ok {
			t.Errorf("CheckPassword(%q) = %v, %v; want %v", tc.password, ok, err, tc.ok)
		}
	}
	// The default parameters are the ones written.
	if d, _ := HashPassword("0123456789", DefaultParams); !strings.HasPrefix(d, "$argon2id$v=19$m=65536,t=3,p=4$") {
		t.Errorf("default hash %q", d)
	}
}

func TestPasswordRules(t *testing.T) {
	for _, pw := range []string{"", "short", "123456789", "ééééééééé", "\xff\xfe0123456789", strings.Repeat("x", 1025)} {
		if _, err := HashPassword(pw, cheap); err == nil {
			t.Errorf("HashPassword(%q) accepted", pw)
		}
	}
	for _, pw := range []string{"0123456789", "éééééééééé", strings.Repeat("x", 1024)} {
		if _, err := HashPassword(pw, cheap); err != nil {
			t.Errorf("HashPassword(%q): %v", pw, err)
		}
	}
}

func TestCheckPasswordMalformed(t *testing.T) {
	good, _ := HashPassword("0123456789", cheap)
	parts := strings.Split(good, "$")
	for _, bad := range []string{
		"", "plain", "$argon2i$v=19$m=64,t=1,p=1$" + parts[4] + "$" + parts[5],
		"$argon2id$v=16$m=64,t=1,p=1$" + parts[4] + "$" + parts[5],
		"$argon2id$v=19$m=64,t=0,p=1$" + parts[4] + "$" + parts[5],
		"$argon2id$v=19$m=64,t=1,p=1$!!$" + parts[5],
		"$argon2id$v=19$m=64,t=1,p=1$" + parts[4] + "$",
	} {
		if ok, err := CheckPassword(bad, "0123456789"); ok || err == nil {
			t.Errorf("CheckPassword(%q) = %v, %v; want an error", bad, ok, err)
		}
	}
}

func TestTokens(t *testing.T) {
	a, b := NewToken(), NewToken()
	if a == b || !strings.HasPrefix(a, TokenPrefix) || len(a) != len(TokenPrefix)+43 {
		t.Errorf("tokens %q %q", a, b)
	}
	if HashToken(a) == HashToken(b) || len(HashToken(a)) != 64 || strings.Contains(HashToken(a), a) {
		t.Errorf("hash %q", HashToken(a))
	}
	if h := HashToken(a); HashToken(a) != h {
		t.Error("HashToken is not deterministic")
	}
	for name, ok := range map[string]bool{"ci": true, "deploy-bot_2.x": true, "": false, "a b": false, "é": false, strings.Repeat("a", 65): false} {
		if ValidTokenName(name) != ok {
			t.Errorf("ValidTokenName(%q) = %v", name, !ok)
		}
	}
}

func TestNormalizeEmail(t *testing.T) {
	for in, want := range map[string]string{" Jane@Example.COM ": "jane@example.com", "a@b": "a@b"} {
		if got, err := NormalizeEmail(in); err != nil || got != want {
			t.Errorf("NormalizeEmail(%q) = %q, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "jane", "Jane <jane@example.com>", "a@b, c@d", "jane@"} {
		if got, err := NormalizeEmail(bad); err == nil {
			t.Errorf("NormalizeEmail(%q) = %q", bad, got)
		}
	}
}
