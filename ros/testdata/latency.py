#!/usr/bin/python3
"""latency.py: /joint_states latency at a rospy subscriber with default
transport hints: receive time minus header.stamp (the loop's time of the
snapshot), for N messages. Usage: latency.py TOPIC N. Prints JSON: count,
p50, p99, max (ms), and the gaps (ms) between arrivals: p99, max."""
import json
import sys
import threading
import time

import rospy
from sensor_msgs.msg import JointState

topic, n = sys.argv[1], int(sys.argv[2])
lat, arr = [], []
done = threading.Event()


def cb(m):
    now = time.time()
    if len(lat) < n:
        lat.append(now - m.header.stamp.to_sec())
        arr.append(now)
    if len(lat) >= n:
        done.set()


rospy.init_node("latency", anonymous=True, disable_signals=True)
rospy.Subscriber(topic, JointState, cb)
done.wait(120)
lat = sorted(lat[100:])  # after the connection settles
gaps = sorted(b - a for a, b in zip(arr[100:], arr[101:]))


def q(xs, p):
    return round(1000 * xs[min(len(xs) - 1, int(p * len(xs)))], 3) if xs else None


print(json.dumps({"count": len(lat), "p50": q(lat, 0.5), "p99": q(lat, 0.99), "max": q(lat, 1.0),
                  "gap_p99": q(gaps, 0.99), "gap_max": q(gaps, 1.0)}))
rospy.signal_shutdown("done")
