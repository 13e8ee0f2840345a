// Package dataset generates the data sets of the awesome-bloom-filters
// evaluation: normal(0, 1),
// uniform(0, 10) and exponential(rate 100) doubles from seed 2022, in
// memory and deterministically.
//
// The seed generated them with C++ <random> (default_random_engine, which
// is minstd_rand0 in libstdc++, and the standard distributions) and wrote
// each value with the default ostream format, six significant digits. This
// package reproduces libstdc++'s algorithms exactly — the engine, its
// generate_canonical, Marsaglia's polar method for the normal, the inverse
// CDF for the exponential — so Source yields the very doubles the seed's
// program yields on Linux, and TextKey the very lines it wrote (checked
// against g++ output in testdata/). Each distribution has its own engine
// seeded with 2022.
//
// Six significant digits make duplicates: at 1e7 rows uniform(0, 10) has
// only about 1.9e6 distinct text keys. Keys.Distinct counts them, since a
// filter's false-positive rate depends on distinct keys, not rows.
package dataset
