package static

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strconv"
	"strings"

	"github.com/andybalholm/brotli"
)

// An encoding is one representation of an asset: its bytes as sent, under
// a Content-Encoding ("" for the bytes themselves), with an ETag of its own,
// since a cache must not take one representation for another.
type encoding struct {
	name string // Content-Encoding: "br", "gzip" or ""
	data []byte
	etag string
}

// compressors are the encodings offered besides identity, best first: when
// a client accepts both equally, it gets brotli, the smaller.
var compressors = []struct {
	name     string
	compress func([]byte) []byte
}{
	{"br", func(data []byte) []byte {
		var buf bytes.Buffer
		w := brotli.NewWriterLevel(&buf, brotli.BestCompression)
		w.Write(data) // writes to a bytes.Buffer do not fail
		w.Close()
		return buf.Bytes()
	}},
	{"gzip", func(data []byte) []byte {
		var buf bytes.Buffer
		w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // the level is valid
		w.Write(data)
		w.Close()
		return buf.Bytes()
	}},
}

// encode returns the representations of data, identity last. Each is
// compressed once, here, at the best level, since it is served many times;
// a compression that saves nothing is left out.
func encode(data []byte, etag string) []encoding {
	var out []encoding
	for _, c := range compressors {
		z := c.compress(data)
		if len(z) >= len(data) {
			continue
		}
		// The suffix sits inside the quotes: "hash-br" is a strong ETag.
		out = append(out, encoding{name: c.name, data: z, etag: strings.TrimSuffix(etag, `"`) + "-" + c.name + `"`})
	}
	return append(out, encoding{data: data, etag: etag})
}

// choose returns the representation to send for an Accept-Encoding header:
// the one the client weighs highest among those it accepts, the earlier one
// of equal weight, and identity when it accepts none of the others.
func choose(encs []encoding, header []string) *encoding {
	best, bestQ := &encs[len(encs)-1], 0.0
	if len(header) == 0 {
		return best
	}
	weights := acceptedEncodings(header)
	for i := range encs[:len(encs)-1] {
		q, ok := weights[encs[i].name]
		if !ok {
			q, ok = weights["*"]
		}
		if ok && q > bestQ {
			best, bestQ = &encs[i], q
		}
	}
	return best
}

// acceptedEncodings parses Accept-Encoding values into weights by coding,
// in lower case: "gzip;q=0.5, br" gives gzip 0.5 and br 1. A coding with
// q=0 is refused; a weight that does not parse counts as 0.
func acceptedEncodings(header []string) map[string]float64 {
	weights := map[string]float64{}
	for _, value := range header {
		for _, item := range strings.Split(value, ",") {
			coding, params, _ := strings.Cut(item, ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding == "" {
				continue
			}
			q := 1.0
			for _, p := range strings.Split(params, ";") {
				k, v, _ := strings.Cut(p, "=")
				if strings.EqualFold(strings.TrimSpace(k), "q") {
					var err error
					if q, err = strconv.ParseFloat(strings.TrimSpace(v), 64); err != nil {
						q = 0
					}
				}
			}
			weights[coding] = q
		}
	}
	return weights
}

// setEncoding sets the headers that describe enc on h. Vary is set on every
// answer of an asset that has several representations, the identity one
// too, so that a shared cache keeps them apart.
func setEncoding(h http.Header, enc *encoding, several bool) {
	if several {
		h.Add("Vary", "Accept-Encoding")
	}
	if enc.name != "" {
		h.Set("Content-Encoding", enc.name)
	}
	h.Set("ETag", enc.etag)
}
