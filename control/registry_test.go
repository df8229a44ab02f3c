package control

// The device types register with config when their drivers load: a test
// that reads a robot's YAML needs them.
import _ "github.com/frcd/frcd/devices"
