extends Node
## gamewire's live Godot 4 test, run by the Godot 4.6 web engine from a pack the test
## writes. With --seed=N (after --) it prints `V <hex>`: var_to_bytes of random values
## of every Godot 4 type; then for each line of res://values.hex (bytes gamewire
## encoded) `R <hex>`: var_to_bytes(bytes_to_var(line)); then for each value get_var
## reads from res://save4.bin (a Godot 3 store_var file that gamewire carried over to
## Godot 4) `C <hex>`: var_to_bytes of it. With res://containers.hex (tests/
## live_godot4_containers.rs) it writes those values with store_var into encrypted and
## compressed files in user:// and prints them, and reads the ones gamewire wrote (see
## `containers`).

const Item = preload("res://item.gd")
const COUNT := 300
var rng := RandomNumberGenerator.new()
var keep := [] # objects stay alive so their ids stay valid
var rids := []
var alphabet := ["a", "b", "Z", "0", " ", "_", "é", "ß", "中", "😀", "\n", "\"", "\t"]

func i64() -> int:
	match rng.randi_range(0, 3):
		0: return rng.randi_range(-64, 64)
		1: return (rng.randi() << 32) | rng.randi()
		2: return [0, 2147483647, -2147483648, 2147483648, -2147483649,
				9223372036854775807, -9223372036854775807 - 1][rng.randi_range(0, 6)]
		_: return rng.randi_range(-2147483648, 2147483647)

func f64() -> float:
	match rng.randi_range(0, 4):
		0: return rng.randf_range(-1000.0, 1000.0)
		1: return [0.0, -0.0, 1.0, 0.1, 1e300, -1e-300, 5e-324,
				1.7976931348623157e308, 3.4028234663852886e38][rng.randi_range(0, 8)]
		2: return float(rng.randi_range(-800, 800)) / 8.0
		3: return rng.randf()
		_:
			var b := PackedByteArray()
			b.resize(8)
			b.encode_u64(0, (rng.randi() << 32) | rng.randi())
			var f := b.decode_double(0)
			return 0.5 if is_nan(f) or is_inf(f) else f

# A real_t component (single precision in this build): no overflow to infinity.
func r32() -> float:
	match rng.randi_range(0, 3):
		0: return rng.randf_range(-1000.0, 1000.0)
		1: return [0.0, -0.0, 1.0, 0.1, 1e-30, 3.4028234663852886e38][rng.randi_range(0, 5)]
		2: return float(rng.randi_range(-800, 800)) / 8.0
		_: return rng.randf()

func i32() -> int:
	return rng.randi_range(-2147483648, 2147483647)

func text() -> String:
	var s := ""
	for i in rng.randi_range(0, 9):
		s += alphabet[rng.randi_range(0, alphabet.size() - 1)]
	return s

func v2() -> Vector2: return Vector2(r32(), r32())
func v3() -> Vector3: return Vector3(r32(), r32(), r32())
func v4() -> Vector4: return Vector4(r32(), r32(), r32(), r32())

func node() -> Object:
	var n := Node.new()
	keep.append(n)
	return n

func item() -> Object:
	var it := Item.new()
	keep.append(it)
	return it

# A value of type case `t` (0 to 36, every Godot 4 type but Array and Dictionary), or of a
# random one.
func leaf(t := -1) -> Variant:
	if t < 0:
		t = rng.randi_range(0, 36)
	match t:
		0: return null
		1: return rng.randi_range(0, 1) == 1
		2: return i64()
		3: return f64()
		4: return text()
		5: return v2()
		6: return Vector2i(i32(), i32())
		7: return Rect2(v2(), v2())
		8: return Rect2i(i32(), i32(), i32(), i32())
		9: return v3()
		10: return Vector3i(i32(), i32(), i32())
		11: return Transform2D(v2(), v2(), v2())
		12: return v4()
		13: return Vector4i(i32(), i32(), i32(), i32())
		14: return Plane(r32(), r32(), r32(), r32())
		15: return Quaternion(r32(), r32(), r32(), r32())
		16: return AABB(v3(), v3())
		17: return Basis(v3(), v3(), v3())
		18: return Transform3D(Basis(v3(), v3(), v3()), v3())
		19: return Projection(v4(), v4(), v4(), v4())
		20: return Color(r32(), r32(), r32(), r32())
		21: return StringName(text())
		22: return NodePath(["", "/root", "a/b", "../x:y:z", "Player/Sprite:position:x",
				":prop", "中/é:ß"][rng.randi_range(0, 6)])
		23:
			if rng.randi_range(0, 1) == 0:
				return RID()
			rids.append(PhysicsServer2D.body_create())
			return rids[-1]
		24: return node() if rng.randi_range(0, 1) == 0 else item()
		25: return Callable(self, &"leaf") if rng.randi_range(0, 1) == 0 else Callable()
		26: return Signal(node(), &"ready") if rng.randi_range(0, 1) == 0 else Signal()
		27:
			var a := PackedByteArray()
			for i in rng.randi_range(0, 9): a.append(rng.randi_range(0, 255))
			return a
		28:
			var a := PackedInt32Array()
			for i in rng.randi_range(0, 6): a.append(i32())
			return a
		29:
			var a := PackedInt64Array()
			for i in rng.randi_range(0, 6): a.append(i64())
			return a
		30:
			var a := PackedFloat32Array()
			for i in rng.randi_range(0, 6): a.append(r32())
			return a
		31:
			var a := PackedFloat64Array()
			for i in rng.randi_range(0, 6): a.append(f64())
			return a
		32:
			var a := PackedStringArray()
			for i in rng.randi_range(0, 5): a.append(text())
			return a
		33:
			var a := PackedVector2Array()
			for i in rng.randi_range(0, 4): a.append(v2())
			return a
		34:
			var a := PackedVector3Array()
			for i in rng.randi_range(0, 4): a.append(v3())
			return a
		35:
			var a := PackedColorArray()
			for i in rng.randi_range(0, 4): a.append(Color(r32(), r32(), r32(), r32()))
			return a
		36:
			var a := PackedVector4Array()
			for i in rng.randi_range(0, 4): a.append(v4())
			return a
		_: return i64()

func value(depth: int) -> Variant:
	if depth == 0 or rng.randi_range(0, 2) > 0:
		return leaf()
	return container(depth, rng.randi_range(0, 9))

# A container of kind case `c` (0 to 9: Array, Dictionary, typed with builtin, class and
# script types) holding values nested up to `depth` levels.
func container(depth: int, c: int) -> Variant:
	var n := rng.randi_range(0, 4)
	match c:
		0, 1:
			var a := []
			for i in n: a.append(value(depth - 1))
			return a
		2, 3:
			var d := {}
			for i in n: d[text() if i % 2 == 0 else leaf()] = value(depth - 1)
			return d
		4:
			var a := Array([], TYPE_INT, &"", null)
			for i in n: a.append(i64())
			return a
		5:
			var t: int = [TYPE_STRING, TYPE_VECTOR3, TYPE_STRING_NAME][rng.randi_range(0, 2)]
			var a := Array([], t, &"", null)
			for i in n:
				match t:
					TYPE_VECTOR3: a.append(v3())
					TYPE_STRING_NAME: a.append(StringName(text()))
					_: a.append(text())
			return a
		6:
			var a := Array([], TYPE_OBJECT, &"Node", null)
			for i in n: a.append(node())
			return a
		7:
			var a := Array([], TYPE_OBJECT, &"RefCounted", Item)
			for i in n: a.append(item())
			return a
		8:
			var d := Dictionary({}, TYPE_STRING, &"", null, TYPE_FLOAT, &"", null)
			for i in n: d[text()] = f64()
			return d
		_:
			var d := Dictionary({}, TYPE_INT, &"", null, TYPE_OBJECT, &"RefCounted", Item)
			if rng.randi_range(0, 1) == 0:
				d = Dictionary({}, TYPE_STRING_NAME, &"", null, TYPE_OBJECT, &"Node", null)
				for i in n: d[StringName(text())] = node()
			else:
				for i in n: d[i64()] = item()
			return d

const CONTAINER_PASSWORD := "hunter2 ünïcode"

func container_key() -> PackedByteArray:
	var k := PackedByteArray()
	for i in 32:
		k.append((i * 7 + 3) % 256)
	return k

func open_container(path: String, name: String, mode: FileAccess.ModeFlags) -> FileAccess:
	match name:
		"pass": return FileAccess.open_encrypted_with_pass(path, mode, CONTAINER_PASSWORD)
		"key": return FileAccess.open_encrypted(path, mode, container_key())
		_: return FileAccess.open_compressed(path, mode, int(name))

# For each line of res://containers.hex: `O <hex>`, var_to_bytes of the value. Then per
# container (password, key, compression modes 0-3): `F name <hex>`, the bytes of a file
# the engine wrote with store_var of every value, and `G name <hex>`, var_to_bytes of each
# value get_var reads from res://ours_NAME.sav (written by gamewire).
func containers() -> void:
	if not FileAccess.file_exists("res://containers.hex"):
		return
	var values := []
	for line in FileAccess.get_file_as_string("res://containers.hex").split("\n", false):
		var v = bytes_to_var(line.hex_decode())
		values.append(v)
		print("O ", var_to_bytes(v).hex_encode())
	for name in ["pass", "key", "0", "1", "2", "3"]:
		var path := "user://engine_%s.sav" % name
		var f := open_container(path, name, FileAccess.WRITE)
		if f == null:
			print("E write ", name, " ", FileAccess.get_open_error())
			continue
		for v in values:
			f.store_var(v)
		f.close()
		print("F ", name, " ", FileAccess.get_file_as_bytes(path).hex_encode())
		var r := open_container("res://ours_%s.sav" % name, name, FileAccess.READ)
		if r == null:
			print("E read ", name, " ", FileAccess.get_open_error())
			continue
		for i in values.size():
			print("G ", name, " ", var_to_bytes(r.get_var()).hex_encode())

func replay(path: String, tag: String) -> void:
	if not FileAccess.file_exists(path):
		return
	for line in FileAccess.get_file_as_string(path).split("\n", false):
		var v = bytes_to_var(line.hex_decode())
		print(tag, " ", var_to_bytes(v).hex_encode())

func _ready() -> void:
	var seed := 1
	var vectors := false
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--seed="):
			seed = int(arg.substr(7))
		vectors = vectors or arg == "--vectors"
	rng.seed = seed
	if vectors:
		# Fixed vectors: `T <hex>\t<var_to_str>` for one value of each type and container.
		for t in 37:
			var v = leaf(t)
			print("T ", var_to_bytes(v).hex_encode(), "\t", var_to_str(v).replace("\n", " "))
		for c in 10:
			var v = container(2, c)
			print("T ", var_to_bytes(v).hex_encode(), "\t", var_to_str(v).replace("\n", " "))
			if c in [6, 7, 9]:
				print("T ", var_to_bytes_with_objects(v).hex_encode(), "\t(with objects) ", var_to_str(v).replace("\n", " "))
		print("GAMEWIRE_DONE")
		return
	# One of each type and container first, so every run covers them all.
	for t in 37:
		print("V ", var_to_bytes(leaf(t)).hex_encode())
	for c in 10:
		var v = container(2, c)
		print("V ", var_to_bytes(v).hex_encode())
		if c in [6, 7, 9]:
			# With objects: the element class and script are on the wire only then
			# (without, 4.6 writes the element type as EncodedObjectAsID).
			print("W ", var_to_bytes_with_objects(v).hex_encode())
	for i in COUNT - 47:
		print("V ", var_to_bytes(value(3)).hex_encode())
	replay("res://values.hex", "R")
	# A Godot 3 store_var file carried over by gamewire, read as a game would.
	if FileAccess.file_exists("res://save4.bin"):
		var f := FileAccess.open("res://save4.bin", FileAccess.READ)
		while f.get_position() < f.get_length():
			print("C ", var_to_bytes(f.get_var()).hex_encode())
	containers()
	# Settings of the project.binary gamewire wrote into the pack, as the engine read it.
	for i in 16:
		var key := "gamewire/live/k%d" % i
		if ProjectSettings.has_setting(key):
			print("S ", key, " ", var_to_bytes(ProjectSettings.get_setting(key)).hex_encode())
	print("GAMEWIRE_DONE")
	for o in keep:
		if o is Node:
			o.free()
	keep.clear()
	for r in rids:
		PhysicsServer2D.free_rid(r)
	get_tree().quit()
