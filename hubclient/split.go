package hubclient

import (
	"fmt"
	"mime/multipart"
	"sort"
)

// Special value names (PROTOCOL.md §2.8).
const (
	// TokenField is the value name a captcha plugin puts its token under;
	// the pipeline sends it as captchaToken.
	TokenField = "_captchaToken"
	// LegacyTokenField is the older name of TokenField, still accepted.
	LegacyTokenField = "_turnstile"
	// IdempotencyKeyField is the value name of a submission's idempotency
	// key, which a rendered form carries in a hidden input; the pipeline
	// sends it as the top-level member idempotencyKey, never in the
	// payload. See SubmitRequest.IdempotencyKey.
	IdempotencyKeyField = "_idempotencyKey"
)

// split is form values divided as PROTOCOL.md §4 rule 3 and §2.8 say.
type split struct {
	payload      map[string]any
	files        []fieldFile
	captchaToken string
	// idempotencyKey is empty when the values carry none.
	idempotencyKey string
	honeypots      map[string]string
}

type fieldFile struct {
	field string
	file  File
}

// splitValues divides values: files and non-empty lists of only files are to
// be uploaded; the captcha token (TokenField, else LegacyTokenField) and the
// idempotency key (IdempotencyKeyField, checked by CheckIdempotencyKey)
// leave the payload; "_hp" and every string value whose name starts with "_hp" go
// top-level, empty ones too; the rest is the payload. Files are listed in
// field-name order, then in their order within the field.
func splitValues(values map[string]any) (split, error) {
	s := split{payload: make(map[string]any, len(values))}
	names := make([]string, 0, len(values))
	for name := range values {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		v := values[name]
		switch {
		case name == TokenField || name == LegacyTokenField:
			token, err := specialString(name, "a captcha token", v)
			if err != nil {
				return split{}, err
			}
			if name == TokenField || s.captchaToken == "" {
				s.captchaToken = token
			}
		case name == IdempotencyKeyField:
			key, err := specialString(name, "an idempotency key", v)
			if err != nil {
				return split{}, err
			}
			if err := CheckIdempotencyKey(key); err != nil {
				return split{}, fmt.Errorf("value %q: %w", name, err)
			}
			s.idempotencyKey = key
		case name == "_hp" || IsHoneypot(name) && isString(v):
			if hasFile(v) {
				return split{}, fmt.Errorf("value %q: a honeypot cannot hold a file", name)
			}
			if s.honeypots == nil {
				s.honeypots = make(map[string]string)
			}
			s.honeypots[name] = honeypotString(v)
		default:
			if files, ok := asFiles(v); ok {
				for _, f := range files {
					if f == nil || f.Size() < 0 {
						return split{}, fmt.Errorf("value %q: a file with no body or a negative size", name)
					}
					s.files = append(s.files, fieldFile{name, f})
				}
				continue
			}
			if hasFile(v) {
				return split{}, fmt.Errorf("value %q: files must stand alone or in a list of only files", name)
			}
			s.payload[name] = v
		}
	}
	return s, nil
}

// asFiles reports whether v is a file or a non-empty list of only files.
// An Attachment is a file already uploaded.
func asFiles(v any) ([]File, bool) {
	switch v := v.(type) {
	case []File:
		return v, len(v) > 0
	case []Attachment:
		files := make([]File, len(v))
		for i, a := range v {
			files[i] = uploaded{a}
		}
		return files, len(v) > 0
	case []*multipart.FileHeader:
		files := make([]File, 0, len(v))
		for _, fh := range v {
			f, ok := asFile(fh)
			if !ok {
				return nil, false
			}
			files = append(files, f)
		}
		return files, len(v) > 0
	case []any:
		files := make([]File, 0, len(v))
		for _, e := range v {
			f, ok := asFile(e)
			if !ok {
				return nil, false
			}
			files = append(files, f)
		}
		return files, len(v) > 0
	}
	f, ok := asFile(v)
	return []File{f}, ok
}

// asFile reports whether v is one file.
func asFile(v any) (File, bool) {
	switch v := v.(type) {
	case File:
		return v, true
	case Attachment:
		return uploaded{v}, true
	case *multipart.FileHeader:
		if v == nil {
			return nil, false
		}
		return FileFromHeader(v), true
	}
	return nil, false
}

// hasFile reports whether a file hides anywhere inside v, where it could not
// be sent.
func hasFile(v any) bool {
	switch v := v.(type) {
	case File, *multipart.FileHeader:
		return true
	case []File:
		return len(v) > 0
	case []*multipart.FileHeader:
		return len(v) > 0
	case []any:
		for _, e := range v {
			if hasFile(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range v {
			if hasFile(e) {
				return true
			}
		}
	}
	return false
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

// specialString is the string a special value holds: v itself, or the
// first non-empty string of a list, as a decoded form post gives.
func specialString(name, what string, v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case []string:
		for _, s := range v {
			if s != "" {
				return s, nil
			}
		}
		return "", nil
	case nil:
		return "", nil
	}
	return "", fmt.Errorf("value %q: %s must be a string, not %T", name, what, v)
}

func honeypotString(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case nil:
		return ""
	case []string:
		for _, s := range v {
			if s != "" {
				return s
			}
		}
		return ""
	}
	return fmt.Sprint(v)
}
