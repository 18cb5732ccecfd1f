extends SceneTree
# Times the Godot 3 engine reading a ~20 MB save with its own get_var loop through an
# encrypted file (open_encrypted_with_pass) and a compressed file of each mode
# (open_compressed), and leaves the files for gamewire to time too.
#   godot3-server --no-window -s engine-containers-bench.gd OUT_DIR RUNS
func median(a):
    a.sort()
    return a[a.size() / 2]

func open_file(f, path, kind, write):
    var mode = File.WRITE if write else File.READ
    if kind == "encrypted":
        return f.open_encrypted_with_pass(path, mode, "bench password")
    return f.open_compressed(path, mode, ["fastlz", "deflate", "zstd", "gzip"].find(kind))

# The engine's loop as a game reads its save: open, get_var until the end, close. The
# values are released after the clock stops.
func time_read(path, kind, runs):
    var t = []
    var n = 0
    for i in range(runs):
        var values = []
        var s = OS.get_ticks_usec()
        var f = File.new()
        open_file(f, path, kind, false)
        var size = f.get_len()
        while f.get_position() < size:
            values.append(f.get_var())
        f.close()
        t.append(OS.get_ticks_usec() - s)
        n = values.size()
        values = null
    return [median(t), n]

func _init():
    var args = OS.get_cmdline_args()
    var out = args[args.size() - 2]
    var runs = int(args[args.size() - 1])
    # 100 store_vars of 1,000 records each: about 21 MB of Variants.
    var frames = []
    for j in range(100):
        var records = []
        for k in range(1000):
            var i = j * 1000 + k
            var x = float(i)
            records.append({"id": i, "name": "player_%06d" % i, "hp": x * 0.37 + 0.1,
                "score": i * 7919 % 100000, "pos": Vector3(x, 0.5, -x),
                "tags": [i % 3, i % 5, "ok"], "alive": i % 2 == 0})
        frames.append(records)
    for kind in ["encrypted", "fastlz", "deflate", "zstd", "gzip"]:
        var path = out + "/" + kind + ".sav"
        var f = File.new()
        open_file(f, path, kind, true)
        for r in frames:
            f.store_var(r)
        var plain = f.get_len()
        f.close()
        var r = time_read(path, kind, runs)
        print("ENGINE ", kind, " plain_bytes ", plain, " read_us ", r[0], " values ", r[1])
    quit()
