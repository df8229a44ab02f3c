package ctre

import (
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/phoenix6"
)

// Caps are the providers a loaded Lib gives a backend when both of CTRE's
// libraries are present: Phoenix 5's motor controllers and Pigeon IMU,
// Phoenix 6's devices (hal/phoenix6). A real backend has them only
// through CTRE's libraries loaded at run time: they are its Vendored caps
// in the backend registry. A variable, as phoenix6.Cap is registered.
var Caps = hal.CapCANMotor | hal.CapPigeon | phoenix6.Cap

// Checklist is where a user reads how to deploy CTRE's libraries.
const Checklist = "deploy/ctre.md"
