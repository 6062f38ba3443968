package hub

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestNewIDSortsByTimeAndIsUnique(t *testing.T) {
	base := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	seen := map[string]bool{}
	prev := ""
	for i := range 2000 {
		id := NewID(base.Add(time.Duration(i) * time.Millisecond))
		if !regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{26}$`).MatchString(id) {
			t.Fatalf("id %q is not 26 Crockford base32 digits", id)
		}
		if seen[id] || id <= prev {
			t.Fatalf("id %q after %q: repeated or out of order", id, prev)
		}
		seen[id], prev = true, id
	}
	a, b := NewID(base), NewID(base)
	if a == b || a[:10] != b[:10] {
		t.Errorf("same millisecond: %q and %q should share the time prefix and differ", a, b)
	}
}

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{
		"acme": true, "contact-us": true, "A_1": true, strings.Repeat("a", 64): true,
		"": false, ".": false, "..": false, ".hidden": false, "-x": false, "a/b": false, `a\b`: false,
		"a b": false, "a%2e": false, "ü": false, strings.Repeat("a", 65): false, "a.json": false,
	} {
		if ValidName(name) != want {
			t.Errorf("ValidName(%q) = %v, want %v", name, !want, want)
		}
	}
}

func TestSafeFilename(t *testing.T) {
	for in, want := range map[string]string{
		"report.pdf":                         "report.pdf",
		"../../etc/passwd":                   "passwd",
		`C:\Users\me\CV 2026.doc`:            "CV_2026.doc",
		".htaccess":                          "htaccess",
		"résumé.pdf":                         "r_sum_.pdf",
		"a/../..":                            "file",
		"<script>.html":                      "script.html",
		"":                                   "file",
		strings.Repeat("x", 300) + ".tar.gz": strings.Repeat("x", 97) + ".gz",
		"notes.attrs":                        "notes_attrs",
		"NOTES.ATTRS":                        "NOTES_ATTRS",
		".attrs":                             "attrs",
		"a.pdf.1234.tmp":                     "a.pdf.1234_tmp",
	} {
		if got := SafeFilename(in); got != want {
			t.Errorf("SafeFilename(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNewUploadKey(t *testing.T) {
	k1, k2 := NewUploadKey("acme", "contact", "a b.pdf"), NewUploadKey("acme", "contact", "a b.pdf")
	if !regexp.MustCompile(`^uploads/acme/contact/[0-9a-f]{24}/a_b\.pdf$`).MatchString(k1) || k1 == k2 {
		t.Errorf("keys %q, %q", k1, k2)
	}
}
