package spatial

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

func TestNewErrors(t *testing.T) {
	cases := []struct {
		name string
		make func() (*Filter, error)
	}{
		{"n=0", func() (*Filter, error) { return New(0, 3, 0.01) }},
		{"p=0", func() (*Filter, error) { return New(100, 3, 0) }},
		{"p<0", func() (*Filter, error) { return New(100, 3, -0.5) }},
		{"p=1", func() (*Filter, error) { return New(100, 3, 1) }},
		{"p=NaN", func() (*Filter, error) { return New(100, 3, math.NaN()) }},
		{"areas=0", func() (*Filter, error) { return New(100, 0, 0.01) }},
		{"areas<0", func() (*Filter, error) { return New(100, -1, 0.01) }},
		{"areas>65535", func() (*Filter, error) { return New(100, 65536, 0.01) }},
		{"overflow", func() (*Filter, error) { return New(math.MaxUint64, 3, 1e-9) }},
		{"m=0", func() (*Filter, error) { return NewMK(0, 3, 3) }},
		{"k=0", func() (*Filter, error) { return NewMK(100, 0, 3) }},
		{"k>MaxK", func() (*Filter, error) { return NewMK(100, engine.MaxK+1, 3) }},
		{"m>MaxCells", func() (*Filter, error) { return NewMK(MaxCells+1, 3, 3) }},
		{"unknown option", func() (*Filter, error) { return NewMK(100, 3, 3, config.FamilyOption(42)) }},
		{"sizeForAreas none", func() (*Filter, error) { return NewAreas(nil, 0.01) }},
		{"sizeForAreas zero keys", func() (*Filter, error) { return NewAreas([]uint64{0, 0}, 0.01) }},
		{"sizeForAreas overflow", func() (*Filter, error) { return NewAreas([]uint64{math.MaxUint64, 2}, 0.01) }},
		{"sizeForAreas p=NaN", func() (*Filter, error) { return NewAreas([]uint64{5, 5}, math.NaN()) }},
	}
	for _, c := range cases {
		f, err := c.make()
		if err == nil || f != nil || !errors.Is(err, engine.ErrParam) {
			t.Errorf("%s: got (%v, %v), want an ErrParam error", c.name, f, err)
		}
	}
}

// TestCellWidth: the narrowest width that holds every label, and an array
// of exactly that many bits (rounded up to a byte) plus the gather padding.
func TestCellWidth(t *testing.T) {
	for _, c := range []struct{ areas, bits int }{{1, 4}, {15, 4}, {16, 8}, {255, 8}, {256, 16}, {65535, 16}} {
		for _, m := range []uint64{1000, 1001} {
			f, err := NewMK(m, 3, c.areas)
			if err != nil {
				t.Fatal(err)
			}
			if f.CellBits() != c.bits {
				t.Errorf("%d areas: %d-bit cells, want %d", c.areas, f.CellBits(), c.bits)
			}
			if want := (m*uint64(c.bits)+7)/8 + cellPad; uint64(len(f.cells)) < want || uint64(len(f.cells)) >= want+64 {
				t.Errorf("%d areas, m = %d: %d bytes of cells, want %d rounded up to 8", c.areas, m, len(f.cells), want)
			}
		}
	}
}

func TestOptions(t *testing.T) {
	f, err := NewMK(1000, 3, 5, engine.WithSeed(99), engine.WithHugePages(engine.HugePagesAlways))
	if err != nil {
		t.Fatal(err)
	}
	if f.Seed() != 99 || f.hash([]byte("x")) != engine.HashSeed([]byte("x"), 99) {
		t.Errorf("WithSeed(99) ignored: seed %d", f.Seed())
	}
	g, err := NewMK(1000, 3, 5, engine.WithHugePages(engine.HugePagesNever))
	if err != nil {
		t.Fatal(err)
	}
	if g.HugePages() {
		t.Error("HugePagesNever filter lives in mapped memory")
	}
	if err := f.Close(); err != nil {
		t.Error(err)
	}
}

func TestInsertAreaErrors(t *testing.T) {
	f := mustNew(t, 100, 4, 0.01)
	for _, a := range []int{0, -1, 5, 1 << 20} {
		if err := f.Insert([]byte("k"), a); !errors.Is(err, engine.ErrParam) {
			t.Errorf("Insert area %d: %v, want ErrParam", a, err)
		}
		if err := f.InsertHashes([]uint64{1, 2}, a); !errors.Is(err, engine.ErrParam) {
			t.Errorf("InsertHashes area %d: %v, want ErrParam", a, err)
		}
		if err := f.InsertKeys([][]byte{[]byte("k")}, a); !errors.Is(err, engine.ErrParam) {
			t.Errorf("InsertKeys area %d: %v, want ErrParam", a, err)
		}
		if err := f.InsertUint64s([]uint64{1}, a); !errors.Is(err, engine.ErrParam) {
			t.Errorf("InsertUint64s area %d: %v, want ErrParam", a, err)
		}
	}
	if s := f.Stats(); s.Members != 0 || s.NonZero != 0 {
		t.Errorf("rejected inserts changed the filter: %d members, %d cells", s.Members, s.NonZero)
	}
}

// insertForms is the number of insert forms of insertShuffled.
const insertForms = 6

// insertShuffled inserts n keys per area, areas interleaved in a random
// order, through the given insert form: 0 Insert, 1 InsertKeys,
// 2 InsertUint64s, 3 InsertHashes, 4 InsertUint64, 5 InsertString.
func insertShuffled(t *testing.T, f *Filter, n int, form int, seed uint64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	order := r.Perm(f.Areas())
	for _, i := range order {
		area := i + 1
		keys, ks := keysOf(uint64(area), n)
		var err error
		switch form {
		case 0:
			for _, key := range keys {
				if err = f.Insert(key, area); err != nil {
					break
				}
			}
		case 1:
			err = f.InsertKeys(keys, area)
		case 2:
			err = f.InsertUint64s(ks, area)
		case 4:
			for _, k := range ks {
				if err = f.InsertUint64(k, area); err != nil {
					break
				}
			}
		case 5:
			for _, key := range keys {
				if err = f.InsertString(string(key), area); err != nil {
					break
				}
			}
		default:
			hs := make([]uint64, n)
			for j, key := range keys {
				hs[j] = f.hash(key)
			}
			err = f.InsertHashes(hs, area)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestNoFalseNegatives: an inserted key never checks 0 nor below its own
// area, through every insert and check form, on every kernel, for every
// cell width (4-bit up to 15 areas, 8-bit to 255, 16-bit) and both
// layouts, with areas inserted in random order.
func TestNoFalseNegatives(t *testing.T) {
	for _, layout := range layoutOptions {
		for _, c := range []struct{ areas, n int }{{10, 2000}, {15, 1000}, {100, 200}, {300, 100}} {
			for form := range insertForms {
				f, err := New(uint64(c.n*c.areas), c.areas, 0.05, engine.WithSeed(uint64(form)), layout.opt)
				if err != nil {
					t.Fatal(err)
				}
				insertShuffled(t, f, c.n, form, uint64(c.areas))
				checkMembers(t, f, c.n)
			}
		}
	}
}

// layoutOptions are the two layouts as New options.
var layoutOptions = []struct {
	name string
	opt  engine.Option
}{{"libsbf", engine.WithSeed(0)}, {"line-local", WithLineLocal()}}

// TestInsertFormsAgree: Insert, InsertUint64 (the 8 little-endian bytes)
// and InsertString build the same cells and statistics, in both layouts
// and every width.
func TestInsertFormsAgree(t *testing.T) {
	for _, layout := range layoutOptions {
		for _, areas := range []int{6, 40, 700} {
			var want *Filter
			for _, form := range []int{0, 4, 5} {
				f, err := New(3000, areas, 0.01, layout.opt)
				if err != nil {
					t.Fatal(err)
				}
				insertShuffled(t, f, 3000/areas, form, 3)
				if want == nil {
					want = f
					continue
				}
				if !slices.Equal(f.cells, want.cells) || f.Stats().Collisions != want.Stats().Collisions {
					t.Errorf("%s, %d areas: insert form %d builds another filter than Insert", layout.name, areas, form)
				}
			}
		}
	}
}

// checkMembers verifies every key of every area on every kernel.
func checkMembers(t *testing.T, f *Filter, n int) {
	t.Helper()
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		out := make([]uint16, n)
		for area := 1; area <= f.Areas(); area++ {
			keys, ks := keysOf(uint64(area), n)
			for form := range checkForms {
				got := checkAll(f, keys, ks, out, form)
				for i, v := range got {
					if int(v) < area {
						t.Fatalf("area %d key %d checks %d", area, i, v)
					}
				}
			}
		}
	})
}

// checkForms is the number of check forms of checkAll.
const checkForms = 6

// checkAll answers every key through one form: 0 Check, 1 CheckKeys,
// 2 CheckUint64s, 3 CheckHashes, 4 CheckUint64, 5 CheckString. It also
// checks the hit count.
func checkAll(f *Filter, keys [][]byte, ks []uint64, out []uint16, form int) []uint16 {
	out = out[:len(keys)]
	hits := 0
	switch form {
	case 0:
		for i, key := range keys {
			out[i] = uint16(f.Check(key))
			if out[i] != 0 {
				hits++
			}
		}
	case 1:
		hits = f.CheckKeys(keys, out)
	case 2:
		hits = f.CheckUint64s(ks, out)
	case 4, 5:
		for i, key := range keys {
			if form == 4 {
				out[i] = uint16(f.CheckUint64(ks[i]))
			} else {
				out[i] = uint16(f.CheckString(string(key)))
			}
			if out[i] != 0 {
				hits++
			}
		}
	default:
		hs := make([]uint64, len(keys))
		for i, key := range keys {
			hs[i] = f.hash(key)
		}
		hits = f.CheckHashes(hs, out)
	}
	nonzero := 0
	for _, v := range out {
		if v != 0 {
			nonzero++
		}
	}
	if hits != nonzero {
		panic("hit count differs from the non-zero answers")
	}
	return slices.Clone(out)
}

// TestBatchMatchesScalar compares every batch form with Check on absent
// and present keys at sizes around the vector widths, on every kernel.
func TestBatchMatchesScalar(t *testing.T) {
	for _, layout := range layoutOptions {
		for _, areas := range []int{7, 100, 1000} {
			f, err := New(20000, areas, 0.2, layout.opt)
			if err != nil {
				t.Fatal(err)
			}
			insertShuffled(t, f, 20000/areas, 3, 5)
			kerneltest.ForEachLevel(t, func(t *testing.T) {
				for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, 5000} {
					keys, ks := keysOf(0xabc+uint64(n), n)
					out := make([]uint16, n)
					want := checkAll(f, keys, ks, out, 0)
					for form := 1; form < checkForms; form++ {
						if got := checkAll(f, keys, ks, out, form); !slices.Equal(got, want) {
							t.Fatalf("%s areas %d n %d form %d differs from Check", layout.name, areas, n, form)
						}
					}
				}
			})
		}
	}
}

// TestSingleKeyAllocs: the single-key forms allocate nothing, strings of
// 1 to 4096 bytes included.
func TestSingleKeyAllocs(t *testing.T) {
	for _, layout := range layoutOptions {
		f, err := New(1000, 3, 0.01, layout.opt)
		if err != nil {
			t.Fatal(err)
		}
		long := string(bytes.Repeat([]byte("0123456789abcdef"), 256))
		for _, n := range []int{1, 7, 8, 16, 17, 31, 32, 33, 128, 129, 240, 241, 1000, 4096} {
			s := long[:n]
			if a := testing.AllocsPerRun(20, func() {
				_ = f.InsertString(s, 2)
				sink += f.CheckString(s)
			}); a != 0 {
				t.Errorf("%s: InsertString and CheckString of %d bytes allocate %v times", layout.name, n, a)
			}
		}
		if a := testing.AllocsPerRun(20, func() {
			_ = f.InsertUint64(12345, 3)
			_ = f.Insert([]byte("abcdefgh"), 1)
			sink += f.CheckUint64(12345) + f.Check([]byte("abcdefgh"))
		}); a != 0 {
			t.Errorf("%s: InsertUint64, Insert, CheckUint64, Check allocate %v times", layout.name, a)
		}
	}
}

// TestInsertOrder: max-insertion in any order builds the same cells as the
// papers' ascending order.
func TestInsertOrder(t *testing.T) {
	a := mustNew(t, 5000, 5, 0.1)
	b := mustNew(t, 5000, 5, 0.1)
	for area := 1; area <= 5; area++ {
		keys, _ := keysOf(uint64(area), 1000)
		if err := a.InsertKeys(keys, area); err != nil {
			t.Fatal(err)
		}
	}
	insertShuffled(t, b, 1000, 0, 9)
	if !slices.Equal(a.cells, b.cells) {
		t.Error("random-order insertion built different cells from ascending order")
	}
	if sa, sb := a.Stats(), b.Stats(); sa.Members != sb.Members || sa.NonZero != sb.NonZero {
		t.Errorf("stats differ: %+v vs %+v", sa, sb)
	}
}

func TestCheckAllocs(t *testing.T) {
	f := mustNew(t, 1000, 3, 0.01)
	keys, ks := keysOf(1, 1000)
	hs := make([]uint64, len(keys))
	for i, key := range keys {
		hs[i] = f.hash(key)
	}
	out := make([]uint16, len(keys))
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		for name, fn := range map[string]func(){
			"CheckHashes":   func() { f.CheckHashes(hs, out) },
			"CheckKeys":     func() { f.CheckKeys(keys, out) },
			"CheckUint64s":  func() { f.CheckUint64s(ks, out) },
			"InsertHashes":  func() { _ = f.InsertHashes(hs, 2) },
			"InsertUint64s": func() { _ = f.InsertUint64s(ks, 3) },
			"InsertKeys":    func() { _ = f.InsertKeys(keys, 1) },
		} {
			if a := testing.AllocsPerRun(5, fn); a != 0 {
				t.Errorf("%s allocates %v times per batch", name, a)
			}
		}
	})
}

func TestSize(t *testing.T) {
	for _, c := range []struct {
		n uint64
		p float64
	}{{1, 0.5}, {1000, 0.01}, {1e6, 0.001}, {1e6, 1e-6}} {
		m, k, err := sizeFor(c.n, c.p)
		if err != nil {
			t.Fatal(err)
		}
		if fpr := engine.FPR(m, c.n, k); fpr > c.p {
			t.Errorf("sizeFor(%d, %v) = (%d, %d) with FPR %v", c.n, c.p, m, k, fpr)
		}
		if opt := engine.OptimalBitsFloat(c.n, c.p); float64(m) > 1.05*opt+64 {
			t.Errorf("sizeFor(%d, %v) = %d cells, optimum %.0f", c.n, c.p, m, opt)
		}
	}
}

func TestSizeAreas(t *testing.T) {
	counts := []uint64{5000, 3000, 1000, 500, 100}
	const p = 0.001
	m, k, err := sizeForAreas(counts, p)
	if err != nil {
		t.Fatal(err)
	}
	_, model, _ := apriori(newLayout(m, k, 0), counts)
	for i, a := range model {
		if a.fpr > p || a.isep > p {
			t.Errorf("area %d: fpr %v isep %v above %v", i+1, a.fpr, a.isep, p)
		}
	}
	var n uint64
	for _, c := range counts {
		n += c
	}
	mAll, _, _ := sizeFor(n, p)
	if m >= mAll {
		t.Errorf("sizeForAreas gave %d cells, no fewer than Size's %d", m, mAll)
	}
	// One fewer cell must break the bound for every k (m is minimal for k).
	if fits := func(m uint64) bool {
		_, model, _ := apriori(newLayout(m, k, 0), counts)
		for _, a := range model {
			if a.fpr > p || a.isep > p {
				return false
			}
		}
		return true
	}; fits(m - 1) {
		t.Errorf("sizeForAreas m = %d is not minimal for k = %d", m, k)
	}
}
