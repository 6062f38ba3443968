package console

import "testing"

// FuzzParseByteSize checks that a size read from the Settings tab is in
// range, and that the text its input then shows reads back the same.
func FuzzParseByteSize(f *testing.F) {
	for _, s := range []string{"5 MB", "512 KB", "5242880", "1.5 mb", "3 MiB", "1 GB", "", "lots", "1e3", "0.1 KB", "-1", "1 TB", "1..2 MB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseByteSize(s)
		if err != nil {
			return
		}
		if n < 0 || n > maxByteSize {
			t.Fatalf("parseByteSize(%q) = %d, out of range", s, n)
		}
		if back, err := parseByteSize(sizeText(n)); err != nil || back != n {
			t.Fatalf("parseByteSize(%q) = %d, shown as %q, which reads %d, %v", s, n, sizeText(n), back, err)
		}
	})
}
