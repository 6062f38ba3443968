package console

import "testing"

// TestWholeIn: a whole number within its bounds is read; one that is
// not whole, above or below them is refused in the words given, with the
// bound it broke.
func TestWholeIn(t *testing.T) {
	for _, c := range []struct {
		text string
		n    int
		want string
	}{
		{"7", 7, ""},
		{"2", 2, ""},
		{"10", 10, ""},
		{"4.5", 0, "The highest number of a scale is a whole number, from 2 to 10"},
		{"ten", 0, "The highest number of a scale is a whole number, from 2 to 10"},
		{"11", 0, "The highest number of a scale is 10 at most"},
		{"1", 0, "The highest number of a scale is 2 at least"},
	} {
		n, err := wholeIn("fields[3].max", c.text, 2, 10, "The highest number of a scale")
		got := ""
		if err != nil {
			got = err.Error()
		}
		if n != c.n || got != c.want {
			t.Errorf("%q: %d, %q; want %d, %q", c.text, n, got, c.n, c.want)
		}
	}
}
