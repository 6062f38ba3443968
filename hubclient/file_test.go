package hubclient_test

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

func TestFileFromPathType(t *testing.T) {
	dir := t.TempDir()
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	for _, tc := range []struct {
		name string
		body []byte
		want string
	}{
		{"photo.png", png, "image/png"},
		{"photo", png, "image/png"}, // no extension: the content decides
		{"notes", []byte("hello"), "text/plain; charset=utf-8"},
		{"data.json", []byte("{}"), "application/json"}, // the extension decides
		{"blob", []byte{0, 1, 2, 3}, "application/octet-stream"},
		{"empty", nil, "text/plain; charset=utf-8"},
	} {
		path := filepath.Join(dir, tc.name)
		os.WriteFile(path, tc.body, 0o600)
		f, err := hubclient.FileFromPath(path)
		if err != nil {
			t.Fatal(err)
		}
		if f.ContentType() != tc.want || f.Name() != tc.name || f.Size() != int64(len(tc.body)) {
			t.Errorf("%s: %q %q %d, want %q", tc.name, f.Name(), f.ContentType(), f.Size(), tc.want)
		}
	}
	if _, err := hubclient.FileFromPath(dir); err == nil {
		t.Error("a directory was taken as a file")
	}
	if _, err := hubclient.FileFromPath(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing file was taken")
	}
}

func TestNewFileKeepsOnlyTheBaseName(t *testing.T) {
	for in, want := range map[string]string{
		"a.txt": "a.txt", "/etc/passwd": "passwd", `C:\Users\me\cv.pdf`: "cv.pdf", "../..": "file", "": "file", "dir/": "dir",
	} {
		if got := hubclient.NewFile(in, "", 0, nil).Name(); got != want {
			t.Errorf("NewFile(%q).Name() = %q, want %q", in, got, want)
		}
	}
}

// TestMultipartFilesUpload posts a real multipart form, parses it with a
// small memory limit so the files spool to disk, and submits the headers.
func TestMultipartFilesUpload(t *testing.T) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	big := bytes.Repeat([]byte("0123456789"), 100_000)
	for _, f := range []struct {
		name string
		body []byte
	}{{"one.bin", big}, {"two.txt", []byte("second")}} {
		w, _ := mw.CreateFormFile("docs", f.name)
		w.Write(f.body)
	}
	mw.WriteField("name", "Jane")
	mw.Close()
	r := httptest.NewRequest("POST", "/", &buf)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	if err := r.ParseMultipartForm(1 << 10); err != nil {
		t.Fatal(err)
	}
	defer r.MultipartForm.RemoveAll()

	h := newHub(t)
	values := map[string]any{"docs": r.MultipartForm.File["docs"], "name": r.MultipartForm.Value["name"][0]}
	if _, err := submitter(h, hubclient.SubmitOptions{}).OnSubmit(context.Background(), values); err != nil {
		t.Fatal(err)
	}
	att := h.Submissions()[0].Request.Attachments
	if len(att) != 2 || att[0].Filename != "one.bin" || att[0].Size != int64(len(big)) || att[1].Filename != "two.txt" {
		t.Fatalf("attachments %+v", att)
	}
	assertStored(t, h, att[0].Key, "application/octet-stream", string(big))
	assertStored(t, h, att[1].Key, "application/octet-stream", "second")
}
