package main

import "runtime/debug"

// defaultMemoryLimit is frcd's soft memory limit when the environment sets
// no GOMEMLIMIT. A roboRIO 1 has 256 MB, of which NI's real-time Linux,
// its FPGA and network services and the Driver Station communications keep
// about half; frcd's resident memory stays well below this limit (`make
// mem` measures it), and near it the Go runtime collects garbage harder
// rather than growing into the memory the rest of the roboRIO needs. It is
// a soft limit: frcd is never stopped for passing it.
const defaultMemoryLimit = 64 << 20

// applyMemoryLimit sets the default soft memory limit unless GOMEMLIMIT
// (which the Go runtime has already applied, "off" included) says
// otherwise. It returns the limit in force and where it comes from.
func applyMemoryLimit(getenv func(string) string) (limit int64, from string) {
	if v := getenv("GOMEMLIMIT"); v != "" {
		return debug.SetMemoryLimit(-1), "GOMEMLIMIT=" + v
	}
	debug.SetMemoryLimit(defaultMemoryLimit)
	return defaultMemoryLimit, "frcd's default (GOMEMLIMIT changes it)"
}
