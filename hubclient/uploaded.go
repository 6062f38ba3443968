package hubclient

import (
	"errors"
	"io"
)

// errUploaded is what opening a file already uploaded returns: the caller
// holds its attachment, never its body.
var errUploaded = errors.New("hubclient: the file is already in the hub's storage")

// uploaded is an Attachment given as a value: a file that a browser sent
// straight to the hub's storage. The pipeline sends its attachment and
// uploads nothing.
type uploaded struct{ a Attachment }

func (u uploaded) Name() string                 { return u.a.Filename }
func (u uploaded) Size() int64                  { return u.a.Size }
func (u uploaded) ContentType() string          { return u.a.MIME }
func (u uploaded) Open() (io.ReadCloser, error) { return nil, errUploaded }
