package main

import (
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/hubform/hubform/handlers/hub/testhub"
)

// exampleFormFiles returns the example forms as testhub wants them.
func exampleFormFiles(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{}
	fs.WalkDir(exampleForms, "forms", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := exampleForms.ReadFile(path)
			files[strings.TrimSuffix(strings.TrimPrefix(path, "forms/"), ".json")] = string(data)
		}
		return err
	})
	return files
}

func TestDemoPages(t *testing.T) {
	hub := testhub.Start(t, exampleFormFiles(t))
	srv := httptest.NewServer(newDemoApp(hub.URL, slog.New(slog.NewTextHandler(io.Discard, nil))))
	defer srv.Close()
	get := func(path string) *goquery.Document {
		t.Helper()
		res, err := http.Get(srv.URL + path)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %v %v", path, res.Status, err)
		}
		defer res.Body.Close()
		doc, _ := goquery.NewDocumentFromReader(res.Body)
		return doc
	}
	index := get("/")
	for _, want := range []string{"/f/demo/contact", "/f/demo/survey", "/f/demo/unconfigured"} {
		if index.Find(`a[href="`+want+`"]`).Length() != 1 {
			t.Errorf("index lacks a link to %s", want)
		}
	}
	contact := get("/f/demo/contact")
	if contact.Find("form[data-hubform-form] input[name=_csrf]").Length() != 1 || contact.Find(`link[rel=stylesheet][href^="/hubform/static/hubform.css?v="]`).Length() != 1 {
		t.Error("the contact page lacks the CSRF token or the stylesheet")
	}
	survey := get("/f/demo/survey?locale=fr")
	if got := survey.Find("h2.hubform-title").Text(); got != "Enquête produit" {
		t.Errorf("survey in French has title %q", got)
	}
	if survey.Find(`nav a[href="?locale=de"]`).Length() != 1 || survey.Find(`nav a[aria-current][href="?locale=fr"]`).Length() != 1 {
		t.Error("the survey lacks its locale switcher")
	}
	if get("/f/demo/unconfigured").Find("[data-vendor-hubform-unconfigured]").Length() != 1 {
		t.Error("the unconfigured form shows no banner")
	}
}

func TestWriteExampleForms(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "demo"), 0o755)
	os.WriteFile(filepath.Join(dir, "demo", "contact.json"), []byte("stale"), 0o644)
	if err := writeExampleForms(dir); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "demo", "contact.json"))
	want, _ := exampleForms.ReadFile("forms/demo/contact.json")
	if string(data) != string(want) {
		t.Error("an older form file was not replaced")
	}
}
