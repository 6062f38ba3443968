package backup

import (
	"context"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// Dir is a directory backups are written to, or one backup read from.
type Dir string

// Put copies r into the directory as name, through a temporary file
// renamed once whole. It does not wait for the disk: a backup cut short by
// a crash has files the manifest's sums refuse, and syncing each file
// would take the disk from the hub's commits.
func (d Dir) Put(ctx context.Context, name string, r io.ReadSeeker, size int64) error {
	p := filepath.Join(string(d), filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	out, err := os.OpenFile(p+".part", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	err = pacedCopy(out, r)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(p+".part", p)
	}
	if err != nil {
		os.Remove(p + ".part")
	}
	return err
}

// Open opens the file name of the backup the directory is.
func (d Dir) Open(ctx context.Context, name string) (io.ReadCloser, error) {
	return os.Open(filepath.Join(string(d), filepath.FromSlash(name)))
}

// Sync waits until what the directory's file system was given is on its
// disk: once for a backup's files, once for its manifest.
func (d Dir) Sync(ctx context.Context) error {
	f, err := os.Open(string(d))
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}

// pacedChunk is how much pacedCopy writes before it has the disk take it.
const pacedChunk = 4 << 20

// pacedCopy copies in to out a chunk at a time, having the kernel write
// each chunk to the disk as the next is copied and waiting for the one
// before: a backup keeps a few megabytes unwritten at most, where a copy
// left to the kernel's writeback would leave hundreds, written at once
// ahead of the hub's commits.
func pacedCopy(out *os.File, in io.Reader) error {
	buf := make([]byte, pacedChunk)
	fd := int(out.Fd())
	var off int64
	for {
		n, err := io.ReadFull(in, buf)
		if n > 0 {
			if _, werr := out.Write(buf[:n]); werr != nil {
				return werr
			}
			unix.SyncFileRange(fd, off, int64(n), unix.SYNC_FILE_RANGE_WRITE)
			if off >= pacedChunk {
				unix.SyncFileRange(fd, off-pacedChunk, pacedChunk, unix.SYNC_FILE_RANGE_WAIT_BEFORE|unix.SYNC_FILE_RANGE_WRITE|unix.SYNC_FILE_RANGE_WAIT_AFTER)
			}
			off += int64(n)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// pacedFlush has the kernel write the file f's first size bytes to the
// disk a chunk at a time, each waited for before the next and at the pace
// p: as pacedCopy, for a file written whole by another (the database's
// snapshot).
func pacedFlush(f *os.File, size int64, p *pace) error {
	fd := int(f.Fd())
	for off := int64(0); off < size; off += pacedChunk {
		if err := p.wait(min(pacedChunk, size-off)); err != nil {
			return err
		}
		unix.SyncFileRange(fd, off, pacedChunk, unix.SYNC_FILE_RANGE_WAIT_BEFORE|unix.SYNC_FILE_RANGE_WRITE|unix.SYNC_FILE_RANGE_WAIT_AFTER)
	}
	return nil
}
