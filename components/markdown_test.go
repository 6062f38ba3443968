package components

import (
	"strings"
	"testing"
)

func TestParagraphHTML(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Hello *you* and **all**.", "<p>Hello <em>you</em> and <strong>all</strong>.</p>\n"},
		{"[Terms](https://example.com/t)", `<p><a href="https://example.com/t" target="_blank" rel="noopener noreferrer">Terms</a></p>` + "\n"},
		{"[Write](mailto:jo@example.com)", `<p><a href="mailto:jo@example.com" target="_blank" rel="noopener noreferrer">Write</a></p>` + "\n"},
		{"1. one\n2. two", "<ol>\n<li>one</li>\n<li>two</li>\n</ol>\n"},
		{"[x](javascript:alert(1))", "<p>x</p>\n"},
		{"[x](/relative)", "<p>x</p>\n"},
		{"<javascript:alert(1)>", "<p>javascript:alert(1)</p>\n"},
		{"<https://example.com>", `<p><a href="https://example.com">https://example.com</a></p>` + "\n"},
		{"![tracker](https://evil.example/p.png)", "<p>tracker</p>\n"},
		{"[![a](https://x.example/i.png)](https://example.com)", `<p><a href="https://example.com" target="_blank" rel="noopener noreferrer">a</a></p>` + "\n"},
		{"<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n"},
		{"# Not a heading\n> nor a quote\n\n    nor code", "<p># Not a heading\n&gt; nor a quote</p>\n<pre><code>nor code\n</code></pre>\n"},
	}
	for _, tt := range tests {
		if got := paragraphHTML(tt.in); got != tt.want {
			t.Errorf("paragraphHTML(%q) =\n%q\nwant\n%q", tt.in, got, tt.want)
		}
	}
}

// FuzzParagraphHTML checks that no text makes a paragraph run a script,
// load an image or carry markup of its own.
func FuzzParagraphHTML(f *testing.F) {
	for _, s := range []string{"*a* [b](https://c)", "<a href=x>", "[x](JaVaScRiPt:1)", "![i](https://i)", "<data:text/html,x>", "- [a](vbscript:x)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := strings.ToLower(paragraphHTML(s))
		for _, bad := range []string{"<img", "<script", "<iframe", "href=\"javascript:", "href=\"vbscript:", "href=\"data:", "href=\"file:"} {
			if strings.Contains(out, bad) {
				t.Fatalf("paragraphHTML(%q) holds %q:\n%s", s, bad, out)
			}
		}
	})
}
