package devices

// The controller types register with config when control loads: a test
// that reads a robot's YAML with controllers needs them.
import _ "github.com/frcd/frcd/control"
