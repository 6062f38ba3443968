package conformance

import "io"

// PartsSize is the length of the file upload.parts sends.
const PartsSize = partsSize

// PartsFile returns the file upload.parts sends, from its first byte.
func PartsFile() io.Reader { return io.NewSectionReader(partsFile{}, 0, partsSize) }
