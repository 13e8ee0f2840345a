package store

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"syscall"

	"github.com/zeebo/xxh3"
)

// Part is one piece of a payload that WriteFile saves: bytes as they are,
// or words read one atomic load at a time.
type Part struct {
	bytes []byte
	words []uint64
}

// BytesPart is a payload piece saved as it is; nothing may write it
// during the save.
func BytesPart(b []byte) Part { return Part{bytes: b} }

// WordsPart is a payload piece of words saved little-endian, each read
// with an atomic load, so writers that update words atomically (the
// *Concurrent forms, counting's compare-and-swap) may run during the
// save: the file then holds each word as it was at some moment of the
// save, so every key whose add returned before the save began is in it,
// and a key added or removed during it may be in it whole, in part or not
// at all.
func WordsPart(w []uint64) Part { return Part{words: w} }

func (p Part) size() uint64 { return uint64(len(p.bytes)) + 8*uint64(len(p.words)) }

// saveChunk is how many file bytes WriteFile stages and writes at a
// time: 2 MiB at 2 MiB-aligned file offsets, the header included in the
// first, so a file system with large folios (ext4 since Linux 6.16, XFS)
// keeps the saved file in the page cache as 2 MiB folios, which a filter
// opened from it maps as huge pages (mapFile). Writes of another size or
// alignment leave smaller folios there, and a mapping then gets 4 KiB
// pages until the file leaves the page cache.
const saveChunk = hugeFolio

// hugeFolio is the huge-page size of amd64 and of arm64 with 4 KiB pages.
const hugeFolio = 2 << 20

// tempPattern is the temporary file's name pattern for a file named base:
// ".base.tmp-*", with base cut to tempBase bytes so that a name the file
// system takes (up to 255 bytes) still leaves room for the rest.
func tempPattern(base string) string {
	if len(base) > tempBase {
		base = base[:tempBase]
	}
	return "." + base + ".tmp-*"
}

// tempBase is the most bytes of the target's name a temporary name keeps:
// 255 (NAME_MAX on Linux and most file systems) less the dot, ".tmp-" and
// the 20 digits os.CreateTemp may put for the star.
const tempBase = 255 - 1 - 5 - 20

// WriteFile saves one envelope of header h and the payload parts to path
// atomically: it writes a temporary file in path's directory, syncs it
// to disk, renames it over path and syncs the directory, so a crash at
// any moment leaves path holding either its old content or the new one,
// whole, and never a torn file. The payload is streamed through a 2 MiB
// buffer (checksummed as written, the header written last), so saving
// takes no second copy of a large filter. The file gets mode 0644 (set
// by chmod, so the umask does not narrow it); an error removes the
// temporary file.
//
// A path that is a symbolic link is written through: the file it points
// to (following a chain of links, and created if the last link dangles)
// is replaced atomically in its own directory, and the link stays a
// link, as a user who links a well-known name to a versioned file
// expects.
func WriteFile(path string, h Header, parts ...Part) (err error) {
	path, err = followLinks(path)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, tempPattern(base))
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	var n uint64
	for _, p := range parts {
		n += p.size()
	}
	hdr, err := encodeHeaderSum(h, 0, n) // the checksum is written last
	if err != nil {
		return err
	}
	sum, err := streamParts(tmp, hdr[:], parts)
	if err != nil {
		return err
	}
	if hdr, err = encodeHeaderSum(h, sum, n); err != nil {
		return err
	}
	if _, err = tmp.WriteAt(hdr[:], 0); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return syncDir(dir)
}

// streamParts writes head and then the parts to f through one buffer of
// saveChunk bytes and returns the XXH3 of the parts' bytes.
func streamParts(f *os.File, head []byte, parts []Part) (uint64, error) {
	h := xxh3.New()
	buf := append(make([]byte, 0, saveChunk), head...)
	skip := len(head) // bytes of buf that are not payload
	flush := func() error {
		_, _ = h.Write(buf[skip:])
		_, err := f.Write(buf)
		buf, skip = buf[:0], 0
		return err
	}
	for _, p := range parts {
		for b := p.bytes; len(b) > 0; {
			c := min(len(b), saveChunk-len(buf))
			buf, b = append(buf, b[:c]...), b[c:]
			if len(buf) == saveChunk {
				if err := flush(); err != nil {
					return 0, err
				}
			}
		}
		for i := range p.words {
			buf = binary.LittleEndian.AppendUint64(buf, atomic.LoadUint64(&p.words[i]))
			if len(buf) == saveChunk {
				if err := flush(); err != nil {
					return 0, err
				}
			}
		}
	}
	if err := flush(); err != nil {
		return 0, err
	}
	return h.Sum64(), nil
}

// syncDir makes a rename in dir durable. Windows cannot sync a
// directory; its rename is already atomic and the file was synced.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// maxLinks is how many symbolic links followLinks follows before it gives
// up, as the kernel's ELOOP does (40 on Linux).
const maxLinks = 40

// followLinks returns the file that path names after its last component's
// symbolic links are followed: path itself unless it is a link, the
// target of a dangling link. Links among the directories need no
// following: the rename goes through them.
func followLinks(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return path, nil // no file yet, or not a link
		}
		target, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return "", &os.PathError{Op: "writefile", Path: path, Err: syscall.ELOOP}
}
