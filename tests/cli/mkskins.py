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

usage: mkskins.py OUT.gltf --tentacles DEPTH

The shape of RecursiveSkeletons itself: four columns (a chain of 10 joints each, the column's
own placement node being its first joint), and under the last joint of each, four smaller ones,
DEPTH levels down (DEPTH 2: 4 + 16 + 64 = 84 skins); each column is drawn by a node at the scene
root with a skin of its chain. Every joint rotates a little and back over 2 s, so a skin's
columns move with the joints of the column above them.

--animate (with SAME/REVERSED/LONGER) adds a clip that bends every chain joint, so a pose other
than the bind pose shows which joints a vertex follows.
"""
import base64
import json
import math
import struct
import sys

RINGS = 10


def mat_mul(a, b):
    """Column-major 4x4 product a * b."""
    return [sum(a[k * 4 + r] * b[c * 4 + k] for k in range(4)) for c in range(4) for r in range(4)]


def trs(t, s):
    """Column-major matrix of a translation t and a uniform scale s (no rotation at bind)."""
    return [s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, t[0], t[1], t[2], 1]


def inverse_trs(m):
    """Inverse of trs(): scale 1/s, translation -t/s."""
    s = m[0]
    return trs([-m[12] / s, -m[13] / s, -m[14] / s], 1.0 / s)


class Doc:
    def __init__(self):
        self.blob = bytearray()
        self.views, self.accessors = [], []
        self.nodes, self.skins, self.roots = [], [], []
        self.channels, self.samplers = [], []

    def view(self, data):
        while len(self.blob) % 4:
            self.blob.append(0)
        off = len(self.blob)
        self.blob.extend(data)
        self.views.append({"buffer": 0, "byteOffset": off, "byteLength": len(data)})
        return len(self.views) - 1

    def accessor(self, fmt, values, component, kind, count, **extra):
        a = {"bufferView": self.view(struct.pack("<%d%s" % (len(values), fmt), *values)),
             "componentType": component, "count": count, "type": kind}
        a.update(extra)
        self.accessors.append(a)
        return len(self.accessors) - 1

    def mesh(self, caps):
        """The column: RINGS rings of 4 vertices 10 apart, ring k weighted to joint k alone."""
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
        if caps:
            top = 4 * (RINGS - 1)
            indices += [0, 2, 1, 0, 3, 2, top, top + 1, top + 2, top, top + 2, top + 3]
        count = 4 * RINGS
        pos = self.accessor("f", positions, 5126, "VEC3", count, min=[-1, 0, -1],
                            max=[1, 10.0 * (RINGS - 1), 1])
        jnt = self.accessor("B", joints, 5121, "VEC4", count)
        wgt = self.accessor("f", weights, 5126, "VEC4", count)
        idx = self.accessor("H", indices, 5123, "SCALAR", len(indices))
        return {"name": "column", "primitives": [{
            "attributes": {"POSITION": pos, "JOINTS_0": jnt, "WEIGHTS_0": wgt}, "indices": idx}]}

    def node(self, **fields):
        self.nodes.append(fields)
        return len(self.nodes) - 1

    def rock(self, node, axis, angle):
        """A rotation of node about axis by angle and back: keys at 0, 1 and 2 s."""
        if not hasattr(self, "times"):
            self.times = self.accessor("f", [0.0, 1.0, 2.0], 5126, "SCALAR", 3, min=[0], max=[2])
        q = [0.0, 0.0, 0.0, math.cos(angle / 2)]
        q[axis] = math.sin(angle / 2)
        values = [0, 0, 0, 1] + q + [0, 0, 0, 1]
        out = self.accessor("f", values, 5126, "VEC4", 3)
        self.samplers.append({"input": self.times, "output": out})
        self.channels.append({"sampler": len(self.samplers) - 1,
                              "target": {"node": node, "path": "rotation"}})

    def skin(self, name, joints, ibms):
        flat = [v for m in ibms for v in m]
        acc = self.accessor("f", flat, 5126, "MAT4", len(ibms))
        self.skins.append({"name": name, "joints": joints, "inverseBindMatrices": acc})
        return len(self.skins) - 1

    def write(self, out, meshes):
        doc = {
            "asset": {"version": "2.0", "generator": "kiln tests/cli/mkskins.py"},
            "buffers": [{"byteLength": len(self.blob),
                         "uri": "data:application/octet-stream;base64,"
                                + base64.b64encode(bytes(self.blob)).decode("ascii")}],
            "bufferViews": self.views,
            "accessors": self.accessors,
            "meshes": meshes,
            "nodes": self.nodes,
            "skins": self.skins,
            "scenes": [{"nodes": self.roots}],
            "scene": 0,
        }
        if self.channels:
            doc["animations"] = [{"name": "rock", "channels": self.channels,
                                  "samplers": self.samplers}]
        with open(out, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)


def columns(out, same, reversed_, longer, animate):
    d = Doc()
    meshes = [d.mesh(False)]
    kinds = ["same"] * same + ["reversed"] * reversed_ + ["longer"] * longer
    for i, kind in enumerate(kinds):
        base = 5.0 * i  # where this chain starts: every skin binds at another height
        root = d.node(name="column%d" % i, translation=[20.0 * i, base, 0])
        length = RINGS + 2 if kind == "longer" else RINGS
        chain = [d.node(name="c%d_j%d" % (i, k), translation=[0, 10.0 if k else 0.0, 0])
                 for k in range(length)]
        d.nodes[root]["children"] = [chain[0]]
        for k in range(length - 1):
            d.nodes[chain[k]]["children"] = [chain[k + 1]]
        if animate:
            for k in range(length):
                d.rock(chain[k], 2, 0.05 * (k + 1) * (1 if i % 2 else -1))
        d.roots.append(root)
        order = list(range(length))
        if kind == "reversed":
            order.reverse()
        # inverse of each joint's world matrix at bind: a translation
        ibms = [trs([-20.0 * i, -(base + 10.0 * k), 0], 1.0) for k in order]
        d.skin("skin%d" % i, [chain[k] for k in order], ibms)
    for i in range(len(kinds)):
        d.roots.append(d.node(name="instance%d" % i, mesh=0, skin=i))
    d.write(out, meshes)


def tentacles(out, depth):
    d = Doc()
    meshes = [d.mesh(True)]
    corners = [(1, 1), (-1, 1), (-1, -1), (1, -1)]
    axes = [0, 1, 2, 1]  # each corner's column rocks about x, y, z, y

    def tentacle(parent, parent_world, translation, scale, axis, level, name):
        place = d.node(name=name, translation=translation, scale=[scale] * 3)
        if parent is None:
            d.roots.append(place)
        else:
            d.nodes[parent].setdefault("children", []).append(place)
        world = mat_mul(parent_world, trs(translation, scale))
        bones, worlds = [place], [world]
        for k in range(1, RINGS):
            b = d.node(name="%s_j%d" % (name, k), translation=[0, 10.0, 0])
            d.nodes[bones[-1]]["children"] = [b]
            world = mat_mul(world, trs([0, 10.0, 0], 1.0))
            bones.append(b)
            worlds.append(world)
        for b in bones:
            d.rock(b, axis, 0.2)
        skin = d.skin(name, bones, [inverse_trs(w) for w in worlds])
        d.roots.append(d.node(name=name + "_mesh", mesh=0, skin=skin))
        if level == 0:
            return
        for c, (x, z) in enumerate(corners):
            # 15 units out, then the whole child a fifth of the size
            tentacle(bones[-1], worlds[-1], [15.0 * x * 0.2, 0, 15.0 * z * 0.2], 0.2, axes[c],
                     level - 1, "%s_%d" % (name, c))

    for c, (x, z) in enumerate(corners):
        tentacle(None, trs([0, 0, 0], 1.0), [25.0 * x, 0, 25.0 * z], 1.0, axes[c], depth,
                 "t%d" % c)
    d.write(out, meshes)


def main():
    out = sys.argv[1]
    if len(sys.argv) > 3 and sys.argv[2] == "--tentacles":
        tentacles(out, int(sys.argv[3]))
        return
    args = [a for a in sys.argv[2:] if a != "--animate"]
    animate = "--animate" in sys.argv[2:]
    same = int(args[0])
    reversed_ = int(args[1]) if len(args) > 1 else 0
    longer = int(args[2]) if len(args) > 2 else 0
    columns(out, same, reversed_, longer, animate)


if __name__ == "__main__":
    main()
