package engine

// KeepMode is the mode of storage that replaces s when a filter is
// decoded into an existing one (UnmarshalBinary, ReadFrom): huge pages
// if s has them, else HugePagesAuto. s may be nil (a zero filter).
func (s *Storage) KeepMode() HugePageMode {
	if s != nil && s.HugePages() {
		return HugePagesAlways
	}
	return HugePagesAuto
}
