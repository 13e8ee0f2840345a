package filetest

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"unsafe"
)

// Pages says how the memory at one address is backed, from the
// /proc/self/smaps entry of the mapping that holds it, in MiB: Rss, the
// part mapped as 2 MiB page-cache folios (FilePmdMapped, a mapped file on
// huge pages), the anonymous part (Anonymous: memory the filter
// allocated, or private copies of a mapped file's written pages) and of
// that the anonymous huge pages (AnonHugePages). Zero where smaps is
// missing (not Linux) or names no mapping holding p.
type Pages struct {
	RSS, FilePmdMapped, Anon, AnonHuge float64
}

// PagesAt reads the smaps entry of the mapping holding p.
func PagesAt(p unsafe.Pointer) Pages {
	var out Pages
	data, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return out
	}
	addr := uint64(uintptr(p))
	in := false
	s := bufio.NewScanner(bytes.NewReader(data))
	for s.Scan() {
		line := s.Text()
		field, rest, _ := strings.Cut(line, " ")
		if lo, hi, ok := strings.Cut(field, "-"); ok && !strings.HasSuffix(field, ":") {
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && l <= addr && addr < h
			continue
		}
		if !in {
			continue
		}
		kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
		if err != nil {
			continue
		}
		switch field {
		case "Rss:":
			out.RSS = kb / 1024
		case "FilePmdMapped:":
			out.FilePmdMapped = kb / 1024
		case "Anonymous:":
			out.Anon = kb / 1024
		case "AnonHugePages:":
			out.AnonHuge = kb / 1024
		}
	}
	return out
}
