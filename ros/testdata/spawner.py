#!/usr/bin/python3
"""spawner.py: ros_control's controller spawner's behaviour, for a machine
without ros_control (Debian has no controller_manager package), with the
controller_manager_msgs types genpy generated from frcd's ros/cmmsgs.

Usage: spawner.py [--stopped] [--wait-for TOPIC] [--namespace NS] CONTROLLER...

As the stock spawner: waits for the load, switch and unload services,
waits for True on the --wait-for topic (std_msgs/Bool), loads each
controller, starts them all in one STRICT switch unless --stopped, prints
"spawned" and spins; on shutdown (SIGINT) stops them all (STRICT) and
unloads them in reverse order.
"""
import argparse
import sys
import time

import rospy
from controller_manager_msgs.srv import LoadController, SwitchController, SwitchControllerRequest, UnloadController
from std_msgs.msg import Bool

p = argparse.ArgumentParser()
p.add_argument("--stopped", action="store_true")
p.add_argument("--wait-for")
p.add_argument("--namespace", default="")
p.add_argument("controllers", nargs="+")
args = p.parse_args(rospy.myargv()[1:])
rospy.init_node("spawner", anonymous=True)
ns = args.namespace.rstrip("/") + "/" if args.namespace else ""
names = {k: ns + "controller_manager/" + k for k in ("load_controller", "switch_controller", "unload_controller")}
for n in names.values():
    rospy.wait_for_service(n, timeout=30)
load = rospy.ServiceProxy(names["load_controller"], LoadController)
switch = rospy.ServiceProxy(names["switch_controller"], SwitchController)
unload = rospy.ServiceProxy(names["unload_controller"], UnloadController)

if args.wait_for:
    heard = [None]
    rospy.Subscriber(args.wait_for, Bool, lambda m: heard.__setitem__(0, m))
    print("waiting for", args.wait_for, flush=True)
    while not rospy.is_shutdown() and not (heard[0] and heard[0].data):
        time.sleep(0.01)

loaded = []


def shutdown():
    switch([], loaded, SwitchControllerRequest.STRICT, False, 0.0)
    for name in reversed(loaded):
        unload(name)


rospy.on_shutdown(shutdown)
for name in args.controllers:
    if load(name).ok:
        loaded.append(name)
    else:
        print("failed to load", name, flush=True)
if not args.stopped:
    ok = switch(loaded, [], SwitchControllerRequest.STRICT, False, 0.0).ok
    print("started" if ok else "failed to start", flush=True)
print("spawned", " ".join(loaded), flush=True)
rospy.spin()
