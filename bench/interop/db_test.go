package interop

import (
	"fmt"
	"testing"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/bloom"
	"github.com/cockroachdb/pebble/vfs"
	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/filter"
	"github.com/syndtr/goleveldb/leveldb/opt"
	"github.com/syndtr/goleveldb/leveldb/storage"
	"github.com/syndtr/goleveldb/leveldb/util"
)

const dbKeys = 5000

func dbKey(i int) []byte { return fmt.Appendf(nil, "key\x80%06d\xff", i) }

// TestGoleveldbTablesCrossRead writes tables with one filter and reads
// them back with the other, both ways: a filter that hid a key would turn
// a Get into "not found".
func TestGoleveldbTablesCrossRead(t *testing.T) {
	for _, c := range []struct {
		name        string
		write, read filter.Filter
	}{
		{"ours then goleveldb's", LevelDBFilter(10), filter.NewBloomFilter(10)},
		{"goleveldb's then ours", filter.NewBloomFilter(10), LevelDBFilter(10)},
	} {
		st := storage.NewMemStorage()
		db, err := leveldb.Open(st, &opt.Options{Filter: c.write})
		if err != nil {
			t.Fatal(err)
		}
		for i := range dbKeys {
			if err := db.Put(dbKey(i), []byte{1}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.CompactRange(util.Range{}); err != nil {
			t.Fatal(err)
		}
		db.Close()
		if db, err = leveldb.Open(st, &opt.Options{Filter: c.read}); err != nil {
			t.Fatal(err)
		}
		for i := range dbKeys {
			if _, err := db.Get(dbKey(i), nil); err != nil {
				t.Fatalf("%s: Get(%q): %v", c.name, dbKey(i), err)
			}
		}
		db.Close()
	}
}

func TestPebbleTablesCrossRead(t *testing.T) {
	for _, c := range []struct {
		name        string
		write, read pebble.FilterPolicy
	}{
		{"ours then Pebble's", PebbleFilterPolicy(10), bloom.FilterPolicy(10)},
		{"Pebble's then ours", bloom.FilterPolicy(10), PebbleFilterPolicy(10)},
	} {
		fs := vfs.NewMem()
		open := func(p pebble.FilterPolicy) *pebble.DB {
			opts := &pebble.Options{FS: fs, Levels: []pebble.LevelOptions{{FilterPolicy: p}}}
			db, err := pebble.Open("", opts)
			if err != nil {
				t.Fatal(err)
			}
			return db
		}
		db := open(c.write)
		for i := range dbKeys {
			if err := db.Set(dbKey(i), []byte{1}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
		db.Close()
		db = open(c.read)
		for i := range dbKeys {
			_, closer, err := db.Get(dbKey(i))
			if err != nil {
				t.Fatalf("%s: Get(%q): %v", c.name, dbKey(i), err)
			}
			closer.Close()
		}
		db.Close()
	}
}
