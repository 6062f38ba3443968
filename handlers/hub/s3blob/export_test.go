package s3blob

import "testing"

// CopyInPartsAbove has Seal copy bodies larger than max in parts of part
// bytes, for t.
func CopyInPartsAbove(t testing.TB, max, part int64) {
	oldMax, oldPart := maxCopySize, copyPartSize
	maxCopySize, copyPartSize = max, part
	t.Cleanup(func() { maxCopySize, copyPartSize = oldMax, oldPart })
}
