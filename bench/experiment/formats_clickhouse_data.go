package experiment

import "math/rand/v2"

// clickHouseVocab is the word list of experiment g's ClickHouse text rows:
// 5000 words of 3 to 12 lower-case letters and digits.
func clickHouseVocab() [][]byte {
	r := rand.New(rand.NewPCG(1, 1))
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	vocab := make([][]byte, 5000)
	for i := range vocab {
		w := make([]byte, 3+r.IntN(10))
		for j := range w {
			w[j] = alphabet[r.IntN(len(alphabet))]
		}
		vocab[i] = w
	}
	return vocab
}

// clickHouseRows returns n text rows of 2 to 8 words of vocab, separated
// by one of " ,./-" (all token separators to tokenbf_v1).
func clickHouseRows(vocab [][]byte, n int, seed uint64) [][]byte {
	r := rand.New(rand.NewPCG(seed, 2))
	rows := make([][]byte, n)
	for i := range rows {
		var row []byte
		for j := range 2 + r.IntN(7) {
			if j > 0 {
				row = append(row, " ,./-"[r.IntN(5)])
			}
			row = append(row, vocab[r.IntN(len(vocab))]...)
		}
		rows[i] = row
	}
	return rows
}

// clickHouseValues returns n random UInt64 values.
func clickHouseValues(n int, seed uint64) []uint64 {
	r := rand.New(rand.NewPCG(seed, 3))
	vs := make([]uint64, n)
	for i := range vs {
		vs[i] = r.Uint64()
	}
	return vs
}
