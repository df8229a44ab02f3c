package control

// Tolerances is a goal's per-joint tolerances in the order of joints
// (Trajectory.PathTolerance, GoalTolerance) from n tolerances given by
// joint name, as control_msgs/JointTolerance gives them: tol(i) is the
// i-th's joint name and position tolerance. nil when n is 0; a joint not
// named, or a tolerance not above 0, is 0: the controller's.
func Tolerances(joints []string, n int, tol func(i int) (joint string, position float64)) []float64 {
	if n == 0 {
		return nil
	}
	out := make([]float64, len(joints))
	for i := 0; i < n; i++ {
		name, p := tol(i)
		for j, joint := range joints {
			if joint == name && p > 0 {
				out[j] = p
			}
		}
	}
	return out
}
