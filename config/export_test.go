package config

import "github.com/frcd/frcd/diag"

// What the external tests (package config_test, which imports devices to
// register the device types) need of the package's insides.

var SectionTypes = sectionTypes

func (t *Type) ExampleYAML(indent string) string { return t.exampleYAML(indent) }

// SetSplitMin sets the smallest file whose `joints:` list is decoded in
// pieces (split.go) and returns what undoes it.
func SetSplitMin(n int) (restore func()) {
	saved := splitMin
	splitMin = n
	return func() { splitMin = saved }
}

// ParseSplit is Parse through the split decoding only (split.go); ok is
// false where Parse would decode the file whole.
func ParseSplit(path string, data []byte) (*File, diag.List, bool) {
	return parseSplit(path, data, MergeLimit+16*len(data))
}
