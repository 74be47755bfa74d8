#!/usr/bin/python3
"""mkskins.py - writes a glTF (one file, buffer as a data URI) in the shape of the Khronos sample
RecursiveSkeletons: ONE skinned mesh drawn by many nodes, each with a skin of its own joints.

usage: mkskins.py OUT.gltf SAME [REVERSED] [LONGER]

SAME      instances whose skin lists its own 10-joint chain parents first, as every instance of a
          character does; each binds at another height, so the inverse bind matrices differ.
          The cooked skeletons order their joints alike: the mesh is right for all of them.
REVERSED  further instances whose skin lists its chain child first (joint 9 .. joint 0): the
          cooked skeleton moves parents first, so its joint order is not the first skin's.
LONGER    further instances whose chain and skin have 2 more joints (12), listed parents first:
          the mesh's joints 0..9 are the same cooked joints there, so the mesh is right too.

The mesh is a square column of 10 rings of 4 vertices; ring k is bound to joint k alone.
"""
import base64
import json
import struct
import sys

RINGS = 10


def main():
    out = sys.argv[1]
    same = int(sys.argv[2])
    reversed_ = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    longer = int(sys.argv[4]) if len(sys.argv) > 4 else 0

    blob = bytearray()

    def view(data):
        while len(blob) % 4:
            blob.append(0)
        off = len(blob)
        blob.extend(data)
        views.append({"buffer": 0, "byteOffset": off, "byteLength": len(data)})
        return len(views) - 1

    views, accessors = [], []
    positions, joints, weights = [], [], []
    for k in range(RINGS):
        for x, z in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            positions += [x, 10.0 * k, z]
            joints += [k, 0, 0, 0]
            weights += [1.0, 0.0, 0.0, 0.0]
    indices = []
    for k in range(RINGS - 1):
        for s in range(4):
            a, b = 4 * k + s, 4 * k + (s + 1) % 4
            indices += [a, b, b + 4, a, b + 4, a + 4]
    count = 4 * RINGS
    accessors.append({"bufferView": view(struct.pack("<%df" % len(positions), *positions)),
                      "componentType": 5126, "count": count, "type": "VEC3",
                      "min": [-1, 0, -1], "max": [1, 10.0 * (RINGS - 1), 1]})
    accessors.append({"bufferView": view(struct.pack("<%dB" % len(joints), *joints)),
                      "componentType": 5121, "count": count, "type": "VEC4"})
    accessors.append({"bufferView": view(struct.pack("<%df" % len(weights), *weights)),
                      "componentType": 5126, "count": count, "type": "VEC4"})
    accessors.append({"bufferView": view(struct.pack("<%dH" % len(indices), *indices)),
                      "componentType": 5123, "count": len(indices), "type": "SCALAR"})

    nodes, skins, roots = [], [], []
    kinds = ["same"] * same + ["reversed"] * reversed_ + ["longer"] * longer
    for i, kind in enumerate(kinds):
        base = 5.0 * i  # where this chain starts: every skin binds at another height
        root = len(nodes)
        nodes.append({"name": "column%d" % i, "translation": [20.0 * i, base, 0]})
        length = RINGS + 2 if kind == "longer" else RINGS
        chain = []
        for k in range(length):
            chain.append(len(nodes))
            nodes.append({"name": "c%d_j%d" % (i, k), "translation": [0, 10.0 if k else 0.0, 0]})
        nodes[root]["children"] = [chain[0]]
        for k in range(length - 1):
            nodes[chain[k]]["children"] = [chain[k + 1]]
        roots.append(root)
        order = list(range(length))
        if kind == "reversed":
            order.reverse()
        ibms = []
        for k in order:  # inverse of the joint's world matrix at bind: a translation
            ibms += [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -20.0 * i, -(base + 10.0 * k), 0, 1]
        accessors.append({"bufferView": view(struct.pack("<%df" % len(ibms), *ibms)),
                          "componentType": 5126, "count": len(order), "type": "MAT4"})
        skins.append({"name": "skin%d" % i, "joints": [chain[k] for k in order],
                      "inverseBindMatrices": len(accessors) - 1})
    for i in range(len(kinds)):
        roots.append(len(nodes))
        nodes.append({"name": "instance%d" % i, "mesh": 0, "skin": i})

    doc = {
        "asset": {"version": "2.0", "generator": "kiln tests/cli/mkskins.py"},
        "buffers": [{"byteLength": len(blob),
                     "uri": "data:application/octet-stream;base64,"
                            + base64.b64encode(bytes(blob)).decode("ascii")}],
        "bufferViews": views,
        "accessors": accessors,
        "meshes": [{"name": "column", "primitives": [{
            "attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}, "indices": 3}]}],
        "nodes": nodes,
        "skins": skins,
        "scenes": [{"nodes": roots}],
        "scene": 0,
    }
    with open(out, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
