package shifting

import (
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/filetest"
)

func TestOpenViewWriteFile(t *testing.T) {
	t.Run("one array", func(t *testing.T) {
		filetest.RunMembership(t, func(n uint64) (*Filter, error) { return New(n, 0.01) }, Open, View)
	})
	t.Run("second array", func(t *testing.T) {
		filetest.RunMembership(t, func(n uint64) (*Filter, error) { return New(n, 0.01, WithSecondArray()) }, Open, View)
	})
}

func TestOpenViewWriteFileAssociation(t *testing.T) {
	filetest.Run(t, filetest.Family[*Association]{
		Build: func(t testing.TB, keys [][]byte) *Association {
			a, err := NewAssociation(uint64(len(keys)), 0.01)
			if err != nil {
				t.Fatal(err)
			}
			for i, k := range keys {
				_ = a.Add(k, Sets(1+i%3))
			}
			return a
		},
		Answer: func(a *Association, keys [][]byte) []int {
			out := make([]int, len(keys))
			for i, k := range keys {
				out[i] = int(a.Query(k))
			}
			return out
		},
		Write: func(a *Association, keys [][]byte) {
			for _, k := range keys {
				_ = a.Add(k, InBoth)
			}
		},
		Marshal:   (*Association).MarshalBinary,
		Decode:    filetest.Unmarshal[Association],
		WriteFile: (*Association).WriteFile,
		Open:      OpenAssociation,
		View:      ViewAssociation,
		Close:     (*Association).Close,
	})
}

func TestOpenViewWriteFileMultiplicity(t *testing.T) {
	for name, counters := range map[string]bool{"bits": false, "counters": true} {
		t.Run(name, func(t *testing.T) {
			filetest.Run(t, filetest.Family[*Multiplicity]{
				Build: func(t testing.TB, keys [][]byte) *Multiplicity {
					x, err := NewMultiplicity(uint64(len(keys)), 0.01, 8)
					if counters {
						x, err = NewMultiplicity(uint64(len(keys)), 0.01, 8, WithCounters())
					}
					if err != nil {
						t.Fatal(err)
					}
					for i, k := range keys {
						_ = x.Add(k, uint32(1+i%8))
					}
					return x
				},
				Answer: func(x *Multiplicity, keys [][]byte) []int {
					out := make([]int, len(keys))
					for i, k := range keys {
						out[i] = int(x.Count(k))
					}
					return out
				},
				Write: func(x *Multiplicity, keys [][]byte) {
					for _, k := range keys {
						_ = x.Add(k, 1)
					}
				},
				Marshal:   (*Multiplicity).MarshalBinary,
				Decode:    filetest.Unmarshal[Multiplicity],
				WriteFile: (*Multiplicity).WriteFile,
				Open:      OpenMultiplicity,
				View:      ViewMultiplicity,
				Close:     (*Multiplicity).Close,
			})
		})
	}
}

func TestWriteFileConcurrent(t *testing.T) {
	filetest.RunConcurrentSave(t, filetest.Concurrent[*Filter]{
		New:       func(n uint64) (*Filter, error) { return New(n, 0.01) },
		AddKey:    (*Filter).AddConcurrent,
		WriteFile: (*Filter).WriteFile,
		Open:      Open,
		Test:      (*Filter).Test,
		Close:     (*Filter).Close,
	})
}

func TestOpenGoldens(t *testing.T) {
	filetest.RunGoldens(t, "testdata/membership.golden", Open, filetest.Unmarshal[Filter])
	filetest.RunGoldens(t, "testdata/association.golden", OpenAssociation, filetest.Unmarshal[Association])
	filetest.RunGoldens(t, "testdata/multiplicity.golden", OpenMultiplicity, filetest.Unmarshal[Multiplicity])
}
