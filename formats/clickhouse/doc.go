// Package clickhouse reads and builds the Bloom-filter skip indexes of
// ClickHouse's MergeTree tables (tokenbf_v1, ngrambf_v1 and bloom_filter)
// bit for bit as ClickHouse writes them in a part's skp_idx_<name>.idx
// files, and answers which granules a condition keeps as ClickHouse's own
// index analysis does.
package clickhouse
