#!/usr/bin/python3
"""tfcheck: what a TF user sees of a robot, with tf2_ros as tf_echo uses it.

Usage: tfcheck.py NAMESPACE SECONDS

Reads NAMESPACE/robot_description, then for up to SECONDS listens to /tf,
/tf_static and NAMESPACE/joint_states. Prints one JSON object: the root link,
the links tf2 could not transform to from the root, how many transforms held a
NaN, how many /joint_states messages came, whether their names ever changed,
and how many positions were NaN. Exits when every link resolves and at least
20 joint states came, or at the deadline.
"""
import json
import math
import sys
import time
import xml.etree.ElementTree as ET

import rospy
import tf2_ros
from sensor_msgs.msg import JointState
from tf2_msgs.msg import TFMessage

ns, seconds = sys.argv[1].rstrip("/"), float(sys.argv[2])
rospy.init_node("tfcheck", anonymous=True, disable_signals=True)
urdf = ET.fromstring(rospy.get_param(ns + "/robot_description"))
links = [l.get("name") for l in urdf.findall("link")]
children = {j.find("child").get("link") for j in urdf.findall("joint")}
root = [l for l in links if l not in children][0]

state = {"tf_nan": 0, "joint_states": 0, "names_changed": False, "position_nan": 0, "lengths_differ": 0}
first = []


def on_tf(msg):
    for t in msg.transforms:
        r, p = t.transform.rotation, t.transform.translation
        if any(math.isnan(v) for v in (r.x, r.y, r.z, r.w, p.x, p.y, p.z)):
            state["tf_nan"] += 1


def on_js(msg):
    state["joint_states"] += 1
    if not first:
        first.append(list(msg.name))
    elif list(msg.name) != first[0]:
        state["names_changed"] = True
    if len(msg.position) != len(msg.name):
        state["lengths_differ"] += 1
    state["position_nan"] += sum(1 for p in msg.position if math.isnan(p))


buf = tf2_ros.Buffer()
tf2_ros.TransformListener(buf)
rospy.Subscriber("/tf", TFMessage, on_tf)
rospy.Subscriber(ns + "/joint_states", JointState, on_js)
deadline = time.time() + seconds
missing = links
while time.time() < deadline:
    missing = [l for l in links if l != root and not buf.can_transform(root, l, rospy.Time(0))]
    if not missing and state["joint_states"] >= 20:
        break
    time.sleep(0.1)
errors = {}
for l in missing:
    try:
        buf.lookup_transform(root, l, rospy.Time(0))
    except Exception as e:  # the error tf_echo would print
        errors[l] = str(e)
state.update(root=root, links=len(links), missing=errors, names=first[0] if first else [])
print(json.dumps(state))
rospy.signal_shutdown("done")
