#!/usr/bin/env python3
"""Writes nao.urdf: NAO H25 (V5) kinematics with robocollide's simplified collision bodies.

Run from this folder: `python3 make_nao_urdf.py` (no dependencies). The URDF is generated so
that every number below appears once, next to its source.

Kinematics (millimetres in the sources, metres here), from Aldebaran's NAO documentation,
"H25 - Links" and "H25 - Joints" (NAOqi 2.1 / 2.8, NAO V5), checked against a second public
source, the team-NUST SPL code's `KinematicsConsts.h` (saifullah3396, 2017), which agrees on
every link length and on the head and arm limits:

    NeckOffsetZ 126.5, ShoulderOffsetY 98, ShoulderOffsetZ 100, ElbowOffsetY 15,
    UpperArmLength 105, LowerArmLength 55.95, HandOffsetX 57.75, HandOffsetZ 12.31,
    HipOffsetY 50, HipOffsetZ 85, ThighLength 100, TibiaLength 102.9, FootHeight 45.19.

Joint limits (radians) are the V5 documentation's. The second source agrees on the head, arms,
hip yaw-pitch, hip roll (left), knees and ankle pitch; it lists older (V3/V4) hip-pitch minima
(-1.7739 instead of V5's -1.535889) and has evident typos on the right hip/ankle roll, so the
documentation wins there.

Axes follow the documentation: x forward, y left, z up; at q = 0 the arms point forward and the
legs straight down. LHipYawPitch turns about (0, 1, -1)/sqrt(2), RHipYawPitch about
(0, 1, 1)/sqrt(2); they are one motor, so RHipYawPitch mimics LHipYawPitch (multiplier 1).

Collision bodies are robocollide's own estimates (no public radii exist), following seed 002:
spheres for the head, the torso and the hips, capsules for the upper arms, forearms, hands,
thighs, tibias and feet, sized from NAO's published outer dimensions (574 mm tall, 275 mm
wide with the arms at its sides, 311 mm deep).
"""

import math

MM = 1e-3
NECK_Z = 126.5 * MM
SHOULDER_Y, SHOULDER_Z = 98 * MM, 100 * MM
ELBOW_Y, UPPER_ARM = 15 * MM, 105 * MM
LOWER_ARM, HAND_X, HAND_Z = 55.95 * MM, 57.75 * MM, 12.31 * MM
HIP_Y, HIP_Z = 50 * MM, 85 * MM
THIGH, TIBIA, FOOT_HEIGHT = 100 * MM, 102.9 * MM, 45.19 * MM

# (lower, upper) in radians, NAO V5 documentation.
LIMITS = {
    "HeadYaw": (-2.0857, 2.0857),
    "HeadPitch": (-0.6720, 0.5149),
    "LShoulderPitch": (-2.0857, 2.0857),
    "LShoulderRoll": (-0.3142, 1.3265),
    "LElbowYaw": (-2.0857, 2.0857),
    "LElbowRoll": (-1.5446, -0.0349),
    "LWristYaw": (-1.8238, 1.8238),
    "RShoulderPitch": (-2.0857, 2.0857),
    "RShoulderRoll": (-1.3265, 0.3142),
    "RElbowYaw": (-2.0857, 2.0857),
    "RElbowRoll": (0.0349, 1.5446),
    "RWristYaw": (-1.8238, 1.8238),
    "LHipYawPitch": (-1.145303, 0.740810),
    "LHipRoll": (-0.379472, 0.790477),
    "LHipPitch": (-1.535889, 0.484090),
    "LKneePitch": (-0.092346, 2.112528),
    "LAnklePitch": (-1.189516, 0.922747),
    "LAnkleRoll": (-0.397880, 0.769001),
    "RHipYawPitch": (-1.145303, 0.740810),
    "RHipRoll": (-0.790477, 0.379472),
    "RHipPitch": (-1.535889, 0.484090),
    "RKneePitch": (-0.103083, 2.120198),
    "RAnklePitch": (-1.186448, 0.932056),
    "RAnkleRoll": (-0.768992, 0.397935),
}

# Collision radii (metres): robocollide's estimates.
TORSO = ((0.0, 0.0, 0.040), 0.065)  # centre in the torso frame, radius
HIPS = ((0.0, 0.0, -0.060), 0.050)
HEAD = ((0.0, 0.0, 0.050), 0.070)  # in the Head frame (after HeadPitch)
UPPER_ARM_R, FOREARM_R, HAND_R = 0.025, 0.025, 0.025
THIGH_R, TIBIA_R, FOOT_R = 0.038, 0.035, 0.025


def fmt(*v):
    return " ".join(f"{x:.6g}" for x in v)


def sphere(name, center, radius):
    return (
        f'    <collision name="{name}">\n'
        f'      <origin xyz="{fmt(*center)}" rpy="0 0 0"/>\n'
        f'      <geometry><sphere radius="{radius:.6g}"/></geometry>\n'
        f"    </collision>\n"
    )


def capsule(name, a, b, radius):
    """A capsule around the segment a b (URDF's capsule extension: axis along z, `length` the
    straight part, centred on the origin)."""
    d = [q - p for p, q in zip(a, b)]
    length = math.sqrt(sum(x * x for x in d))
    mid = [(p + q) / 2 for p, q in zip(a, b)]
    # R = Rz(yaw) Ry(pitch) maps z to d.
    pitch = math.acos(max(-1.0, min(1.0, d[2] / length)))
    yaw = math.atan2(d[1], d[0])
    return (
        f'    <collision name="{name}">\n'
        f'      <origin xyz="{fmt(*mid)}" rpy="0 {pitch:.9g} {yaw:.9g}"/>\n'
        f'      <geometry><capsule radius="{radius:.6g}" length="{length:.6g}"/></geometry>\n'
        f"    </collision>\n"
    )


links = []  # (name, collision xml)
joints = []


def link(name, *bodies):
    links.append((name, "".join(bodies)))


def joint(name, parent, child, xyz, axis=None, mimic=None):
    kind = "fixed" if axis is None else "revolute"
    text = f'  <joint name="{name}" type="{kind}">\n'
    text += f'    <parent link="{parent}"/>\n    <child link="{child}"/>\n'
    text += f'    <origin xyz="{fmt(*xyz)}" rpy="0 0 0"/>\n'
    if axis is not None:
        lo, hi = LIMITS[name]
        text += f'    <axis xyz="{fmt(*axis)}"/>\n'
        text += f'    <limit lower="{lo}" upper="{hi}" effort="10" velocity="8"/>\n'
    if mimic is not None:
        text += f'    <mimic joint="{mimic}" multiplier="1" offset="0"/>\n'
    text += "  </joint>\n"
    joints.append(text)


X, Y, Z = (1, 0, 0), (0, 1, 0), (0, 0, 1)
link("torso", sphere("torso", *TORSO), sphere("hips", *HIPS))
link("Neck")
link("Head", sphere("head", *HEAD))
joint("HeadYaw", "torso", "Neck", (0, 0, NECK_Z), Z)
joint("HeadPitch", "Neck", "Head", (0, 0, 0), Y)

for side, s in (("L", 1), ("R", -1)):
    low = side.lower()
    link(f"{side}Shoulder")
    link(f"{side}Bicep", capsule(f"{low}_upper_arm", (0, 0, 0), (UPPER_ARM, s * ELBOW_Y, 0), UPPER_ARM_R))
    link(f"{side}Elbow")
    link(f"{side}ForeArm", capsule(f"{low}_forearm", (0, 0, 0), (LOWER_ARM, 0, 0), FOREARM_R))
    link(f"{low}_wrist", capsule(f"{low}_hand", (0, 0, 0), (HAND_X, 0, -HAND_Z), HAND_R))
    link(f"{low}_gripper")
    joint(f"{side}ShoulderPitch", "torso", f"{side}Shoulder", (0, s * SHOULDER_Y, SHOULDER_Z), Y)
    joint(f"{side}ShoulderRoll", f"{side}Shoulder", f"{side}Bicep", (0, 0, 0), Z)
    joint(f"{side}ElbowYaw", f"{side}Bicep", f"{side}Elbow", (UPPER_ARM, s * ELBOW_Y, 0), X)
    joint(f"{side}ElbowRoll", f"{side}Elbow", f"{side}ForeArm", (0, 0, 0), Z)
    joint(f"{side}WristYaw", f"{side}ForeArm", f"{low}_wrist", (LOWER_ARM, 0, 0), X)
    joint(f"{side}HandFixed", f"{low}_wrist", f"{low}_gripper", (HAND_X, 0, -HAND_Z))

for side, s in (("L", 1), ("R", -1)):
    low = side.lower()
    link(f"{side}Pelvis")
    link(f"{side}Hip")
    link(f"{side}Thigh", capsule(f"{low}_thigh", (0, 0, -0.015), (0, 0, -THIGH + 0.005), THIGH_R))
    link(f"{side}Tibia", capsule(f"{low}_tibia", (0, 0, -0.01), (0, 0, -TIBIA + 0.01), TIBIA_R))
    link(f"{side}AnklePitch")
    link(f"{low}_ankle", capsule(f"{low}_foot", (-0.045, 0, -FOOT_HEIGHT + FOOT_R), (0.075, 0, -FOOT_HEIGHT + FOOT_R), FOOT_R))
    link(f"{low}_sole")
    axis = (0, math.sqrt(0.5), -s * math.sqrt(0.5))
    joint(f"{side}HipYawPitch", "torso", f"{side}Pelvis", (0, s * HIP_Y, -HIP_Z), axis,
          mimic=None if side == "L" else "LHipYawPitch")
    joint(f"{side}HipRoll", f"{side}Pelvis", f"{side}Hip", (0, 0, 0), X)
    joint(f"{side}HipPitch", f"{side}Hip", f"{side}Thigh", (0, 0, 0), Y)
    joint(f"{side}KneePitch", f"{side}Thigh", f"{side}Tibia", (0, 0, -THIGH), Y)
    joint(f"{side}AnklePitch", f"{side}Tibia", f"{side}AnklePitch", (0, 0, -TIBIA), Y)
    joint(f"{side}AnkleRoll", f"{side}AnklePitch", f"{low}_ankle", (0, 0, 0), X)
    joint(f"{side}FootFixed", f"{low}_ankle", f"{low}_sole", (0, 0, -FOOT_HEIGHT))

out = ['<?xml version="1.0"?>\n',
       "<!-- Generated by make_nao_urdf.py: NAO H25 (V5) kinematics from Aldebaran's documentation;\n"
       "     collision bodies are robocollide's estimates (see the script's notes). Do not edit by hand. -->\n",
       '<robot name="NAO">\n']
for name, bodies in links:
    out.append(f'  <link name="{name}">\n{bodies}  </link>\n' if bodies else f'  <link name="{name}"/>\n')
out.extend(joints)
out.append("</robot>\n")
with open("nao.urdf", "w") as f:
    f.write("".join(out))
print(f"wrote nao.urdf: {len(links)} links, {len(joints)} joints")
