// Package hadoop reads, writes and answers the Bloom filters of Apache
// Hadoop's org.apache.hadoop.util.bloom package, bit for bit.
package hadoop
