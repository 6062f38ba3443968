package sqldb

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
)

// dialectFS shows the shared migrations and those of one dialect as one
// directory of files, which is how goose reads them: one sequence of
// versions, so that CheckVersion compares with the newest of either. A
// version in both is listed twice, which goose refuses.
type dialectFS struct{ shared, own fs.FS }

// Open opens name in the dialect's directory, or else in the shared one.
func (d dialectFS) Open(name string) (fs.File, error) {
	f, err := d.own.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return d.shared.Open(name)
	}
	return f, err
}

// ReadDir lists the files of both directories in name order; the
// dialects' directories, beside the shared files, are left out.
func (d dialectFS) ReadDir(name string) ([]fs.DirEntry, error) {
	var out []fs.DirEntry
	for _, fsys := range []fs.FS{d.shared, d.own} {
		entries, err := fs.ReadDir(fsys, name)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if !e.IsDir() {
				out = append(out, e)
			}
		}
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}
