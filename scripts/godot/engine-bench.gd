extends SceneTree
# Times the Godot 3 engine's own bytes2var/var2bytes on a mixed payload (200,000
# dictionaries of ints, floats, strings, Vector3 and small arrays) and a 4,000,000-element
# PoolRealArray, inside the engine, and writes both payloads for gamewire to time too.
#   godot3-server --no-window -s engine-bench.gd OUT_DIR RUNS
func median(a):
    a.sort()
    return a[a.size() / 2]

# Each result is released after the clock stops, so freeing is not timed (as in
# `gamewire bench`, which drops its results outside the timing too).
func time_decode(bytes, runs):
    var t = []
    var v = null
    for i in range(runs):
        var s = OS.get_ticks_usec()
        v = bytes2var(bytes)
        var e = OS.get_ticks_usec() - s
        v = null
        t.append(e)
    return median(t)

func time_encode(value, runs):
    var t = []
    var b = null
    for i in range(runs):
        var s = OS.get_ticks_usec()
        b = var2bytes(value)
        var e = OS.get_ticks_usec() - s
        b = null
        t.append(e)
    return median(t)

func write(path, bytes):
    var f = File.new()
    f.open(path, File.WRITE)
    f.store_buffer(bytes)
    f.close()

func _init():
    var args = OS.get_cmdline_args()
    var out = args[args.size() - 2]
    var runs = int(args[args.size() - 1])
    var records = []
    for i in range(200000):
        var f = float(i)
        records.append({"id": i, "name": "player_%06d" % i, "hp": f * 0.37 + 0.1,
            "score": i * 7919 % 100000, "pos": Vector3(f, 0.5, -f),
            "tags": [i % 3, i % 5, "ok"], "alive": i % 2 == 0})
    var mixed = var2bytes(records)
    write(out + "/mixed.godot3", mixed)
    print("ENGINE mixed bytes ", mixed.size(), " decode_us ", time_decode(mixed, runs), " encode_us ", time_encode(records, runs))
    var reals = PoolRealArray()
    reals.resize(4000000)
    for i in range(4000000):
        reals[i] = i * 0.25
    var packed = var2bytes(reals)
    write(out + "/packed.godot3", packed)
    print("ENGINE packed bytes ", packed.size(), " decode_us ", time_decode(packed, runs), " encode_us ", time_encode(reals, runs))
    quit()
