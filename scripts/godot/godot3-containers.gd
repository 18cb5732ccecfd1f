# Writes the Godot 3 container fixtures (tests/fixtures/godot/containers): a save written
# with store_var into an encrypted file (password "secret", and a 32-byte key 0..31) and
# a compressed file of each mode, and JSON text compressed with Zstd.
#   godot3-server --no-window -s scripts/godot/godot3-containers.gd OUT_DIR
extends SceneTree
func _init():
    var d = OS.get_cmdline_args()[OS.get_cmdline_args().size() - 1]
    var v = {"name": "hero", "hp": 42, "pos": Vector2(1.5, 2), "items": [1, 2.5, "x"], "big": PoolByteArray(range(200))}
    var f = File.new()
    f.open_encrypted_with_pass(d + "/godot3-password.sav", File.WRITE, "secret")
    f.store_var(v)
    f.store_var("second")
    f.close()
    var key = PoolByteArray()
    for i in range(32):
        key.append(i)
    f.open_encrypted(d + "/godot3-key.sav", File.WRITE, key)
    f.store_var(v)
    f.close()
    var names = ["fastlz", "deflate", "zstd", "gzip"]
    for m in range(4):
        f.open_compressed(d + "/godot3-%s.sav" % names[m], File.WRITE, m)
        for i in range(300):
            v["hp"] = i
            f.store_var(v)
        f.close()
    f.open_compressed(d + "/godot3-text-zstd.sav", File.WRITE, File.COMPRESSION_ZSTD)
    f.store_string("{\"json\": true, \"level\": 3}\n")
    f.close()
    print("DONE")
    quit()
