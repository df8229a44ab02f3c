// Package msg contains elements that are used to define messages.
package msg

// Package is a field that can be added to a message to set the package name.
type Package int

// Name is a field that can be added to a message to set the message name.
type Name int

// Definitions is a field that can be added to a message to add definitions.
type Definitions int
