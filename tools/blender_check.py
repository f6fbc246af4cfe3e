# Imports a glTF exported by rigscope into Blender (headless) and prints the world position of every pose bone's
# head at the given frames as one line "RESULT{json}". Run through tools/blender_check.sh.
#   blender -b --factory-startup --python tools/blender_check.py -- FILE.glb FPS F1,F2,...
import json
import sys

import bpy
import numpy

if not hasattr(numpy, "bool"):
    numpy.bool = bool  # Debian 12: the blender 3.4 glTF add-on still uses np.bool (removed in numpy 1.24)

argv = sys.argv[sys.argv.index("--") + 1:]
path, fps, frames = argv[0], float(argv[1]), [int(x) for x in argv[2].split(",")]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.context.scene.render.fps = int(round(fps))  # the importer keys time * scene fps: frame f lands on frame f
bpy.ops.import_scene.gltf(filepath=path)
arm = [o for o in bpy.data.objects if o.type == "ARMATURE"][0]
if arm.animation_data is None:
    arm.animation_data_create()
arm.animation_data.action = bpy.data.actions[0]
out = {"actions": [a.name for a in bpy.data.actions], "frames": {}}
for f in frames:
    bpy.context.scene.frame_set(f)
    bpy.context.view_layer.update()
    out["frames"][str(f)] = {pb.name: list(arm.matrix_world @ pb.head) for pb in arm.pose.bones}
print("RESULT" + json.dumps(out))
