package store

import (
	"encoding/base64"

	"github.com/filterengine/filterengine/internal/errs"
)

// MarshalText is every family's MarshalText: the binary form bin (from
// the type's MarshalBinary, whose error err is passed through) in
// standard base64, so that encoding/json and other text formats carry a
// filter as one string.
func MarshalText(bin []byte, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	return base64.StdEncoding.AppendEncode(nil, bin), nil
}

// UnmarshalText is every family's UnmarshalText: it decodes MarshalText's
// base64 and hands the bytes to unmarshal, the type's UnmarshalBinary.
// Text that is not base64 is an error wrapping errs.ErrFormat.
func UnmarshalText(text []byte, unmarshal func([]byte) error) error {
	bin, err := base64.StdEncoding.AppendDecode(nil, text)
	if err != nil {
		return errs.FormatErrorf("text form is not base64: %v", err)
	}
	return unmarshal(bin)
}
