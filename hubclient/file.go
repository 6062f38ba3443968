package hubclient

import (
	"cmp"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// File is a file to upload. Its body is read only when the upload runs, and
// streamed: a File never needs to fit in memory.
type File interface {
	// Name is the file's base name as the user knows it.
	Name() string
	// Size is the body's exact length in bytes.
	Size() int64
	// ContentType is the MIME type sent with the upload.
	ContentType() string
	// Open returns a reader of the body; the caller closes it.
	Open() (io.ReadCloser, error)
}

// NewFile returns a File whose body comes from open. An empty contentType
// means application/octet-stream.
func NewFile(name, contentType string, size int64, open func() (io.ReadCloser, error)) File {
	return &file{name: baseName(name), mime: cmp.Or(contentType, octetStream), size: size, open: open}
}

// baseName keeps the last element of a name that may carry a client's
// directory, with either kind of separator.
func baseName(name string) string {
	name = path.Base(strings.ReplaceAll(name, "\\", "/"))
	if name == "/" || name == "." || name == ".." {
		return "file"
	}
	return name
}

// FileFromHeader adapts a file of a parsed multipart form. The type is the
// one the browser declared.
func FileFromHeader(fh *multipart.FileHeader) File {
	return NewFile(fh.Filename, fh.Header.Get("Content-Type"), fh.Size, func() (io.ReadCloser, error) { return fh.Open() })
}

// FileFromPath adapts a file on disk. Its type comes from the extension when
// the extension is known, otherwise from the first 512 bytes of content.
func FileFromPath(path string) (File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	contentType := mime.TypeByExtension(filepath.Ext(path))
	if contentType == "" {
		head := make([]byte, 512)
		n, err := io.ReadFull(f, head)
		if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
			return nil, err
		}
		contentType = http.DetectContentType(head[:n])
	}
	return NewFile(info.Name(), contentType, info.Size(), func() (io.ReadCloser, error) { return os.Open(path) }), nil
}

const octetStream = "application/octet-stream"

type file struct {
	name, mime string
	size       int64
	open       func() (io.ReadCloser, error)
}

func (f *file) Name() string                 { return f.name }
func (f *file) Size() int64                  { return f.size }
func (f *file) ContentType() string          { return f.mime }
func (f *file) Open() (io.ReadCloser, error) { return f.open() }
