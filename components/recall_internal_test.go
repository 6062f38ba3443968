package components

import (
	"strings"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// FuzzRecallMarkdown: whatever a paragraph says and whatever the visitor
// answered, the answer never becomes markup: no element of the answer's
// appears in the HTML.
func FuzzRecallMarkdown(f *testing.F) {
	for _, s := range [][2]string{
		{"Dear **{{name}}**", "<script>alert(1)</script>"},
		{"[link](https://example.com/?q={{name}}) {{name|x}}", `"><img src=x onerror=alert(1)>`},
		{"- {{name}}\n- `{{name}}`", "\uE0000\uE001<b>"},
		{"<{{name}}>", "javascript:alert(1)"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, text, answer string) {
		if strings.ContainsAny(text, "<>\uE000\uE001") {
			return // the author's own markup is shown as written, and judged apart
		}
		rt, _ := hubclient.ParseRecall(text)
		values := map[string]any{"name": "<b data-evil>" + answer}
		out := recallMarkdown(rt, values, func(_ string, v any) string { return v.(string) })
		if strings.Contains(out, "<b data-evil>") || strings.Contains(out, "<script") {
			t.Fatalf("%q with %q: the answer became markup:\n%s", text, answer, out)
		}
	})
}
