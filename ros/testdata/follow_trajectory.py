# A FollowJointTrajectory client as MoveIt's: actionlib's SimpleActionClient
# with the control_msgs types genpy made of ros/ctlmsgs. Usage:
#   follow_trajectory.py ACTION succeed|preempt|zero|badjoints|empty
# It sends 3 points for shoulder_joint and elevator_joint; with preempt it
# cancels once the feedback shows the goal 0.5 s along (half way to its
# first point). zero sends one point at time_from_start 0; badjoints the
# 3 points for shoulder_joint and wrist_joint; empty, once the 3-point goal
# is 0.5 s along, a goal without points from a second client (reported as
# "stop"). It prints the outcome as JSON.
import json
import sys

import actionlib
import rospy
from control_msgs.msg import FollowJointTrajectoryAction, FollowJointTrajectoryGoal
from trajectory_msgs.msg import JointTrajectoryPoint

action, mode = sys.argv[1], sys.argv[2]
rospy.init_node("trajectory_client", anonymous=True)
client = actionlib.SimpleActionClient(action, FollowJointTrajectoryAction)
if not client.wait_for_server(rospy.Duration(20)):
    print(json.dumps({"error": "no action server"}))
    sys.exit(1)
goal = FollowJointTrajectoryGoal()
goal.trajectory.joint_names = ["shoulder_joint", "elevator_joint"]
if mode == "badjoints":
    goal.trajectory.joint_names = ["shoulder_joint", "wrist_joint"]
points = [(1, [0.5, 0.3]), (2, [1.0, 0.6]), (3, [0.8, 0.4])]
if mode == "zero":
    points = [(0, [0.5, 0.3])]
for t, pos in points:
    p = JointTrajectoryPoint()
    p.positions = pos
    p.time_from_start = rospy.Duration(t)
    goal.trajectory.points.append(p)
feedback = []
client.send_goal(goal, feedback_cb=feedback.append)
stop = None
if mode in ("preempt", "empty"):
    deadline = rospy.Time.now() + rospy.Duration(10)
    while rospy.Time.now() < deadline and not (feedback and feedback[-1].desired.time_from_start.to_sec() > 0.5):
        rospy.sleep(0.01)
    if mode == "preempt":
        client.cancel_goal()
    else:
        stopper = actionlib.SimpleActionClient(action, FollowJointTrajectoryAction)
        stopper.wait_for_server(rospy.Duration(20))
        empty = FollowJointTrajectoryGoal()
        empty.trajectory.joint_names = ["shoulder_joint", "elevator_joint"]
        stopper.send_goal(empty)
        stop_finished = stopper.wait_for_result(rospy.Duration(30))
        stop_result = stopper.get_result()
        stop = {"finished": stop_finished, "state": stopper.get_state(),
                "error_code": stop_result.error_code if stop_result else None,
                "error_string": stop_result.error_string if stop_result else None}
finished = client.wait_for_result(rospy.Duration(30))
result = client.get_result()
print(json.dumps({
    "stop": stop,
    "finished": finished,
    "state": client.get_state(),
    "error_code": result.error_code if result else None,
    "error_string": result.error_string if result else None,
    "feedback": len(feedback),
    "last_actual": list(feedback[-1].actual.positions) if feedback else None,
}))
