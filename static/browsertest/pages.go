package browsertest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// AxeViolation is one rule axe-core found broken on a page, and where.
type AxeViolation struct {
	ID      string   `json:"id"`
	Impact  string   `json:"impact"`
	Help    string   `json:"help"`
	HelpURL string   `json:"helpUrl"`
	Targets []string `json:"targets"`
}

// axePath returns where make assets installs axe-core's script, from
// static/package-lock.json: beside this package, whatever package's test
// asks.
func axePath() string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "node_modules", "axe-core", "axe.min.js")
}

// Axe returns axe-core's script. Without it the accessibility checks are
// left out (CheckAxe checks nothing), unless the browser tests are
// required.
func Axe(t testing.TB) string {
	t.Helper()
	path := axePath()
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if Required() {
			t.Fatalf("%s is missing: run make assets (axe-core is a devDependency in static/package.json)", path)
		}
		t.Logf("%s is missing, so no accessibility checks: run make assets", path)
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// AxeRun runs axe-core, whose script is src, on the page in tab and
// returns every violation, whatever its impact.
func AxeRun(t testing.TB, tab context.Context, src string) []AxeViolation {
	t.Helper()
	if !Eval[bool](t, tab, 10*time.Second, `typeof window.axe !== 'undefined'`) {
		Eval[bool](t, tab, 10*time.Second, src+"\n;true")
	}
	return Eval[[]AxeViolation](t, tab, 20*time.Second, `axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations.map((v) => ({
	  id: v.id, impact: v.impact || '', help: v.help, helpUrl: v.helpUrl,
	  targets: v.nodes.map((n) => String(n.target)),
	})))`, chromedp.EvalAwaitPromise)
}

// CheckAxe runs axe-core, whose script is src, on the page in tab and
// fails t on any serious or critical violation; lesser ones are logged.
// Without src it checks nothing.
func CheckAxe(t testing.TB, tab context.Context, src, page string) {
	t.Helper()
	if src == "" {
		return
	}
	for _, v := range AxeRun(t, tab, src) {
		msg := fmt.Sprintf("axe on %s: %s (%s): %s\n\t%s\n\tat %s", page, v.ID, v.Impact, v.Help, v.HelpURL, strings.Join(v.Targets, "\n\tat "))
		if v.Impact == "serious" || v.Impact == "critical" {
			t.Error(msg)
		} else {
			t.Log(msg)
		}
	}
}

// ColorScheme emulates the system's colour scheme in tab, "light" or
// "dark"; "" ends the emulation.
func ColorScheme(t testing.TB, tab context.Context, scheme string) {
	t.Helper()
	var features []*emulation.MediaFeature
	if scheme != "" {
		features = append(features, &emulation.MediaFeature{Name: "prefers-color-scheme", Value: scheme})
	}
	ctx, cancel := context.WithTimeout(tab, 5*time.Second)
	defer cancel()
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: features}); err != nil {
		t.Fatalf("emulating the colour scheme %q: %v", scheme, err)
	}
}

// ScreenshotsEnv is the environment variable that names the directory the
// screenshots of the guides are saved in; unset, Screenshot saves none.
const ScreenshotsEnv = "HUBFORM_SCREENSHOTS"

// Screenshot saves the page in tab as DIR/name.png when ScreenshotsEnv
// names DIR.
func Screenshot(t testing.TB, tab context.Context, name string) {
	t.Helper()
	dir := os.Getenv(ScreenshotsEnv)
	if dir == "" {
		return
	}
	ctx, cancel := context.WithTimeout(tab, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
