package roborio

import "github.com/frcd/frcd/hal/wpihal"

// Caps are the providers the roboRIO backend has (hal/wpihal's
// RoboRIOCaps). It builds without the roborio tag, so that `frcd validate
// --hal roborio` knows it anywhere.
var Caps = wpihal.RoboRIOCaps
