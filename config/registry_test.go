package config_test

// The controller types register with config when control loads: a test
// that reads a robot's YAML needs them (the device types come with the
// devices import of the other tests).
import _ "github.com/frcd/frcd/control"
