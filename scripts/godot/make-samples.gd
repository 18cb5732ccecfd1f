extends SceneTree
# Writes the Godot 3 sample files in samples/godot/ with the engine itself:
#   godot3-server --no-window -s scripts/godot/make-samples.gd OUT_DIR
func save_game():
    return {
        "player": {"name": "Ann", "level": 12, "hp": 87.5, "position": Vector3(10.5, 0, -3.25),
                   "inventory": ["sword", "shield", "potion"], "flags": PoolByteArray([1, 0, 1])},
        "world": {"seed": 9000000000, "time": 0.1, "spawn": Vector2(64, 32),
                  "checkpoints": PoolVector3Array([Vector3(1, 2, 3), Vector3(4, 5, 6)])},
        "camera": Transform(Basis(Vector3(0, 1, 0), 0.5), Vector3(0, 5, 10)),
        "tint": Color(1, 0.5, 0.25, 1),
        "path": NodePath("/root/Main/Player:position:x"),
        7: "int key",
    }

func write(path, bytes):
    var f = File.new()
    f.open(path, File.WRITE)
    f.store_buffer(bytes)
    f.close()

func _init():
    var out = OS.get_cmdline_args()[OS.get_cmdline_args().size() - 1]
    write(out + "/save.godot3.bin", var2bytes(save_game()))
    var f = File.new()
    f.open(out + "/stream.godot3.bin", File.WRITE)
    f.store_var({"event": "join", "id": 1})
    f.store_var(PoolRealArray([0.5, 1.5, 2.5]))
    f.store_var("bye")
    f.close()
    quit()
