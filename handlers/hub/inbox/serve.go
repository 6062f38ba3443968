package inbox

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strconv"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/export"
	"github.com/hubform/hubform/hubclient"
)

// ServeFile answers a download of attachment a: a redirect to a presigned
// link when the files are in a bucket, else the file itself, always as
// application/octet-stream so that nothing a visitor sent is shown. The
// error wraps hub.ErrNotFound when the file is no longer stored.
func (in *Inbox) ServeFile(w http.ResponseWriter, r *http.Request, a hubclient.Attachment) error {
	ctx := r.Context()
	if signer, ok := in.Files.(LinkSigner); ok {
		link, err := signer.SignedGetURL(ctx, a.Key, a.Filename, DownloadLinkExpiry)
		if err != nil {
			return hub.Internal("signing a download link", err)
		}
		http.Redirect(w, r, link, http.StatusSeeOther)
		return nil
	}
	body, err := in.Files.NewReader(ctx, a.Key)
	if err != nil {
		return err
	}
	defer body.Close()
	h := w.Header()
	disposition := mime.FormatMediaType("attachment", map[string]string{"filename": a.Filename})
	if disposition == "" {
		disposition = "attachment"
	}
	h.Set("Content-Disposition", disposition)
	h.Set("Content-Length", strconv.FormatInt(a.Size, 10))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Type", "application/octet-stream")
	w.WriteHeader(http.StatusOK)
	// The status is sent: a copy cut short ends the download short.
	_, err = io.Copy(w, body)
	return err
}

// exportBuffer is the size of the pieces an export is sent in.
var exportBuffer = 64 << 10

// exporters are the export formats.
var exporters = map[string]struct {
	write       func(context.Context, export.Lister, hub.Filter, io.Writer) error
	contentType string
}{
	"csv":  {export.CSV, "text/csv; charset=utf-8"},
	"json": {export.JSON, "application/json"},
}

// ValidFormat reports whether format is an export format: csv or json.
func ValidFormat(format string) bool {
	_, ok := exporters[format]
	return ok
}

// Export answers the submissions f selects, oldest first, as a download in
// format, csv or json (see ValidFormat), streamed a submission at a time.
func (in *Inbox) Export(w http.ResponseWriter, r *http.Request, form *hub.Form, format string, f hub.Filter) error {
	e, ok := exporters[format]
	if !ok {
		return fmt.Errorf("export format %q", format)
	}
	f.Before, f.Newest, f.Limit = "", false, 0
	return in.serveExport(w, r, form, format, func(w io.Writer) error { return e.write(r.Context(), in.Store, f, w) })
}

// serveExport answers an export in format made by write.
func (in *Inbox) serveExport(w http.ResponseWriter, r *http.Request, form *hub.Form, format string, write func(io.Writer) error) error {
	h := w.Header()
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": form.Site + "-" + form.Slug + "." + format}))
	h.Set("Content-Type", exporters[format].contentType)
	w.WriteHeader(http.StatusOK)
	// Written as it comes, an export reaches the connection in the CSV
	// writer's pieces of 4 KiB, each a system call and a chunk to read:
	// over HTTP it went at half the rate the store reads. Larger pieces
	// cost a buffer per download, no more.
	buf := bufio.NewWriterSize(w, exportBuffer)
	err := write(buf)
	if err == nil {
		err = buf.Flush()
	}
	if err != nil {
		// The status is sent; the download ends short, and the log says why.
		in.Logger.ErrorContext(r.Context(), "export cut short", slog.String("site", form.Site), slog.String("form", form.Slug), slog.Any("error", err))
	}
	return nil
}

// sheets are the export formats laid out for people.
var sheets = map[string]func(context.Context, export.Lister, hub.Filter, export.Sheet, io.Writer) error{
	"csv":  export.SheetCSV,
	"json": export.SheetJSON,
}

// ExportSheet answers the submissions f selects, oldest first, as a
// download in format, csv or json, laid out for people by sh (see
// export.Sheet), streamed a submission at a time.
func (in *Inbox) ExportSheet(w http.ResponseWriter, r *http.Request, form *hub.Form, format string, f hub.Filter, sh export.Sheet) error {
	write, ok := sheets[format]
	if !ok {
		return fmt.Errorf("export format %q", format)
	}
	f.Before, f.Newest, f.Limit = "", false, 0
	return in.serveExport(w, r, form, format, func(w io.Writer) error { return write(r.Context(), in.Store, f, sh, w) })
}
