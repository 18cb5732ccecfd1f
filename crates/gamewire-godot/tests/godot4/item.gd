extends RefCounted
## A script class for typed containers (Array[item.gd], Dictionary[..., item.gd]).
var hp := 0
