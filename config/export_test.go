package config

// What the external tests (package config_test, which imports devices to
// register the device types) need of the package's insides.

var SectionTypes = sectionTypes

func (t *Type) ExampleYAML(indent string) string { return t.exampleYAML(indent) }
