package spatial

import (
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/filetest"
)

func TestOpenViewWriteFile(t *testing.T) {
	for name, c := range map[string]struct {
		areas int
		opts  []engine.Option
	}{"4-bit": {4, nil}, "8-bit": {100, nil}, "16-bit": {300, nil}, "line-local": {4, []engine.Option{WithLineLocal()}}} {
		t.Run(name, func(t *testing.T) {
			filetest.Run(t, filetest.Family[*Filter]{
				Build: func(t testing.TB, keys [][]byte) *Filter {
					f, err := New(uint64(len(keys)), c.areas, 0.01, c.opts...)
					if err != nil {
						t.Fatal(err)
					}
					for i, k := range keys {
						_ = f.Insert(k, 1+i%c.areas)
					}
					return f
				},
				Answer: func(f *Filter, keys [][]byte) []int { // the area, and the batch's times 1<<16
					batch := make([]uint16, len(keys))
					f.CheckKeys(keys, batch)
					out := make([]int, len(keys))
					for i, k := range keys {
						out[i] = f.Check(k) | int(batch[i])<<16
					}
					return out
				},
				Write: func(f *Filter, keys [][]byte) {
					for _, k := range keys {
						_ = f.Insert(k, c.areas)
					}
				},
				Marshal:   (*Filter).MarshalBinary,
				Decode:    func(d []byte) (*Filter, error) { return Decode(d) },
				WriteFile: (*Filter).WriteFile,
				Open:      Open,
				View:      View,
				Close:     (*Filter).Close,
			})
		})
	}
}

func TestOpenGoldens(t *testing.T) {
	filetest.RunGoldens(t, "testdata/golden-*.sbf", Open, func(d []byte) (*Filter, error) { return Decode(d) })
}
