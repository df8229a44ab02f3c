package ctre

import "github.com/frcd/frcd/hal"

// Caps are the providers a loaded Lib gives a backend when both of CTRE's
// libraries are present: Phoenix 5's motor controllers and Pigeon IMU,
// Phoenix 6's devices.
const Caps = hal.VendorCaps

// Checklist is where a user reads how to deploy CTRE's libraries.
const Checklist = "deploy/ctre.md"
