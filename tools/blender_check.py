# Imports a glTF exported by rigscope into Blender (headless), exports it again as glTF (Blender's own exporter,
# its default settings, custom properties included: the glTF extras the import kept), then prints the world position of every pose bone's head at the given frames of the
# action made from animation ANIM as one line "RESULT{json}". Run through tools/blender_check.sh.
#   blender -b --factory-startup --python tools/blender_check.py -- FILE.glb FPS F1,F2,... ANIM OUT.glb
# The import uses Bone Dir "Blender" (the importer's choice "best for re-importing"): bones keep the glTF
# nodes' own axes, so that the export writes the joints' rotations back as they came in.
import json
import sys

import bpy
import numpy

if not hasattr(numpy, "bool"):
    numpy.bool = bool  # Debian 12: the blender 3.4 glTF add-on still uses np.bool (removed in numpy 1.24)

argv = sys.argv[sys.argv.index("--") + 1:]
path, fps, frames = argv[0], float(argv[1]), [int(x) for x in argv[2].split(",")]
anim, out_path = argv[3], argv[4]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.context.scene.render.fps = int(round(fps))  # the importer keys time * scene fps: frame f lands on frame f
bpy.ops.import_scene.gltf(filepath=path, bone_heuristic="BLENDER")
# Exported first, as imported (every action of the import is an animation of the export).
bpy.ops.export_scene.gltf(filepath=out_path, export_format="GLB", export_extras=True)
arm = [o for o in bpy.data.objects if o.type == "ARMATURE"][0]
if arm.animation_data is None:
    arm.animation_data_create()
# The importer names the action of animation A on armature O "A_O" (or "A" alone).
actions = [a for a in bpy.data.actions if a.name == anim or a.name.startswith(anim + "_")]
arm.animation_data.action = actions[0] if actions else bpy.data.actions[0]
out = {"actions": [a.name for a in bpy.data.actions], "action": arm.animation_data.action.name, "frames": {}}
for f in frames:
    bpy.context.scene.frame_set(f)
    bpy.context.view_layer.update()
    out["frames"][str(f)] = {pb.name: list(arm.matrix_world @ pb.head) for pb in arm.pose.bones}
print("RESULT" + json.dumps(out))
